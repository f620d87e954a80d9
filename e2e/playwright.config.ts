import { defineConfig, devices } from "@playwright/test";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { CHROMIUM_ARGS, findChromium, mergeChromiumArgs, type ChromiumChoice } from "./support/browser";
import { E2E_OPERATOR } from "./support/operator";

/**
 * Browser journeys against real servers: `node scripts/start.mjs` (builds the web app when stale), each
 * with a fresh embedded database in a temporary folder, driven through Chromium: the system's when there
 * is one, else the packaged build (support/browser.ts). The journeys run on E2E_WORKERS workers (1 by
 * default: on two cores, two workers made each journey about twice as slow and gained nothing), each with
 * a server of its own on E2E_PORT + the worker's slot (18080, 18081, ...), so a journey sees what it
 * would see alone with a server shared by the journeys before it, never another journey's half-done work. The CSP check runs last, against every server. The
 * folder and the browser are chosen once, in the runner, which prints the browser; workers inherit both
 * through the environment (a worker loads this file again, with TEST_PARALLEL_INDEX set). The global
 * setup checks the fonts, the teardown removes the folder.
 */
const repoRoot = path.resolve(import.meta.dirname, "..");
const BASE_PORT = Number(process.env.E2E_PORT ?? 18080);
const WORKERS = Math.max(1, Number(process.env.E2E_WORKERS ?? 1));
/** One server per worker slot. */
export const SERVER_URLS = Array.from({ length: WORKERS }, (_, slot) => `http://127.0.0.1:${BASE_PORT + slot}`);
/** The server of this worker (the runner itself uses the first). */
export const BASE_URL = SERVER_URLS[Number(process.env.TEST_PARALLEL_INDEX ?? 0) % WORKERS]!;
process.env.TESSERA_E2E_DATA_DIR ??= mkdtempSync(path.join(os.tmpdir(), "tessera-e2e-"));
const dataDir = process.env.TESSERA_E2E_DATA_DIR;

if (!process.env.TESSERA_E2E_CHROMIUM) {
  const choice = await findChromium();
  process.env.TESSERA_E2E_CHROMIUM = JSON.stringify(choice);
  console.log(`Browser: ${choice.label}`);
}
const chromium = JSON.parse(process.env.TESSERA_E2E_CHROMIUM) as ChromiumChoice;
export const LAUNCH_OPTIONS = {
  executablePath: chromium.executablePath,
  args: mergeChromiumArgs(CHROMIUM_ARGS, chromium.args),
};

/** The CSP journey reads what every other journey's pages reported, so it runs after them. */
const CSP_JOURNEY = /zz-csp\.spec\.ts$/;

export default defineConfig({
  testDir: "journeys",
  outputDir: "test-results",
  fullyParallel: false,
  workers: WORKERS,
  retries: 0,
  // Hang guards, not budgets: a journey is a whole user flow, and on two cores shared with other work a
  // console page can take 10-20 s to render (CI saw 60 s journeys time out at a load average of 10).
  timeout: 180_000,
  expect: { timeout: 20_000 },
  reporter: [["list"]],
  globalSetup: "./support/setup.ts",
  globalTeardown: "./support/teardown.ts",
  use: {
    ...devices["Desktop Chrome"],
    baseURL: BASE_URL,
    viewport: { width: 1366, height: 860 },
    locale: "zh-CN",
    trace: "retain-on-failure",
    // Hang guards for one action or navigation: a click lost on a loaded machine then fails its journey
    // in 90 s with the step named, not at the journey's timeout minutes later.
    actionTimeout: 90_000,
    navigationTimeout: 90_000,
    launchOptions: LAUNCH_OPTIONS,
  },
  projects: [
    { name: "journeys", testIgnore: CSP_JOURNEY },
    { name: "csp", testMatch: CSP_JOURNEY, dependencies: ["journeys"] },
  ],
  webServer: SERVER_URLS.map((url, slot) => ({
    command: "node scripts/start.mjs",
    cwd: repoRoot,
    url: `${url}/api/card-user/common/config`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: "ignore" as const,
    stderr: "pipe" as const,
    env: {
      PORT: String(BASE_PORT + slot),
      HOST: "127.0.0.1",
      DATA_DIR: path.join(dataDir, `server-${slot}`),
      LOG_LEVEL: "warn",
      // The journeys read e-mail and SMS codes from the dev outbox and backdate orders (/api/dev/*).
      DEV_ROUTES: "true",
      // The local courier simulator's tracking events two seconds apart (commerce journey).
      COURIER_SIM_STEP_SECONDS: "2",
      // Commission statements held for refunds 45 days after their month (commission journey: last month's
      // statement is always still on hold, whatever today's date).
      COMMISSION_HOLD_DAYS: "45",
      // The operator account the first start creates (journeys sign in to /ops with it).
      OPS_EMAIL: E2E_OPERATOR.email,
      OPS_PASSWORD: E2E_OPERATOR.password,
    },
  })),
});
