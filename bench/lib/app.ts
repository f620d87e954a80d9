import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildApp } from "../../apps/server/src/app";
import { loadConfig } from "../../apps/server/src/config";
import { createContext } from "../../apps/server/src/context";
import type { Database } from "../../apps/server/src/db/database";
import { migrate } from "../../apps/server/src/db/migrate";
import { ManualClock } from "../../apps/server/src/platform/clock";
import { injectCaller, type TestApp } from "../../apps/server/test/harness";

/**
 * The server in process on a database the bench opened, shaped as the tests' fixtures expect (the tests'
 * harness without Vitest), so a bench sets its data up with the same fixtures the tests use.
 */
export async function benchApp(database: Database): Promise<TestApp> {
  await migrate(database);
  const dataDir = mkdtempSync(path.join(tmpdir(), "tessera-bench-app-"));
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: "silent",
    DEV_ROUTES: "true",
    ARGON2_MEMORY_KIB: "4096",
    ARGON2_ITERATIONS: "1",
    AUTO_PAYOUT: "false",
    // The web build the pages are served from (lighthouse.bench.ts), when not apps/web/dist.
    ...(process.env.WEB_DIST ? { WEB_DIST: process.env.WEB_DIST } : {}),
  });
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
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
