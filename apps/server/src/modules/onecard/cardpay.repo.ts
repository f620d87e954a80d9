import { sql } from "kysely";
import type { Executor } from "../../db/tx";

/**
 * SQL of card payments in other modules (the mini-program mall): a card's owner and brand, a customer's
 * usable cards of a brand, customers' phones. Other modules call these through index.ts and never touch
 * onecard's tables themselves.
 */

export function cardOwner(db: Executor, cardId: number) {
  return db
    .selectFrom("onecard_cards")
    .select(["id", "customer_id", "brander_id", "currency", "balance", "held"])
    .where("id", "=", cardId)
    .executeTakeFirst();
}

/** A customer's activated cards of a brand (the cards it may pay with in that brand's mall). */
export function customerCards(db: Executor, customerId: number, branderId: number) {
  return db
    .selectFrom("onecard_cards")
    .select(["id", "balance", "held", "currency", "sealed"])
    .where("customer_id", "=", customerId)
    .where("brander_id", "=", branderId)
    .where("state", "=", "activated")
    .orderBy("id")
    .execute();
}

/**
 * The customer's activated cards of other brands, by brand: what the mall's checkout names when its
 * one-card payment cannot take them (issue 40, item 7).
 */
export function customerCardsElsewhere(db: Executor, customerId: number, exceptBranderId: number) {
  return db
    .selectFrom("onecard_cards as c")
    .innerJoin("merchants as m", "m.id", "c.brander_id")
    .select(({ fn }) => [
      "c.brander_id",
      "m.name",
      "c.currency",
      fn.countAll<number>().as("cards"),
      fn.sum<number>(sql<number>`c.balance - c.held`).as("balance"),
    ])
    .where("c.customer_id", "=", customerId)
    .where("c.brander_id", "<>", exceptBranderId)
    .where("c.state", "=", "activated")
    .groupBy(["c.brander_id", "m.name", "c.currency"])
    .orderBy("c.brander_id")
    .execute();
}

export function phonesOf(db: Executor, customerIds: number[]): Promise<{ id: number; phone: string }[]> {
  if (customerIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom("onecard_customers")
    .select(["id", "phone"])
    .where("id", "in", [...new Set(customerIds)])
    .execute();
}

/** The customer of a phone number, when one has logged in. */
export async function customerIdByPhone(db: Executor, phone: string): Promise<number | undefined> {
  return (await db.selectFrom("onecard_customers").select("id").where("phone", "=", phone).executeTakeFirst())?.id;
}
