import { sql, type Insertable, type Updateable } from "kysely";
import type { Executor } from "../../db/tx";
import type { StoreImportRejectsTable, StoreImportsTable, StoresTable, StoreState } from "./tables";
import { paginate } from "../../db/paginate";

/** SQL of the stores module. Every call names the brand (tenant) it reads or changes. */

export interface StoreRowView {
  id: number;
  brander_id: number;
  brander_name: string;
  name: string;
  province_code: string;
  city_code: string;
  county_code: string;
  address: string;
  lng: number | null;
  lat: number | null;
  opening_hours: string;
  contact_name: string;
  contact_phone: string;
  state: StoreState;
  district_id: number | null;
  district_name: string | null;
  clerks: number | string;
  created_at: Date;
}

export interface StoreFilter {
  branderIds: number[];
  keyword?: string | undefined;
  state?: StoreState | undefined;
  districtId?: number | undefined;
  provinceCode?: string | undefined;
  cityCode?: string | undefined;
  countyCode?: string | undefined;
  ids?: number[] | undefined;
}

function filtered(db: Executor, f: StoreFilter) {
  let q = db
    .selectFrom("stores as s")
    .where("s.deleted_at", "is", null)
    .where("s.brander_id", "in", f.branderIds.length > 0 ? f.branderIds : [-1]);
  if (f.keyword) {
    q = q.where((eb) => eb.or([eb("s.name", "like", `%${f.keyword}%`), eb("s.address", "like", `%${f.keyword}%`)]));
  }
  if (f.state) q = q.where("s.state", "=", f.state);
  if (f.districtId !== undefined) q = q.where("s.district_id", "=", f.districtId);
  if (f.provinceCode) q = q.where("s.province_code", "=", f.provinceCode);
  if (f.cityCode) q = q.where("s.city_code", "=", f.cityCode);
  if (f.countyCode) q = q.where("s.county_code", "=", f.countyCode);
  if (f.ids) q = q.where("s.id", "in", f.ids.length > 0 ? f.ids : [-1]);
  return q;
}

export async function searchStores(
  db: Executor,
  f: StoreFilter,
  page: { limit: number; offset: number },
): Promise<{ total: number; rows: StoreRowView[] }> {
  const { rows, total } = await paginate(
    filtered(db, f)
      .innerJoin("merchants as m", "m.id", "s.brander_id")
      .leftJoin("store_districts as d", "d.id", "s.district_id")
      .select([
        "s.id",
        "s.brander_id",
        "m.name as brander_name",
        "s.name",
        "s.province_code",
        "s.city_code",
        "s.county_code",
        "s.address",
        "s.lng",
        "s.lat",
        "s.opening_hours",
        "s.contact_name",
        "s.contact_phone",
        "s.state",
        "s.district_id",
        "d.name as district_name",
        "s.created_at",
      ])
      .select(sql<string>`(SELECT count(*) FROM store_clerks c WHERE c.store_id = s.id)`.as("clerks"))
      .orderBy("s.id", "desc"),
    filtered(db, f),
    page,
  );
  return {
    total,
    rows: rows.map((r) => ({
      ...r,
      lng: r.lng === null ? null : Number(r.lng),
      lat: r.lat === null ? null : Number(r.lat),
    })),
  };
}

export function findStore(db: Executor, branderId: number, id: number) {
  return db
    .selectFrom("stores")
    .selectAll()
    .where("id", "=", id)
    .where("brander_id", "=", branderId)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
}

export function lockStores(db: Executor, branderId: number, ids: number[]) {
  return db
    .selectFrom("stores")
    .select(["id"])
    .where("id", "in", ids)
    .where("brander_id", "=", branderId)
    .where("deleted_at", "is", null)
    .orderBy("id")
    .forUpdate()
    .execute();
}

