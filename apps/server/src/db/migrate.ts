import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { sql } from "kysely";
import type { Database } from "./database";

const MIGRATIONS_DIR = path.join(import.meta.dirname, "migrations");
/** Serialises migrations when several server processes start at once on one PostgreSQL server. */
const MIGRATION_LOCK_KEY = 7_354_412;

export interface MigrationFile {
  version: number;
  name: string;
  sql: string;
}

export async function readMigrations(dir = MIGRATIONS_DIR): Promise<MigrationFile[]> {
  const files = (await readdir(dir)).filter((f) => /^\d{4}_[\w-]+\.sql$/.test(f)).sort();
  return Promise.all(
    files.map(async (file) => ({
      version: Number(file.slice(0, 4)),
      name: file.replace(/\.sql$/, ""),
      sql: await readFile(path.join(dir, file), "utf8"),
    })),
  );
}

/**
 * Applies the numbered SQL migrations that have not run yet, all in one transaction: a failing file
 * leaves the database as it was. Returns the names applied.
 */
export async function migrate(database: Database): Promise<string[]> {
  const migrations = await readMigrations();
  return database.rawTransaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK_KEY]);
    await tx.exec(
      "CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())",
    );
    const done = new Set(
      (await tx.query<{ version: number }>("SELECT version FROM schema_migrations")).map((r) => r.version),
    );
    const applied: string[] = [];
    for (const m of migrations) {
      if (done.has(m.version)) continue;
      await tx.exec(m.sql);
      await tx.query("INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", [m.version, m.name]);
      applied.push(m.name);
    }
    return applied;
  });
}

let newestKnown: Promise<number> | undefined;

/** Whether this build has migrations the database has not applied (readiness: such a node must wait). */
export async function migrationsPending(database: Database): Promise<boolean> {
  newestKnown ??= readMigrations().then((ms) => Math.max(0, ...ms.map((m) => m.version)));
  const { rows } = await sql<{ newest: number | null }>`SELECT max(version) AS newest FROM schema_migrations`.execute(
    database.db,
  );
  return (rows[0]?.newest ?? 0) < (await newestKnown);
}
