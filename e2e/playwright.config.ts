import { defineConfig, devices } from "@playwright/test";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { E2E_OPERATOR } from "./support/operator";

/**
 * Browser journeys against a real server: `node scripts/start.mjs` (builds the web app when stale) on
 * PORT 18080 with a fresh embedded database in a temporary folder, driven through Debian's Chromium.
 * The folder is made once (workers inherit it through the environment) and removed in the teardown.
 */
const repoRoot = path.resolve(import.meta.dirname, "..");
const PORT = Number(process.env.E2E_PORT ?? 18080);
export const BASE_URL = `http://127.0.0.1:${PORT}`;
process.env.TESSERA_E2E_DATA_DIR ??= mkdtempSync(path.join(os.tmpdir(), "tessera-e2e-"));

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export default defineConfig({
  testDir: "journeys",
  outputDir: "test-results",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  globalTeardown: "./support/teardown.ts",
  use: {
    ...devices["Desktop Chrome"],
    baseURL: BASE_URL,
    viewport: { width: 1366, height: 860 },
    locale: "zh-CN",
    trace: "retain-on-failure",
    launchOptions: { executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS },
  },
  webServer: {
    command: "node scripts/start.mjs",
    cwd: repoRoot,
    url: `${BASE_URL}/api/card-user/common/config`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      PORT: String(PORT),
      HOST: "127.0.0.1",
      DATA_DIR: process.env.TESSERA_E2E_DATA_DIR,
      LOG_LEVEL: "warn",
      // The operator account the first start creates (journeys sign in to /ops with it).
      OPS_EMAIL: E2E_OPERATOR.email,
      OPS_PASSWORD: E2E_OPERATOR.password,
    },
  },
});
