import type { QrKind } from "@tessera/contracts";
import type { Insertable } from "kysely";
import type { Executor } from "../../db/tx";
import type { StoreQrCodesTable } from "./tables";

/** SQL of the brand's QR codes (shop and mall codes). A brand's codes are read with its id; a scan by token. */

function codesQuery(db: Executor, branderId: number) {
  return db
    .selectFrom("store_qr_codes as q")
    .leftJoin("stores as s", "s.id", "q.store_id")
    .select(["q.id", "q.kind", "q.name", "q.store_id", "s.name as store_name", "q.token", "q.created_at"])
    .where("q.brander_id", "=", branderId)
    .where("q.deleted_at", "is", null);
}

/** A page of the brand's live codes, newest first (`limit` rows, one more when there are more). */
export async function qrCodePage(
  db: Executor,
  branderId: number,
  q: { kind?: QrKind | undefined; storeId?: string | undefined; limit: number; offset: number },
) {
  let base = codesQuery(db, branderId);
  if (q.kind) base = base.where("q.kind", "=", q.kind);
  if (q.storeId) base = base.where("q.store_id", "=", Number(q.storeId));
  const rows = await base
    .orderBy("q.id", "desc")
    .limit(q.limit + 1)
    .offset(q.offset)
    .execute();
  let count = db
    .selectFrom("store_qr_codes")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("brander_id", "=", branderId)
    .where("deleted_at", "is", null);
  if (q.kind) count = count.where("kind", "=", q.kind);
  if (q.storeId) count = count.where("store_id", "=", Number(q.storeId));
  const total = Number((await count.executeTakeFirst())?.n ?? 0);
  return { rows, total };
}

export function qrCodeOf(db: Executor, branderId: number, id: number) {
  return codesQuery(db, branderId).where("q.id", "=", id).executeTakeFirst();
}

function shopCode(db: Executor, branderId: number, storeId: number) {
  return codesQuery(db, branderId).where("q.store_id", "=", storeId).where("q.kind", "=", "shop");
}

/** The store's shop code, if made. */
export function findShopCode(db: Executor, branderId: number, storeId: number) {
  return shopCode(db, branderId, storeId).executeTakeFirst();
}

/** The store's shop code (made: it throws when there is none). */
export function getShopCode(db: Executor, branderId: number, storeId: number) {
  return shopCode(db, branderId, storeId).executeTakeFirstOrThrow();
}

export async function insertShopCode(db: Executor, row: Insertable<StoreQrCodesTable>): Promise<void> {
  await db.insertInto("store_qr_codes").values(row).execute();
}

export async function insertQrCode(db: Executor, row: Insertable<StoreQrCodesTable>): Promise<number> {
  const made = await db.insertInto("store_qr_codes").values(row).returning("id").executeTakeFirstOrThrow();
  return made.id;
}

/** Retires one of the brand's live mall codes; whether it did. */
export async function retireMallCode(db: Executor, branderId: number, id: number, now: Date): Promise<boolean> {
  const r = await db
    .updateTable("store_qr_codes")
    .set({ deleted_at: now })
    .where("id", "=", id)
    .where("brander_id", "=", branderId)
    .where("kind", "=", "mall")
    .where("deleted_at", "is", null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** What a scanned live code opens: the code and its live store, if any (public: the token is the secret). */
export function landingOf(db: Executor, token: string) {
  return db
    .selectFrom("store_qr_codes as q")
    .leftJoin("stores as s", (j) => j.onRef("s.id", "=", "q.store_id").on("s.deleted_at", "is", null))
    .select([
      "q.kind",
      "q.name",
      "q.brander_id",
      "s.name as store_name",
      "s.province_code",
      "s.city_code",
      "s.county_code",
      "s.address",
      "s.opening_hours",
      "s.contact_phone",
      "s.state",
    ])
    .where("q.token", "=", token)
    .where("q.deleted_at", "is", null)
    .executeTakeFirst();
}
