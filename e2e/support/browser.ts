import { accessSync, constants, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";

/**
 * Which Chromium the browser tests run (the journeys, the IM SDK's browser test): a system Chromium when
 * there is one, since it starts faster — `CHROMIUM_PATH`, then Debian's headless shell
 * (`chromium-headless-shell`), then `/usr/bin/chromium`, then `chromium` on PATH — else the build inside
 * the npm package @sparticuz/chromium, unpacked once per version into a temporary folder, so
 * `npm install && npm test` needs no system browser. `E2E_BROWSER=packaged` forces the packaged build,
 * `E2E_BROWSER=system` refuses to fall back to it. The headless shell comes first because it is
 * Playwright's own choice for headless runs: the same Blink without the full browser's windowing and GPU
 * path, and on this two-core machine a journey ran about a fifth faster in it (docs/architecture.md).
 */
export interface ChromiumChoice {
  kind: "system" | "packaged";
  executablePath: string;
  /** Flags this build needs besides the caller's own (the packaged build's, see PACKAGED_LEFT_OUT). */
  args: string[];
  /** One line for the log: which browser, from where. */
  label: string;
}

/** Our flags for a test browser; each launcher merges them with the chosen build's `args`. */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * The packaged build's recommended flags (`chromium.args`, written for AWS Lambda) that a test browser
 * leaves out: those that loosen what a page may do (a journey would pass where a user's browser fails),
 * `--single-process` (Lambda's sandbox needs it; it makes every context share one crashable process),
 * `--headless` (Playwright sets the mode), and the feature lists (Chromium keeps only the last
 * `--disable-features`/`--enable-features`, so these would replace Playwright's own lists).
 */
const PACKAGED_LEFT_OUT = new Set([
  "--disable-web-security",
  "--allow-running-insecure-content",
  "--disable-site-isolation-trials",
  "--single-process",
  "--headless",
  "--disable-features",
  "--enable-features",
]);

const flagName = (arg: string) => arg.split("=", 1)[0] ?? arg;

/** The caller's flags, then the build's, each flag once (the caller's value wins). */
export function mergeChromiumArgs(ours: readonly string[], build: readonly string[]): string[] {
  const seen = new Set(ours.map(flagName));
  return [...ours, ...build.filter((arg) => !seen.has(flagName(arg)))];
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Debian's headless shell (its /usr/bin entry is a wrapper script: the binary itself spares a shell). */
const HEADLESS_SHELL = "/usr/lib/chromium/chromium-headless-shell";

function systemChromium(env: NodeJS.ProcessEnv): string | undefined {
  for (const file of [HEADLESS_SHELL, "/usr/bin/chromium"]) if (isExecutable(file)) return file;
  for (const name of ["chromium-headless-shell", "chromium"]) {
    for (const dir of (env.PATH ?? "").split(path.delimiter)) {
      if (dir && isExecutable(path.join(dir, name))) return path.join(dir, name);
    }
  }
  return undefined;
}

/** The packaged build, unpacked into os.tmpdir()/tessera-chromium-<version>-<uid> (reused by later runs). */
async function packagedChromium(): Promise<ChromiumChoice> {
  const require = createRequire(import.meta.url);
  let entry: string;
  try {
    entry = require.resolve("@sparticuz/chromium");
  } catch {
    throw new Error(
      "No system Chromium and no @sparticuz/chromium: run `npm install` (it is a devDependency of e2e), or set CHROMIUM_PATH",
    );
  }
  const { default: chromium } = await import("@sparticuz/chromium");
  const packageDir = path.resolve(path.dirname(entry), "../..");
  const { version } = JSON.parse(readFileSync(path.join(packageDir, "package.json"), "utf8")) as { version: string };
  const home = path.join(os.tmpdir(), `tessera-chromium-${version}-${process.getuid?.() ?? 0}`); // its binary is private to its owner
  const executablePath = path.join(home, "chromium");
  if (!existsSync(executablePath)) {
    // The package unpacks into os.tmpdir() (its binary, its graphics libraries beside it) and reuses any
    // /tmp/chromium it finds, whatever its version. So: unpack into a folder of our own and move it into
    // place in one rename, which also keeps two processes unpacking at once from seeing half a file.
    const building = `${home}.${process.pid}`;
    rmSync(building, { recursive: true, force: true });
    mkdirSync(building, { recursive: true });
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = building;
    try {
      await chromium.executablePath(path.join(packageDir, "bin"));
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
    try {
      renameSync(building, home);
    } catch (error) {
      rmSync(building, { recursive: true, force: true });
      if (!existsSync(executablePath)) throw error;
    }
  }
  const args = chromium.args.filter((arg) => !PACKAGED_LEFT_OUT.has(flagName(arg)));
  return {
    kind: "packaged",
    executablePath,
    args,
    label: `packaged Chromium from @sparticuz/chromium ${version} (${executablePath})`,
  };
}

export async function findChromium(env: NodeJS.ProcessEnv = process.env): Promise<ChromiumChoice> {
  const wanted = env.E2E_BROWSER ?? "auto";
  if (!["auto", "system", "packaged"].includes(wanted)) {
    throw new Error(`E2E_BROWSER=${wanted}: use auto, system or packaged`);
  }
  if (wanted !== "packaged") {
    if (env.CHROMIUM_PATH) {
      if (!isExecutable(env.CHROMIUM_PATH)) {
        throw new Error(`CHROMIUM_PATH=${env.CHROMIUM_PATH} is not an executable file`);
      }
      return {
        kind: "system",
        executablePath: env.CHROMIUM_PATH,
        args: [],
        label: `system Chromium ${env.CHROMIUM_PATH} (CHROMIUM_PATH)`,
      };
    }
    const found = systemChromium(env);
    if (found) return { kind: "system", executablePath: found, args: [], label: `system Chromium ${found}` };
    if (wanted === "system") {
      throw new Error(
        "E2E_BROWSER=system, but there is no chromium-headless-shell, no /usr/bin/chromium, no chromium on PATH and no CHROMIUM_PATH",
      );
    }
  }
  return packagedChromium();
}

/** Launch options for Playwright: the chosen build with our flags (or the caller's) merged with its own. */
export async function chromiumLaunchOptions(
  ours: readonly string[] = CHROMIUM_ARGS,
): Promise<{ executablePath: string; args: string[]; choice: ChromiumChoice }> {
  const choice = await findChromium();
  return { executablePath: choice.executablePath, args: mergeChromiumArgs(ours, choice.args), choice };
}
