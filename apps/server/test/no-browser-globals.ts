/**
 * Before each server test file: no `window` left on the worker's globals. Files share their worker's
 * globals (vitest.config.ts, `isolate: false`), and the published IM client's scenario files put browser
 * globals there (im/scenario/sdk.ts installs them again whenever a scenario connects). PGlite takes a
 * `window` for a browser and looks for its files by URL, so a database started by the next file (a test
 * app, a backup restored) would fail.
 */
const g = globalThis as { window?: unknown };
if (g.window === globalThis) delete g.window;
