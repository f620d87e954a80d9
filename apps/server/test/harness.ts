import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { inject } from "vitest";
import { buildApp } from "../src/app";
import { loadConfig, type Config } from "../src/config";
import { createContext, type AppContext } from "../src/context";
import { openPglite, openPostgres } from "../src/db/database";
import { ManualClock } from "../src/platform/clock";
import { injectTransport, type CallOptions, type CallResult } from "./kit/call";

export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  clock: ManualClock;
  config: Config;
  /** Sends a request through app.inject and returns the status and parsed body. */
  call<T = unknown>(
    method: "GET" | "POST" | "PUT" | "DELETE",
    url: string,
    options?: CallOptions,
  ): Promise<CallResult<T>>;
  close(): Promise<void>;
}
export type { CallOptions, CallResult } from "./kit/call";

/** `TestApp.call` over an app: app.inject with the token and language headers, the body parsed when JSON. */
export const injectCaller = (app: FastifyInstance): TestApp["call"] => injectTransport(app);

/**
 * Runs `fn` with the browser globals the published IM client needs (im/scenario/sdk.ts puts `window` on
 * globalThis) out of sight: PGlite takes a `window` for a browser and looks for its files by URL. Files
 * share a worker's globals (vitest.config.ts, `isolate: false`), so a scenario file's `window` is still
 * there when the next file starts its database.
 */
async function outsideBrowserGlobals<T>(fn: () => Promise<T>): Promise<T> {
  const g = globalThis as { window?: unknown };
  const window = g.window;
  delete g.window;
  try {
    return await fn();
  } finally {
    if (window !== undefined) g.window = window;
  }
}

/**
 * A whole server on its own database for one test file: a copy of the migrated PGlite template, or the
 * run's database on the PostgreSQL server when the project is server-postgres. Tests isolate by
 * creating their own merchants and addresses rather than by truncating.
 */
export async function startTestApp(
  env: Record<string, string> = {},
  options: { embedded?: boolean } = {},
): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "tessera-test-"));
  // DEV_ROUTES: tests read the codes they were "sent" from the dev outbox (lastCode); a test of the
  // production shape passes DEV_ROUTES: "false".
  const config = loadConfig({
    DATA_DIR: dataDir,
    ARGON2_MEMORY_KIB: "4096",
    ARGON2_ITERATIONS: "1",
    LOG_LEVEL: "silent",
    DEV_ROUTES: "true",
    ...env,
  });
  let database;
  if (process.env.TEST_DB === "postgres" && !options.embedded) {
    database = await openPostgres(inject("postgresUrl"), 5);
  } else {
    // `embedded`: an embedded database even in the PostgreSQL project (tests of moving from one to the
    // other); made anew there, since that project has no migrated template.
    const pgdata = path.join(dataDir, "pgdata");
    const template = inject("pgliteTemplate") as string | undefined;
    if (template) cpSync(template, pgdata, { recursive: true });
    database = await outsideBrowserGlobals(() => openPglite(pgdata));
  }
  const clock = new ManualClock();
  const ctx = await createContext(config, { database, clock, log: () => undefined });
  const app = await buildApp(ctx);
  await app.ready();
  return {
    app,
    ctx,
    clock,
    config,
    call: injectCaller(app),
    async close() {
      await app.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export { lastCode, registerMerchant, STRONG_PASSWORD, uniqueEmail, uniquePhone } from "./kit/accounts";
