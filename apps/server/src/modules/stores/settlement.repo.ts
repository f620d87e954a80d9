import type { Currency, SettlementDocQuery } from "@tessera/contracts";
import { sql, type Insertable, type Updateable } from "kysely";
import { pageWindow, paginate } from "../../db/paginate";
import type { Executor } from "../../db/tx";
import type { StoreSettlementDocsTable } from "./tables";

/** SQL of the write-off account (per store sums) and the daily settlement documents. */

/** Per store of the brand, in one currency: how many redemptions, their value, what is settled and what not. */
export function accountRows(
  db: Executor,
  branderId: number,
  currency: Currency,
  q: { from?: string | undefined; to?: string | undefined },
) {
  let base = db
    .selectFrom("store_redemptions as r")
    .innerJoin("stores as s", "s.id", "r.store_id")
    .where("r.brander_id", "=", branderId)
    .where("r.currency", "=", currency);
  if (q.from) base = base.where("r.day", ">=", q.from);
  if (q.to) base = base.where("r.day", "<=", q.to);
  return base
    .select([
      "r.store_id",
      "s.name",
      sql<string>`count(*)`.as("n"),
      sql<string>`coalesce(sum(r.value), 0)`.as("value"),
      // Settled money is what the escrow held for the redemptions (what the ledger moves), never card money paid before.
      sql<string>`coalesce(sum(CASE WHEN r.doc_id IS NOT NULL THEN r.held_amount ELSE 0 END), 0)`.as("settled"),
      sql<string>`coalesce(sum(CASE WHEN r.doc_id IS NULL THEN r.held_amount ELSE 0 END), 0)`.as("unsettled"),
    ])
    .groupBy(["r.store_id", "s.name"])
    .orderBy("r.store_id")
    .execute();
}

/** What the brand's redemptions in a currency claimed of the escrow, in all. */
export function claimedHeld(db: Executor, branderId: number, currency: Currency) {
  return db
    .selectFrom("store_redemptions")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<string>("held_amount"), sql<string>`0`).as("n"))
    .where("brander_id", "=", branderId)
    .where("currency", "=", currency)
    .executeTakeFirst();
}

function docs(db: Executor) {
  return db
    .selectFrom("store_settlement_docs as d")
    .innerJoin("stores as s", "s.id", "d.store_id")
    .innerJoin("merchants as m", "m.id", "d.brander_id")
    .select([
      "d.id",
      "d.brander_id",
      "m.name as brander_name",
      "d.store_id",
      "s.name as store_name",
      "d.day",
      "d.currency",
      "d.count",
      "d.value",
      "d.amount",
      "d.paid",
      "d.state",
      "d.created_at",
    ]);
}

/** A page of the brands' documents (none when empty), newest day first. */
export async function docPage(db: Executor, branderIds: number[], q: SettlementDocQuery) {
  let base = docs(db).where("d.brander_id", "in", branderIds.length > 0 ? branderIds : [-1]);
  if (q.storeId) base = base.where("d.store_id", "=", Number(q.storeId));
  if (q.from) base = base.where("d.day", ">=", q.from);
  if (q.to) base = base.where("d.day", "<=", q.to);
  return paginate(base.orderBy("d.day", "desc").orderBy("d.id", "desc"), base.clearSelect(), pageWindow(q));
}

/** One of the brands' documents (none when empty). */
export function docOf(db: Executor, branderIds: number[], id: number) {
  return docs(db)
    .where("d.id", "=", id)
    .where("d.brander_id", "in", branderIds.length > 0 ? branderIds : [-1])
    .executeTakeFirst();
}

/* ---------- settling (all brands: the platform's daily run) ---------- */

export interface SettleGroup {
  store_id: number;
  brander_id: number;
  day: string;
  currency: Currency;
}

/** The store, day and currency groups of unsettled redemptions up to `day`, in day and store order. */
export function unsettledGroups(db: Executor, day: string): Promise<SettleGroup[]> {
  return db
    .selectFrom("store_redemptions")
    .select(["store_id", "brander_id", "day", "currency"])
    .where("doc_id", "is", null)
    .where("day", "<=", day)
    .groupBy(["store_id", "brander_id", "day", "currency"])
    .orderBy("day")
    .orderBy("store_id")
    .execute();
}

/** What a settlement run up to `day` would settle, by currency: stores, redemptions and the escrowed money. */
export function unsettledTotals(db: Executor, day: string) {
  return db
    .selectFrom("store_redemptions")
    .select(({ fn }) => [
      "currency",
      fn.count<number>("store_id").distinct().as("stores"),
      fn.countAll<number>().as("redemptions"),
      fn.sum<number>("held_amount").as("amount"),
    ])
    .where("doc_id", "is", null)
    .where("day", "<=", day)
    .groupBy("currency")
    .orderBy("currency")
    .execute();
}

/** The last part number of a group's documents, if any. */
export function lastPart(tx: Executor, g: SettleGroup) {
  return tx
    .selectFrom("store_settlement_docs")
    .select((eb) => eb.fn.max("part").as("part"))
    .where("store_id", "=", g.store_id)
    .where("day", "=", g.day)
    .where("currency", "=", g.currency)
    .executeTakeFirst();
}

/** Makes a document, or nothing when another run made this part first. */
export function insertDoc(tx: Executor, row: Insertable<StoreSettlementDocsTable>) {
  return tx
    .insertInto("store_settlement_docs")
    .values(row)
    .onConflict((oc) => oc.columns(["store_id", "day", "currency", "part"]).doNothing())
    .returning("id")
    .executeTakeFirst();
}

/** Links the group's unsettled redemptions to the document; what they are worth and hold. */
export function claimForDoc(tx: Executor, g: SettleGroup, docId: number) {
  return tx
    .updateTable("store_redemptions")
    .set({ doc_id: docId })
    .where("store_id", "=", g.store_id)
    .where("day", "=", g.day)
    .where("currency", "=", g.currency)
    .where("doc_id", "is", null)
    .returning(["value", "held_amount"])
    .execute();
}

export async function deleteDoc(tx: Executor, id: number): Promise<void> {
  await tx.deleteFrom("store_settlement_docs").where("id", "=", id).execute();
}

export async function finishDoc(tx: Executor, id: number, set: Updateable<StoreSettlementDocsTable>): Promise<void> {
  await tx.updateTable("store_settlement_docs").set(set).where("id", "=", id).execute();
}
