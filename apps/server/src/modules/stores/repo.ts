import { sql } from "kysely";
import type { Executor } from "../../db/tx";
import type { StoreState } from "./tables";

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
  const count = await filtered(db, f)
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .executeTakeFirst();
  const rows = await filtered(db, f)
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
    .orderBy("s.id", "desc")
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return {
    total: Number(count?.n ?? 0),
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
