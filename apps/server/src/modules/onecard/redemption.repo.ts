import type { Executor } from "../../db/tx";

/** SQL of redemption: the holds of two-phase redemption, and what a card check needs beside repo.ts's card reads. */

/** The phone of a card's holder (told by SMS when wrong passwords lock the card). */
export function customerPhone(db: Executor, customerId: number) {
  return db.selectFrom("onecard_customers").select("phone").where("id", "=", customerId).executeTakeFirst();
}

/** A hold by its request key (the brand's id and the caller's key). */
export function holdByKey(tx: Executor, requestKey: string) {
  return tx.selectFrom("onecard_holds").selectAll().where("request_key", "=", requestKey).executeTakeFirst();
}

export async function insertHold(
  tx: Executor,
  row: { card_id: number; amount: number; request_key: string; created_at: Date },
): Promise<number> {
  const h = await tx.insertInto("onecard_holds").values(row).returning("id").executeTakeFirstOrThrow();
  return h.id;
}

export function holdById(tx: Executor, id: number) {
  return tx.selectFrom("onecard_holds").selectAll().where("id", "=", id).executeTakeFirst();
}

export function lockHold(tx: Executor, id: number) {
  return tx.selectFrom("onecard_holds").selectAll().where("id", "=", id).forUpdate().executeTakeFirstOrThrow();
}

/** A card's held amount (a hold taken or released). */
export async function setHeld(tx: Executor, cardId: number, held: number): Promise<void> {
  await tx.updateTable("onecard_cards").set({ held }).where("id", "=", cardId).execute();
}

/** A card's held amount and balance (a hold captured). */
export async function setHeldAndBalance(tx: Executor, cardId: number, held: number, balance: number): Promise<void> {
  await tx.updateTable("onecard_cards").set({ held, balance }).where("id", "=", cardId).execute();
}

export async function settleHold(
  tx: Executor,
  id: number,
  state: "captured" | "released",
  settledAt: Date,
): Promise<void> {
  await tx.updateTable("onecard_holds").set({ state, settled_at: settledAt }).where("id", "=", id).execute();
}
