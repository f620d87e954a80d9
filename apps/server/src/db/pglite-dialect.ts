import type { PGlite } from "@electric-sql/pglite";
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  type TransactionSettings,
} from "kysely";

/**
 * Kysely dialect over the embedded PGlite database. PGlite is a single session, so one connection is
 * handed out at a time (a mutex); a transaction holds it until commit. Never query through the root
 * handle inside a transaction: it waits for the lock the transaction holds.
 */
class Mutex {
  #tail: Promise<void> = Promise.resolve();
  lock(): Promise<() => void> {
    let release!: () => void;
    const next = new Promise<void>((resolve) => (release = resolve));
    const prev = this.#tail;
    this.#tail = prev.then(() => next);
    return prev.then(() => release);
  }
}

class PGliteConnection implements DatabaseConnection {
  constructor(private readonly db: PGlite) {}
  async executeQuery<R>(q: CompiledQuery): Promise<QueryResult<R>> {
    // `COPY ... FROM '/dev/blob'` reads its data from a blob handed over beside the statement (see copyFromText).
    const blob = q.parameters.length === 1 && q.parameters[0] instanceof Blob ? q.parameters[0] : undefined;
    const r = blob
      ? await this.db.query<R>(q.sql, [], { rowMode: "object", blob })
      : await this.db.query<R>(q.sql, [...q.parameters], { rowMode: "object" });
    return r.affectedRows !== undefined && q.query.kind !== "SelectQueryNode"
      ? { rows: r.rows, numAffectedRows: BigInt(r.affectedRows) }
      : { rows: r.rows };
  }
  // eslint-disable-next-line require-yield, @typescript-eslint/require-await
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error("streamQuery is not supported on PGlite");
  }
}

class PGliteDriver implements Driver {
  readonly #mutex = new Mutex();
  readonly #conn: PGliteConnection;
  #release: (() => void) | undefined;
  constructor(private readonly db: PGlite) {
    this.#conn = new PGliteConnection(db);
  }
  async init(): Promise<void> {
    await this.db.waitReady;
  }
  async acquireConnection(): Promise<DatabaseConnection> {
    this.#release = await this.#mutex.lock();
    return this.#conn;
  }
  async beginTransaction(c: DatabaseConnection, s: TransactionSettings): Promise<void> {
    let sql = "begin";
    if (s.isolationLevel) sql += ` isolation level ${s.isolationLevel}`;
    if (s.accessMode) sql += ` ${s.accessMode}`;
    await c.executeQuery(CompiledQuery.raw(sql));
  }
  async commitTransaction(c: DatabaseConnection): Promise<void> {
    await c.executeQuery(CompiledQuery.raw("commit"));
  }
  async rollbackTransaction(c: DatabaseConnection): Promise<void> {
    await c.executeQuery(CompiledQuery.raw("rollback"));
  }
  // eslint-disable-next-line @typescript-eslint/require-await
  async releaseConnection(): Promise<void> {
    const release = this.#release;
    this.#release = undefined;
    release?.();
  }
  async destroy(): Promise<void> {
    await this.db.close();
  }
}

export class PGliteDialect implements Dialect {
  constructor(private readonly db: PGlite) {}
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.db);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }
}
