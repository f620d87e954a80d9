import pg from "pg";
import { inject } from "vitest";

/**
 * Setup file of the PostgreSQL project: test files run side by side, one per Vitest worker, and each
 * worker gets its own copy of the run's migrated database (made from it as a template the first time
 * the worker needs it). Within a worker, files follow one another on that copy as they did on the one
 * database before, so a file may see what earlier files left but never another file's half-done work:
 * a sweep (payouts, expiry) in one file cannot reach accounts another file is asserting on.
 *
 * Tests get the database with `inject("postgresUrl")`, which Vitest answers from the worker's provided
 * context; this file points that entry at the worker's copy before the test file is imported.
 */
const state = (globalThis as { __vitest_worker__?: { providedContext: { postgresUrl?: string } } }).__vitest_worker__;
if (!state?.providedContext) {
  throw new Error(
    "worker-database.ts: Vitest's worker state is not where it was (globalThis.__vitest_worker__.providedContext)",
  );
}

const template = new URL(inject("postgresUrl"));
const templateName = template.pathname.slice(1);
const name = `${templateName}_w${process.env.VITEST_POOL_ID ?? "1"}`;
const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
await admin.connect();
try {
  const exists = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
  if (exists.rowCount === 0) await admin.query(`CREATE DATABASE ${name} TEMPLATE ${templateName}`);
} finally {
  await admin.end();
}
template.pathname = `/${name}`;
state.providedContext.postgresUrl = template.toString();
