import { createHash } from "node:crypto";
import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { openPglite, openPostgres } from "../src/db/database";
import { migrate, readMigrations } from "../src/db/migrate";

declare module "vitest" {
  export interface ProvidedContext {
    /** A migrated PGlite data folder each test file copies (reopening is ~10x faster than initdb). */
    pgliteTemplate: string;
    /**
     * A fresh, migrated database on the TEST_DATABASE_URL server; in a test, each worker's own copy of it
     * (worker-database.ts).
     */
    postgresUrl: string;
  }
}

const repoRoot = path.resolve(import.meta.dirname, "../../..");

async function pgliteTemplate(): Promise<string> {
  const migrations = await readMigrations();
  const digest = createHash("sha256")
    .update(migrations.map((m) => m.name + m.sql).join("\n"))
    .digest("hex")
    .slice(0, 12);
  const dir = path.join(repoRoot, ".tmp", `pglite-template-${digest}`);
  if (existsSync(dir)) return dir;
  const building = `${dir}.building-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building, { recursive: true });
  const database = await openPglite(building);
  await migrate(database);
  await database.close();
  try {
    renameSync(building, dir);
  } catch (err) {
    // Another run (a second vitest started at the same time) built the same template first: use it.
    if (!existsSync(dir)) throw err;
    rmSync(building, { recursive: true, force: true });
  }
  return dir;
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  if (project.config.env?.TEST_DB !== "postgres") {
    project.provide("pgliteTemplate", await pgliteTemplate());
    return undefined;
  }
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) throw new Error("TEST_DATABASE_URL is not set");
  const name = `tessera_test_${Date.now()}_${process.pid}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openPostgres(url.toString(), 2);
  await migrate(database);
  await database.close();
  project.provide("postgresUrl", url.toString());
  return async () => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    const copies = await client.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname LIKE $1", [
      `${name}\\_w%`,
    ]);
    for (const { datname } of copies.rows) await client.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.end();
  };
}
