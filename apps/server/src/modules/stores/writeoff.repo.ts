import type { Currency, RedemptionQuery } from "@tessera/contracts";
import { sql, type InsertObject } from "kysely";
import { pageWindow, paginate } from "../../db/paginate";
import type { Executor } from "../../db/tx";
import type { StoresTables } from "./tables";

/** SQL of redemptions at the brand's stores and of where a goods' codes are redeemable. */

/** A redemption as lists show it (r: the redemption, s: its store, m: the brand, u: the clerk). */
const REDEMPTION_COLUMNS = [
  "r.id",
  "r.source",
  "r.brander_id",
  "m.name as brander_name",
  "r.store_id",
  "s.name as store_name",
  sql<string | null>`coalesce(u.display_name, u.email)`.as("clerk_name"),
  "r.item_name",
  "r.code_mask",
  "r.value",
  "r.settle_amount",
  "r.held_amount",
  "r.currency",
  "r.order_ref",
  "r.day",
  "r.doc_id",
  "r.created_at",
] as const;

export interface RedemptionRow {
  id: number;
  source: "coupon" | "onecard";
  brander_id: number;
  brander_name: string;
  store_id: number;
  store_name: string;
  clerk_name: string | null;
  item_name: string;
  code_mask: string;
  value: number | string;
  settle_amount: number | string;
  held_amount: number | string;
  currency: Currency;
  order_ref: string | null;
  day: string;
  doc_id: number | null;
  created_at: Date;
}

/** Whether a goods' codes are redeemable at a store: no restriction rows means all the brand's stores. */
export async function goodsValidAt(db: Executor, goodsId: number, storeId: number): Promise<boolean> {
  const rows = await db
    .selectFrom("store_goods_restrictions")
    .select("store_id")
    .where("goods_id", "=", goodsId)
    .execute();
  return rows.length === 0 || rows.some((r) => Number(r.store_id) === storeId);
}

/** The brand's redemption a request key already made, if any. */
export function redemptionByRequest(db: Executor, branderId: number, requestKey: string) {
  return db
    .selectFrom("store_redemptions")
    .select("id")
    .where("brander_id", "=", branderId)
    .where("request_key", "=", requestKey)
    .executeTakeFirst();
}

/**
 * Writes a coupon's redemption and reads it back as the list shows it, in one statement, with whether
 * the goods' codes are valid at the redemption's store (no restriction rows, or one for this store).
 */
export async function insertCouponRedemption(
  tx: Executor,
  values: InsertObject<StoresTables, "store_redemptions">,
  goodsId: number,
): Promise<{ row: RedemptionRow; valid: boolean }> {
  const { valid, ...row } = await tx
    .with("ins", (db) => db.insertInto("store_redemptions").values(values).returningAll())
    .selectFrom("ins as r")
    .innerJoin("stores as s", "s.id", "r.store_id")
    .innerJoin("merchants as m", "m.id", "r.brander_id")
    .leftJoin("users as u", "u.id", "r.clerk_id")
    .select([...REDEMPTION_COLUMNS])
    .select(
      sql<boolean>`NOT EXISTS (SELECT 1 FROM store_goods_restrictions g WHERE g.goods_id = ${goodsId})
        OR EXISTS (SELECT 1 FROM store_goods_restrictions g WHERE g.goods_id = ${goodsId}
        AND g.store_id = r.store_id)`.as("valid"),
    )
    .executeTakeFirstOrThrow();
  return { row, valid };
}

export async function insertRedemption(
  tx: Executor,
  values: InsertObject<StoresTables, "store_redemptions">,
): Promise<number> {
  const row = await tx.insertInto("store_redemptions").values(values).returning("id").executeTakeFirstOrThrow();
  return row.id;
}

function redemptions(db: Executor) {
  return db
    .selectFrom("store_redemptions as r")
    .innerJoin("stores as s", "s.id", "r.store_id")
    .innerJoin("merchants as m", "m.id", "r.brander_id")
    .leftJoin("users as u", "u.id", "r.clerk_id")
    .select([...REDEMPTION_COLUMNS]);
}

/** A redemption as lists show it (its id from the caller's own redemption). */
export function redemptionOf(db: Executor, id: number): Promise<RedemptionRow> {
  return redemptions(db).where("r.id", "=", id).executeTakeFirstOrThrow();
}

/** The redemptions a settlement document (found by the caller under its brand) settled, in order. */
export function redemptionsOfDoc(db: Executor, docId: number): Promise<RedemptionRow[]> {
  return redemptions(db).where("r.doc_id", "=", docId).orderBy("r.id").execute();
}

/** A page of redemptions of the brands (none when empty), of a purchaser's codes, or of a store; newest first. */
export async function redemptionPage(
  db: Executor,
  filter: { branderIds?: number[]; purchaserId?: number; storeId?: number },
  q: RedemptionQuery,
): Promise<{ rows: RedemptionRow[]; total: number }> {
  let base = redemptions(db);
  if (filter.branderIds) {
    base = base.where("r.brander_id", "in", filter.branderIds.length > 0 ? filter.branderIds : [-1]);
  }
  if (filter.purchaserId !== undefined) base = base.where("r.purchaser_id", "=", filter.purchaserId);
  if (filter.storeId !== undefined) base = base.where("r.store_id", "=", filter.storeId);
  if (q.storeId) base = base.where("r.store_id", "=", Number(q.storeId));
  if (q.kind) base = base.where("r.source", "=", q.kind);
  if (q.from) base = base.where("r.day", ">=", q.from);
  if (q.to) base = base.where("r.day", "<=", q.to);
  if (q.settled) base = base.where("r.doc_id", q.settled === "true" ? "is not" : "is", null);
  return paginate(base.orderBy("r.id", "desc"), base.clearSelect(), pageWindow(q));
}

/* ---------- where a goods' codes are redeemable ---------- */

/** The brand's stores a goods' codes are limited to (none: all its stores). */
export function restrictedStores(db: Executor, branderId: number, goodsId: number) {
  return db
    .selectFrom("store_goods_restrictions as g")
    .innerJoin("stores as s", "s.id", "g.store_id")
    .select(["s.id", "s.name"])
    .where("g.goods_id", "=", goodsId)
    .where("g.brander_id", "=", branderId)
    .orderBy("s.id")
    .execute();
}

/** Which of `ids` are the brand's stores (deleted ones too). */
export function brandStores(db: Executor, branderId: number, ids: number[]) {
  return db.selectFrom("stores").select("id").where("brander_id", "=", branderId).where("id", "in", ids).execute();
}

/** Limits a goods' codes (the caller's own goods) to `storeIds`, or lifts the limit (null). */
export async function setRestrictions(
  tx: Executor,
  branderId: number,
  goodsId: number,
  storeIds: number[] | null,
  now: Date,
): Promise<void> {
  await tx.deleteFrom("store_goods_restrictions").where("goods_id", "=", goodsId).execute();
  if (storeIds !== null) {
    await tx
      .insertInto("store_goods_restrictions")
      .values(
        storeIds.map((storeId) => ({ goods_id: goodsId, store_id: storeId, brander_id: branderId, created_at: now })),
      )
      .execute();
  }
}
