import { defineConfig } from "vitest/config";

/**
 * One Vitest run for the workspace. Server integration tests run on the embedded database (PGlite) and,
 * when TEST_DATABASE_URL is set, once more on that PostgreSQL server.
 */
const serverTests = ["apps/server/src/**/*.test.ts"];
const postgresOnly = ["apps/server/src/**/*.concurrency.test.ts", "apps/server/src/**/*.scaleout.test.ts"];
/** Several server processes sharing PostgreSQL and Redis: only when both servers are given. */
const needsRedis = ["apps/server/src/**/*.scaleout.test.ts"];

/** The scenario suite and the SDK's server tests with our client SDK, on the given database. */
function tesseraSdkProject(name: string, db: "pglite" | "postgres") {
  return {
    test: {
      name,
      include: ["apps/server/src/im/scenario/**/*.test.ts", "packages/im-sdk/test/server/**/*.test.ts"],
      env: { TEST_DB: db, IM_SCENARIO_SDK: "tessera" },
      globalSetup: ["apps/server/test/global-setup.ts"],
      testTimeout: 30_000,
      hookTimeout: 60_000,
    },
  };
}

export default defineConfig({
  test: {
    projects: [
      { test: { name: "contracts", include: ["packages/contracts/src/**/*.test.ts"] } },
      { test: { name: "web", include: ["apps/web/src/**/*.test.ts"] } },
      { test: { name: "im-sdk", include: ["packages/im-sdk/test/**/*.test.ts"], exclude: ["packages/im-sdk/test/server/**"], testTimeout: 30_000 } },
      // The IM scenario suite once more, with our client SDK instead of the published one (the server
      // projects run it with the published one), and our SDK's tests against a server.
      tesseraSdkProject("im-scenario-tessera-sdk", "pglite"),
      {
        test: {
          name: "server-pglite",
          include: serverTests,
          exclude: postgresOnly,
          env: { TEST_DB: "pglite" },
          globalSetup: ["apps/server/test/global-setup.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      ...(process.env.TEST_DATABASE_URL
        ? [
            {
              test: {
                name: "server-postgres",
                include: serverTests,
                exclude: process.env.TEST_REDIS_URL ? [] : needsRedis,
                env: { TEST_DB: "postgres" },
                globalSetup: ["apps/server/test/global-setup.ts"],
                testTimeout: 30_000,
                hookTimeout: 60_000,
              },
            },
            tesseraSdkProject("im-scenario-tessera-sdk-postgres", "postgres"),
          ]
        : []),
    ],
  },
});
