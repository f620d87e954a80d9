import { sql, type Kysely } from "kysely";
import type { Database } from "../db/database";
import { migrate } from "../db/migrate";
import type { DB } from "../db/schema";

/** Rows per statement: large enough for speed, small enough for one JSON parameter. */
const BATCH = 5_000;

interface Column {
  name: string;
  /** GENERATED ALWAYS AS IDENTITY columns need OVERRIDING SYSTEM VALUE. */
  identityAlways: boolean;
}

async function rows<T>(db: Kysely<DB>, query: ReturnType<typeof sql<T>>): Promise<T[]> {
  return (await query.execute(db)).rows;
}

async function userTables(db: Kysely<DB>): Promise<string[]> {
  const list = await rows<{ name: string }>(
    db,
    sql`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'schema_migrations' ORDER BY tablename`,
  );
  return list.map((r) => r.name);
}

/** Tables in an order where every table comes after those its foreign keys point to. */
async function dependencyOrder(db: Kysely<DB>, tables: string[]): Promise<string[]> {
  const edges = await rows<{ child: string; parent: string }>(
    db,
    sql`SELECT c.conrelid::regclass::text AS child, c.confrelid::regclass::text AS parent FROM pg_constraint c
      WHERE c.contype = 'f' AND c.conrelid <> c.confrelid`,
  );
  const parents = new Map(tables.map((t) => [t, new Set<string>()]));
  for (const e of edges) parents.get(e.child)?.add(e.parent);
  const ordered: string[] = [];
  const placed = new Set<string>();
  const visit = (t: string, path: Set<string>) => {
    if (placed.has(t) || path.has(t)) return;
    path.add(t);
    for (const p of parents.get(t) ?? []) if (parents.has(p)) visit(p, path);
    placed.add(t);
    ordered.push(t);
  };
  for (const t of tables) visit(t, new Set());
  return ordered;
}

async function columnsOf(db: Kysely<DB>, table: string): Promise<Column[]> {
  const list = await rows<{ name: string; identity: string }>(
    db,
    sql`SELECT attname AS name, attidentity AS identity FROM pg_attribute WHERE attrelid = ${table}::regclass
      AND attnum > 0 AND NOT attisdropped AND attgenerated = '' ORDER BY attnum`,
  );
  return list.map((c) => ({ name: c.name, identityAlways: c.identity === "a" }));
}

/** The single integer primary-key column of a table, for paging by key; null when there is none. */
async function integerKey(db: Kysely<DB>, table: string): Promise<string | null> {
  const keys = await rows<{ name: string; type: string }>(
    db,
    sql`SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type FROM pg_index i
      JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
      WHERE i.indrelid = ${table}::regclass AND i.indisprimary`,
  );
  return keys.length === 1 && ["integer", "bigint", "smallint"].includes(keys[0]!.type) ? keys[0]!.name : null;
}

export interface CopyReport {
  tables: { name: string; rows: number }[];
}

/**
 * Copies every row of `source` (the embedded database) into `target` (an empty PostgreSQL database):
 * the target gets the same migrations, loses the rows its migrations seeded, then gets the source's rows
 * table by table (parents first), each value carried through its JSON form, and finally the source's
 * sequence positions. Checks that every table holds as many rows as the source's.
 */
export async function copyDatabase(
  source: Database,
  target: Database,
  log: (line: string) => void,
): Promise<CopyReport> {
  const existing = await rows<{ n: number }>(
    target.db,
    sql`SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'schema_migrations'`,
  );
  const hasMigrations = await rows<{ n: number }>(
    target.db,
    sql`SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public' AND tablename = 'schema_migrations'`,
  );
  if ((existing[0]?.n ?? 0) > 0 && (hasMigrations[0]?.n ?? 0) === 0) {
    throw new Error("the target database has tables of something else: use an empty database");
  }
  if ((hasMigrations[0]?.n ?? 0) > 0) {
    const used = await rows<{ n: number }>(target.db, sql`SELECT count(*)::int AS n FROM users`);
    if ((used[0]?.n ?? 0) > 0) {
      throw new Error("the target database already holds a Tessera installation with users: use an empty database");
    }
  }
  await migrate(source);
  await migrate(target);
  const tables = await dependencyOrder(source.db, await userTables(source.db));
  const report: CopyReport = { tables: [] };
  await target.rawTransaction(async (tx) => {
    await tx.exec(`TRUNCATE ${tables.map((t) => `"${t}"`).join(", ")} CASCADE`);
    for (const table of tables) {
      const columns = await columnsOf(source.db, table);
      const list = columns.map((c) => `"${c.name}"`).join(", ");
      const overriding = columns.some((c) => c.identityAlways) ? " OVERRIDING SYSTEM VALUE" : "";
      const key = await integerKey(source.db, table);
      let copied = 0;
      let after: number | null = null;
      for (let offset = 0; ; offset += BATCH) {
        const page: { j: string | null; last: number | null }[] = key
          ? await rows(
              source.db,
              sql<{
                j: string | null;
                last: number | null;
              }>`SELECT json_agg(t ORDER BY ${sql.ref(key)})::text AS j, max(${sql.ref(key)})::bigint AS last
                FROM (SELECT * FROM ${sql.table(table)}
                WHERE ${after === null ? sql`true` : sql`${sql.ref(key)} > ${after}`}
                ORDER BY ${sql.ref(key)} LIMIT ${BATCH}) t`,
            )
          : await rows(
              source.db,
              sql<{
                j: string | null;
                last: number | null;
              }>`SELECT json_agg(t)::text AS j, NULL::bigint AS last FROM (SELECT * FROM ${sql.table(table)} ORDER BY ctid LIMIT ${BATCH} OFFSET ${offset}) t`,
            );
        const json = page[0]?.j;
        if (!json) break;
        const inserted = await tx.query<{ n: number }>(
          `WITH ins AS (INSERT INTO "${table}" (${list})${overriding} SELECT ${list}
            FROM json_populate_recordset(NULL::"${table}", $1::json) RETURNING 1) SELECT count(*)::int AS n FROM ins`,
          [json],
        );
        copied += inserted[0]?.n ?? 0;
        after = page[0]?.last === null || page[0]?.last === undefined ? after : Number(page[0].last);
      }
      report.tables.push({ name: table, rows: copied });
      if (copied > 0) log(`${table}: ${copied} row(s)`);
    }
    const sequences = await rows<{ name: string; last: number | null }>(
      source.db,
      sql`SELECT schemaname || '.' || sequencename AS name, last_value::bigint AS last FROM pg_sequences WHERE schemaname = 'public'`,
    );
    for (const s of sequences) {
      if (s.last !== null) await tx.query(`SELECT setval($1::regclass, $2::bigint, true)`, [s.name, s.last]);
    }
  });
  for (const { name, rows: copied } of report.tables) {
    const counted = await rows<{ n: number }>(source.db, sql`SELECT count(*)::int AS n FROM ${sql.table(name)}`);
    if ((counted[0]?.n ?? 0) !== copied) throw new Error(`${name}: copied ${copied} of ${counted[0]?.n ?? 0} rows`);
  }
  return report;
}
