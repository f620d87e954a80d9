import type { Insertable } from "kysely";
import { paginate } from "../../db/paginate";
import type { Executor } from "../../db/tx";
import type { OnecardGiftsTable } from "./tables";

/** SQL of gifts and the customer's card bag. A purchaser's gifts are read with its id; a customer's with theirs. */

export function giftByKey(tx: Executor, purchaserId: number, requestKey: string) {
  return tx
    .selectFrom("onecard_gifts")
    .select("id")
    .where("purchaser_id", "=", purchaserId)
    .where("request_key", "=", requestKey)
    .executeTakeFirst();
}

export async function insertGift(tx: Executor, row: Insertable<OnecardGiftsTable>): Promise<number> {
  const made = await tx.insertInto("onecard_gifts").values(row).returning("id").executeTakeFirstOrThrow();
  return made.id;
}

/** Marks the cards given in a gift. */
export async function markGiven(tx: Executor, cardIds: number[], giftId: number): Promise<void> {
  await tx.updateTable("onecard_cards").set({ gift_id: giftId }).where("id", "in", cardIds).execute();
}

export async function giftPage(
  db: Executor,
  purchaserId: number,
  f: {
    id?: number | undefined;
    ids?: number[] | undefined;
    packageId?: number | undefined;
    offset: number;
    limit: number;
  },
) {
  let base = db
    .selectFrom("onecard_gifts as g")
    .leftJoin("onecard_gift_packages as p", "p.id", "g.package_id")
    .where("g.purchaser_id", "=", purchaserId);
  if (f.id !== undefined) base = base.where("g.id", "=", f.id);
  if (f.ids !== undefined) base = base.where("g.id", "in", f.ids.length > 0 ? f.ids : [0]);
  if (f.packageId !== undefined) base = base.where("g.package_id", "=", f.packageId);
  return paginate(base.selectAll("g").select("p.name as package_name").orderBy("g.id", "desc"), base, f);
}

/** Unclaimed gifts past their expiry, marked expired: their ids. */
export async function expireSentGifts(tx: Executor, now: Date): Promise<number[]> {
  const expired = await tx
    .updateTable("onecard_gifts")
    .set({ state: "expired" })
    .where("state", "=", "sent")
    .where("expires_at", "<=", now)
    .returning("id")
    .execute();
  return expired.map((g) => g.id);
}

/** Gifts whose SMS could not be sent: their cards free again, the gifts gone (nobody was told of them). */
export async function deleteUnsentGifts(tx: Executor, giftIds: number[]): Promise<void> {
  if (giftIds.length === 0) return;
  await tx.updateTable("onecard_cards").set({ gift_id: null }).where("gift_id", "in", giftIds).execute();
  await tx.deleteFrom("onecard_gifts").where("id", "in", giftIds).where("state", "=", "sent").execute();
}

/** The unclaimed cards of expired gifts are free to give again. */
export async function ungiveCards(tx: Executor, giftIds: number[]): Promise<void> {
  await tx
    .updateTable("onecard_cards")
    .set({ gift_id: null })
    .where("gift_id", "in", giftIds)
    .where("customer_id", "is", null)
    .execute();
}

/** Gifts waiting for a phone, with their senders' names. */
export function giftsToPhone(db: Executor, phone: string) {
  return db
    .selectFrom("onecard_gifts as g")
    .innerJoin("merchants as m", "m.id", "g.purchaser_id")
    .selectAll("g")
    .select("m.name as from_name")
    .where("g.phone", "=", phone)
    .where("g.state", "=", "sent")
    .orderBy("g.id", "desc")
    .execute();
}

/** A gift and its sender's name, for the claim link's landing (nothing locked). */
export function giftWithSender(db: Executor, id: number) {
  return db
    .selectFrom("onecard_gifts as g")
    .innerJoin("merchants as m", "m.id", "g.purchaser_id")
    .select(["g.card_ids", "g.amount", "g.currency", "g.message", "g.state", "g.expires_at", "m.name as sender"])
    .where("g.id", "=", id)
    .executeTakeFirst();
}

export function lockGift(tx: Executor, id: number) {
  return tx.selectFrom("onecard_gifts").selectAll().where("id", "=", id).forUpdate().executeTakeFirst();
}

/** A gift's cards into the customer's card bag. */
export async function claimCards(tx: Executor, cardIds: number[], giftId: number, customerId: number): Promise<void> {
  await tx
    .updateTable("onecard_cards")
    .set({ customer_id: customerId })
    .where("id", "in", cardIds)
    .where("gift_id", "=", giftId)
    .execute();
}

export async function markClaimed(tx: Executor, giftId: number, customerId: number, now: Date): Promise<void> {
  await tx
    .updateTable("onecard_gifts")
    .set({ state: "claimed", claimed_by: customerId, claimed_at: now })
    .where("id", "=", giftId)
    .execute();
}

/** A card into the customer's card bag. */
export async function bindCard(tx: Executor, cardId: number, customerId: number): Promise<void> {
  await tx.updateTable("onecard_cards").set({ customer_id: customerId }).where("id", "=", cardId).execute();
}

/** A card's new password (hash and sealed credentials); its own wrong-password count and lock cleared. */
export async function setPassword(tx: Executor, cardId: number, pwdHash: string, sealed: string): Promise<void> {
  await tx
    .updateTable("onecard_cards")
    .set({
      pwd_hash: pwdHash,
      sealed,
      wrong_attempts: 0,
      locked_until: null,
    })
    .where("id", "=", cardId)
    .execute();
}
