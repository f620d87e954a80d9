import { sql, type Insertable, type Updateable } from "kysely";
import type { Executor } from "../../db/tx";
import type { OnecardActivationsTable, OnecardBatchesTable, OnecardProductsTable } from "./tables";

/** SQL of issuing: a brand's products and batches, and the purchasers' activations of the cards they bought. */

export function lockProductOfBrand(tx: Executor, id: number, branderId: number) {
  return tx
    .selectFrom("onecard_products")
    .selectAll()
    .where("id", "=", id)
    .where("brander_id", "=", branderId)
    .forUpdate()
    .executeTakeFirst();
}

/** One card of the product, when any was issued. */
export function anyCardOfProduct(tx: Executor, productId: number) {
  return tx.selectFrom("onecard_cards").select("id").where("product_id", "=", productId).limit(1).executeTakeFirst();
}

export async function updateProduct(tx: Executor, id: number, set: Updateable<OnecardProductsTable>): Promise<void> {
  await tx.updateTable("onecard_products").set(set).where("id", "=", id).execute();
}

export async function insertProduct(tx: Executor, row: Insertable<OnecardProductsTable>): Promise<number> {
  const made = await tx.insertInto("onecard_products").values(row).returning("id").executeTakeFirstOrThrow();
  return made.id;
}

/** Puts a brand's product on or off sale; false when the brand has no such product. */
export async function setProductOnSale(db: Executor, id: number, branderId: number, onSale: boolean) {
  const res = await db
    .updateTable("onecard_products")
    .set({ on_sale: onSale })
    .where("id", "=", id)
    .where("brander_id", "=", branderId)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** A new batch's id, or undefined when the brand's request key made one already. */
export async function insertBatch(tx: Executor, row: Insertable<OnecardBatchesTable>): Promise<number | undefined> {
  const made = await tx
    .insertInto("onecard_batches")
    .values(row)
    .onConflict((oc) => oc.columns(["brander_id", "request_key"]).doNothing())
    .returning("id")
    .executeTakeFirst();
  return made?.id;
}

export async function batchIdByKey(tx: Executor, branderId: number, requestKey: string): Promise<number> {
  const first = await tx
    .selectFrom("onecard_batches")
    .select("id")
    .where("brander_id", "=", branderId)
    .where("request_key", "=", requestKey)
    .executeTakeFirstOrThrow();
  return first.id;
}

/** `n` card ids taken from the cards' sequence (a card's id is needed for its password hash before the insert). */
export async function nextCardIds(tx: Executor, n: number): Promise<number[]> {
  const ids = await sql<{
    id: string;
  }>`SELECT nextval(pg_get_serial_sequence('onecard_cards', 'id'))::text AS id FROM generate_series(1, ${n})`.execute(
    tx,
  );
  return ids.rows.map((r) => Number(r.id));
}

export function activationByKey(db: Executor, purchaserId: number, requestKey: string) {
  return db
    .selectFrom("onecard_activations")
    .selectAll()
    .where("purchaser_id", "=", purchaserId)
    .where("request_key", "=", requestKey)
    .executeTakeFirst();
}

/** A new activation's id, or undefined when the purchaser's request key made one already. */
export async function insertActivation(
  tx: Executor,
  row: Insertable<OnecardActivationsTable>,
): Promise<number | undefined> {
  const act = await tx
    .insertInto("onecard_activations")
    .values(row)
    .onConflict((oc) => oc.columns(["purchaser_id", "request_key"]).doNothing())
    .returning("id")
    .executeTakeFirst();
  return act?.id;
}

export function activationByKeyOrThrow(tx: Executor, purchaserId: number, requestKey: string) {
  return tx
    .selectFrom("onecard_activations")
    .selectAll()
    .where("purchaser_id", "=", purchaserId)
    .where("request_key", "=", requestKey)
    .executeTakeFirstOrThrow();
}

export async function activateCard(
  tx: Executor,
  cardId: number,
  a: { balance: number; now: Date; expires: Date | null; activationId: number },
): Promise<void> {
  await tx
    .updateTable("onecard_cards")
    .set({
      state: "activated",
      balance: a.balance,
      activated_at: a.now,
      expires_at: a.expires,
      activation_id: a.activationId,
    })
    .where("id", "=", cardId)
    .execute();
}

export async function setActivationAmount(tx: Executor, id: number, amount: number): Promise<void> {
  await tx.updateTable("onecard_activations").set({ amount }).where("id", "=", id).execute();
}

/** What an activation preview checks of the cards (read without locks). */
export function cardsToPreview(db: Executor, ids: number[]) {
  return db
    .selectFrom("onecard_cards")
    .select(["owner_id", "state", "sale_price", "face_value"])
    .where("id", "in", ids)
    .execute();
}
