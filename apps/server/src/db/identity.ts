import { sql } from "kysely";
import type { Db } from "./tx";

/** The database's own name (the same on every node, however each spells its DATABASE_URL). */
export async function databaseName(db: Db): Promise<string> {
  const { rows } = await sql<{ name: string }>`SELECT current_database() AS name`.execute(db);
  return rows[0]?.name ?? "";
}