export function findDistrict(db: Executor, branderId: number, id: number) {
  return db
    .selectFrom("store_districts")
    .selectAll()
    .where("id", "=", id)
    .where("brander_id", "=", branderId)
    .executeTakeFirst();
}

export async function districtIdsByName(db: Executor, branderId: number): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom("store_districts")
    .select(["id", "name"])
    .where("brander_id", "=", branderId)
    .execute();
  return new Map(rows.map((r) => [r.name, r.id]));
}

export async function liveStoreNames(db: Executor, branderId: number): Promise<Set<string>> {
  const rows = await db
    .selectFrom("stores")
    .select("name")
    .where("brander_id", "=", branderId)
    .where("deleted_at", "is", null)
    .execute();
  return new Set(rows.map((r) => r.name));
}

export async function unsettledStores(db: Executor, ids: number[]): Promise<number[]> {
  const rows = await db
    .selectFrom("store_redemptions")
    .select("store_id")
    .distinct()
    .where("store_id", "in", ids)
    .where("doc_id", "is", null)
    .execute();
  return rows.map((r) => r.store_id);
}

export async function insertStore(tx: Executor, row: Insertable<StoresTable>): Promise<number> {
  const made = await tx.insertInto("stores").values(row).returning("id").executeTakeFirstOrThrow();
  return made.id;
}

/** Changes one of the brand's live stores; whether it did. */
export async function updateStore(
  tx: Executor,
  branderId: number,
  id: number,
  set: Updateable<StoresTable>,
): Promise<boolean> {
  const r = await tx
    .updateTable("stores")
    .set(set)
    .where("id", "=", id)
    .where("brander_id", "=", branderId)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * Deletes stores (locked by the caller under their brand): the stores, their clerks' bindings and their
 * live QR codes.
 */
export async function retireStores(tx: Executor, ids: number[], now: Date): Promise<void> {
  await tx.updateTable("stores").set({ deleted_at: now, updated_at: now }).where("id", "in", ids).execute();
  await tx.deleteFrom("store_clerks").where("store_id", "in", ids).execute();
  await tx
    .updateTable("store_qr_codes")
    .set({ deleted_at: now })
    .where("store_id", "in", ids)
    .where("deleted_at", "is", null)
    .execute();
}

export async function insertStores(tx: Executor, rows: Insertable<StoresTable>[]): Promise<void> {
  await tx.insertInto("stores").values(rows).execute();
}

export async function insertImport(tx: Executor, row: Insertable<StoreImportsTable>): Promise<number> {
  const imp = await tx.insertInto("store_imports").values(row).returning("id").executeTakeFirstOrThrow();
  return imp.id;
}

export async function insertImportRejects(tx: Executor, rows: Insertable<StoreImportRejectsTable>[]): Promise<void> {
  await tx
    .insertInto("store_import_rejects")
    .values(rows)
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/** One of the brand's store imports, if it is one. */
export function findImport(db: Executor, branderId: number, id: number) {
  return db
    .selectFrom("store_imports")
    .select("id")
    .where("id", "=", id)
    .where("brander_id", "=", branderId)
    .executeTakeFirst();
}

/** The reject rows of an import (found by the caller under its brand), in row order. */
export function importRejects(db: Executor, importId: number) {
  return db
    .selectFrom("store_import_rejects")
    .select(["row_no", "reason", "name"])
    .where("import_id", "=", importId)
    .orderBy("row_no")
    .execute();
}

/** How far a brand has set up its stores (the home's setup checklist): open stores and their clerks. */
export async function storeSetup(db: Executor, branderId: number): Promise<{ stores: number; clerks: number }> {
  const [s, c] = await Promise.all([
    db
      .selectFrom("stores")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("brander_id", "=", branderId)
      .where("deleted_at", "is", null)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("store_clerks")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("brander_id", "=", branderId)
      .executeTakeFirstOrThrow(),
  ]);
  return { stores: Number(s.n), clerks: Number(c.n) };
}
