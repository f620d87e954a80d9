import { existsSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

/**
 * One Vitest run for the workspace, on all cores. Server tests run on the embedded database (PGlite)
 * and, when TEST_DATABASE_URL is set, once more on that PostgreSQL server, except what one database
 * already proves (docs/architecture.md, "Test tiers"):
 * - a server test that never reaches the test database (a unit test: codecs, crypto, config, parsers)
 *   runs once, in server-pglite. It reaches the database when it imports the harness
 *   (apps/server/test/harness.ts), directly or through any helper, or injects a database the global
 *   setup made. This is read from the files' imports, so no list to keep;
 * - `*.concurrency.test.ts`, `*.scaleout.test.ts` and `*.postgres.test.ts` check PostgreSQL behaviour (races
 *   and locks, several server processes, a PostgreSQL server itself): PostgreSQL only;
 * - the IM scenario suite with our own client (the second client) runs on PGlite only: the server
 *   projects already run the same scenarios with the published client on both databases;
 * - the conservation tier's long sequential run (10,000 random money steps) runs on PGlite only: its
 *   concurrent version (`conservation.concurrency.test.ts`) is the PostgreSQL one.
 */
const root = import.meta.dirname;
const serverTests = ["apps/server/src/**/*.test.ts"];
const POSTGRES_ONLY = /\.(concurrency|scaleout|postgres)\.test\.ts$/;
const postgresOnly = ["concurrency", "scaleout", "postgres"].map((kind) => `apps/server/src/**/*.${kind}.test.ts`);
/** Several server processes sharing PostgreSQL and Redis: only when both servers are given. */
const needsRedis = ["apps/server/src/**/*.scaleout.test.ts"];
/** Sequential property runs that one database proves (see above). */
const pgliteOnly = ["apps/server/src/conservation/conservation.test.ts"];

const HARNESS = path.join(root, "apps/server/test/harness.ts");
/** Value imports and re-exports (`import type` is erased, so it does not count), and dynamic imports. */
const IMPORT =
  /\b(?:import|export)\s+(?!type\s)(?:[\w$*{}\s,]*?\bfrom\s*)?["'](\.{1,2}\/[^"']+)["']|\bimport\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g;
const INJECTS_DATABASE = /\binject\(\s*["'](?:postgresUrl|pgliteTemplate)["']/;
const reaches = new Map<string, boolean>();

function resolveImport(from: string, specifier: string): string | undefined {
  const base = path.resolve(path.dirname(from), specifier);
  const candidates = [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts"), base.replace(/\.m?js$/, ".ts")];
  return candidates.find((file) => /\.tsx?$/.test(file) && existsSync(file));
}

/** Whether a file, or anything it imports from the repository, starts a test database. */
function reachesTestDatabase(file: string): boolean {
  const known = reaches.get(file);
  if (known !== undefined) return known;
  reaches.set(file, false); // an import cycle adds nothing
  const source = readFileSync(file, "utf8");
  let found = file === HARNESS || INJECTS_DATABASE.test(source);
  for (const match of source.matchAll(IMPORT)) {
    if (found) break;
    const imported = resolveImport(file, (match[1] ?? match[2])!);
    if (imported) found = reachesTestDatabase(imported);
  }
  reaches.set(file, found);
  return found;
}

/** Server test files that run on either database (not PostgreSQL-only), as paths from the repository root. */
const eitherDatabaseTests = readdirSync(path.join(root, "apps/server/src"), { recursive: true, encoding: "utf8" })
  .filter((file) => file.endsWith(".test.ts") && !POSTGRES_ONLY.test(file))
  .map((file) => path.join("apps/server/src", file))
  .sort();
/** Server test files that never reach a test database. */
const serverUnitTests = eitherDatabaseTests.filter((file) => !reachesTestDatabase(path.join(root, file)));
/**
 * Files that prove the books themselves: on both databases, whatever the split below.
 */
const BOTH_DATABASES = /^apps\/server\/src\/(modules\/ledger|conservation|modules\/providerops)\//;
/**
 * With a PostgreSQL server, the other database-reaching files run on one database each, alternating in
 * name order within each folder, so every module's tests meet both (docs/architecture.md, "Test tiers").
 * `TEST_BOTH_DATABASES=1` runs every one of them on both again.
 */
const postgresShare = (() => {
  const byFolder = new Map<string, number>();
  return eitherDatabaseTests.filter((file) => {
    if (serverUnitTests.includes(file) || BOTH_DATABASES.test(file)) return false;
    const n = byFolder.get(path.dirname(file)) ?? 0;
    byFolder.set(path.dirname(file), n + 1);
    return n % 2 === 1;
  });
})();
const splitDatabases = Boolean(process.env.TEST_DATABASE_URL) && process.env.TEST_BOTH_DATABASES !== "1";
const pgliteShare = eitherDatabaseTests.filter(
  (file) => !serverUnitTests.includes(file) && !BOTH_DATABASES.test(file) && !postgresShare.includes(file),
);

const serverProject = {
  // Files in a worker share its loaded modules instead of importing the whole server anew for each file
  // (about 2 s a file, half the run's time when isolated). Every file starts its own app on its own
  // database (test/harness.ts), so what they share is code, not state. VITEST_ISOLATE=1 isolates again.
  isolate: process.env.VITEST_ISOLATE === "1",
  setupFiles: ["apps/server/test/no-browser-globals.ts"],
  globalSetup: ["apps/server/test/global-setup.ts"],
  testTimeout: 30_000,
  hookTimeout: 60_000,
};

export default defineConfig({
  test: {
    // Vitest's default leaves a core to itself (one worker on two cores); the workers share the machine
    // with the PostgreSQL server, but a test waits on it or on timers as often as it computes.
    maxWorkers: os.availableParallelism(),
    projects: [
      { test: { name: "contracts", include: ["packages/contracts/src/**/*.test.ts"] } },
      { test: { name: "house", include: ["eslint-rules/**/*.test.mjs", "scripts/**/*.test.mjs"] } },
      { test: { name: "web", include: ["apps/web/src/**/*.test.ts"] } },
      {
        test: {
          name: "im-sdk",
          include: ["packages/im-sdk/test/**/*.test.ts"],
          exclude: ["packages/im-sdk/test/server/**"],
          testTimeout: 30_000,
        },
      },
      // The IM scenario suite once more, with our client SDK instead of the published one (the server
      // projects run it with the published one, on both databases), and our SDK's tests against a server.
      {
        test: {
          name: "im-scenario-tessera-sdk",
          include: ["apps/server/src/im/scenario/**/*.test.ts", "packages/im-sdk/test/server/**/*.test.ts"],
          // sdk5.test.ts drives the UIKit's own SDK 5 whatever IM_SCENARIO_SDK says: the server projects run it.
          exclude: ["apps/server/src/im/scenario/sdk5.test.ts"],
          env: { TEST_DB: "pglite", IM_SCENARIO_SDK: "tessera" },
          ...serverProject,
        },
      },
      {
        test: {
          name: "server-pglite",
          include: serverTests,
          exclude: [...postgresOnly, ...(splitDatabases ? postgresShare : [])],
          env: { TEST_DB: "pglite" },
          ...serverProject,
        },
      },
      ...(process.env.TEST_DATABASE_URL
        ? [
            {
              test: {
                name: "server-postgres",
                include: serverTests,
                exclude: [
                  ...serverUnitTests,
                  ...pgliteOnly,
                  ...(splitDatabases ? pgliteShare : []),
                  ...(process.env.TEST_REDIS_URL ? [] : needsRedis),
                ],
                env: { TEST_DB: "postgres" },
                // Each worker on its own copy of the run's database, so files running side by side do
                // not see each other's half-done work (a file still sees what earlier files left).
                ...serverProject,
                setupFiles: [...serverProject.setupFiles, "apps/server/test/worker-database.ts"],
              },
            },
          ]
        : []),
    ],
  },
});
