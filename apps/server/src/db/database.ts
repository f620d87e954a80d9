import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { Kysely, PostgresDialect, type LogEvent } from "kysely";
import pg from "pg";
import { dbQueryDuration } from "../platform/metrics";
import { PGliteDialect } from "./pglite-dialect";
import type { DB } from "./schema";

/** A plain SQL session inside one transaction, used by the migrator (multi-statement files). */
export interface RawTx {
  exec(sql: string): Promise<void>;
  query<R>(sql: string, params?: unknown[]): Promise<R[]>;
}

export interface Database {
  db: Kysely<DB>;
  kind: "pglite" | "postgres";
  /** Runs `fn` in one transaction on a raw session. */
  rawTransaction<T>(fn: (tx: RawTx) => Promise<T>): Promise<T>;
  /** Connections of the server pool (null on the embedded database, which has one session). */
  poolStats(): { total: number; idle: number; waiting: number } | null;
  /**
   * The embedded database's data folder as a gzipped tarball, taken between transactions after a
   * checkpoint: a consistent copy of a running installation (null on a server: use pg_dump there).
   */
  snapshot(): Promise<Blob | null>;
  close(): Promise<void>;
}

/** Query times for /metrics (Kysely measures a query only when a logger is set). */
function observeQueries(event: LogEvent): void {
  dbQueryDuration.observe(event.queryDurationMillis / 1000);
}

/**
 * int8 columns (ids, money in minor units) come back as JavaScript numbers on both engines: PGlite does
 * this already; node-postgres returns strings unless told otherwise. Values beyond 2^53 are refused
 * rather than silently rounded.
 */
function parseInt8(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new Error(`int8 value ${value} exceeds the safe integer range`);
  return n;
}
const pgTypes = {
  getTypeParser: ((oid: number, format?: "text" | "binary"): unknown =>
    oid === 20 ? parseInt8 : (pg.types.getTypeParser(oid, format) as unknown)) as typeof pg.types.getTypeParser,
};

/** Prepared statements one connection keeps at most; statements beyond run unprepared. */
const MAX_PREPARED_PER_CONNECTION = 1000;

/** Statement names by text, shared by every connection (hashing a long statement on each call costs more than the lookup). */
const statementNames = new Map<string, string>();
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `t${createHash("sha1").update(text).digest("base64url")}`;
    // Texts that vary per call would grow the map without end: start over when it is full.
    if (statementNames.size >= 10 * MAX_PREPARED_PER_CONNECTION) statementNames.clear();
    statementNames.set(text, name);
  }
  return name;
}

/**
 * A connection that prepares each statement text once (a named statement, its name a hash of the text):
 * the server parses and plans it the first time and only binds it afterwards. Every request runs the
 * same few hundred statements, so this saves the server most of its per-statement work. Texts that vary
 * per call (an IN list of any length) are capped per connection so prepared statements cannot pile up.
 */
class PreparingClient extends pg.Client {
  #prepared = new Set<string>();
  override query(...args: unknown[]): never {
    const [text, values] = args;
    if (typeof text === "string" && Array.isArray(values) && args.length === 2) {
      const name = statementName(text);
      if (this.#prepared.has(name) || this.#prepared.size < MAX_PREPARED_PER_CONNECTION) {
        this.#prepared.add(name);
        return (super.query as unknown as (config: pg.QueryConfig) => never)({ name, text, values });
      }
    }
    return (super.query as unknown as (...a: unknown[]) => never)(...args);
  }
}

export async function openPostgres(connectionString: string, poolSize = 10): Promise<Database> {
  const pool = new pg.Pool({ connectionString, max: poolSize, types: pgTypes, Client: PreparingClient });
  // An idle connection dropped by the server (restart, failover) must not crash the process; the pool
  // replaces it on next use.
  pool.on("error", (err) => console.error(`postgres pool: idle connection lost: ${err.message}`));
  // Fail fast with a clear message when the server is unreachable.
  const probe = await pool.connect();
  probe.release();
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }), log: observeQueries });
  return {
    db,
    kind: "postgres",
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    snapshot: () => Promise.resolve(null),
    async rawTransaction(fn) {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const result = await fn({
          exec: async (sql) => {
            await client.query(sql);
          },
          query: async <R>(sql: string, params: unknown[] = []) => (await client.query(sql, params)).rows as R[],
        });
        await client.query("COMMIT");
        return result;
      } catch (err) {
        await client.query("ROLLBACK");
        throw err;
      } finally {
        client.release();
      }
    },
    // Kysely ends the pool only if it ever used it; the migrator may have been its only user.
    close: async () => {
      await db.destroy();
      if (!pool.ended) await pool.end();
    },
  };
}

/**
 * Creates a new PGlite data folder in a short-lived child process. Creating one runs initdb inside the
 * WebAssembly instance, which grows that instance's memory to about 800 MB for good; a process that only
 * opens an existing folder stays near 300 MB. So the server never pays for initdb itself.
 */
async function initPgliteDir(dataDir: string): Promise<void> {
  if (existsSync(path.join(dataDir, "PG_VERSION"))) return;
  const module = pathToFileURL(createRequire(import.meta.url).resolve("@electric-sql/pglite")).href;
  const script = `const { PGlite } = await import(${JSON.stringify(module)}); const db = await PGlite.create({ dataDir: process.argv[1] }); await db.close();`;
  await new Promise<void>((resolve, reject) => {
    execFile(
      process.execPath,
      ["--input-type=module", "-e", script, dataDir],
      { timeout: 120_000 },
      (err, _out, stderr) =>
        err
          ? reject(new Error(`creating the embedded database in ${dataDir} failed: ${stderr || err.message}`))
          : resolve(),
    );
  });
}

/**
 * The embedded database's buffer cache. PostgreSQL's default (128MB) lives inside the process once touched;
 * 32MB keeps a server on the embedded database small (with the settings of scripts/server-process.mjs a
 * million-code import peaks under 300 MB) while the operating system's page cache still holds the data files.
 */
export const DEFAULT_PGLITE_SHARED_BUFFERS = "32MB";

/** See Database.snapshot: no transaction is open while the files are read (PGlite runs one at a time). */
export async function snapshotPglite(pglite: PGlite): Promise<Blob> {
  await pglite.exec("CHECKPOINT");
  return pglite._runExclusiveTransaction(() => pglite.dumpDataDir("gzip"));
}

/** The embedded database: PGlite in `dataDir`, or in memory when `dataDir` is undefined. */
export async function openPglite(
  dataDir: string | undefined,
  options: { sharedBuffers?: string } = {},
): Promise<Database> {
  if (dataDir) {
    await mkdir(dataDir, { recursive: true });
    await initPgliteDir(dataDir);
  }
  const postgresqlconf = [`shared_buffers = ${options.sharedBuffers ?? DEFAULT_PGLITE_SHARED_BUFFERS}`];
  const pglite = dataDir ? await PGlite.create({ dataDir, postgresqlconf }) : await PGlite.create({ postgresqlconf });
  const db = new Kysely<DB>({ dialect: new PGliteDialect(pglite), log: observeQueries });
  return {
    db,
    kind: "pglite",
    poolStats: () => null,
    snapshot: () => snapshotPglite(pglite),
    rawTransaction: (fn) =>
      pglite.transaction((tx) =>
        fn({
          exec: async (sql) => {
            await tx.exec(sql);
          },
          query: async <R>(sql: string, params: unknown[] = []) => (await tx.query<R>(sql, params)).rows,
        }),
      ),
    close: () => db.destroy(),
  };
}
