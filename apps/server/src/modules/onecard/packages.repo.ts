import { sql } from "kysely";
import { paginate } from "../../db/paginate";
import type { Executor } from "../../db/tx";

/** SQL of gift packages. Every read of a package names its purchaser. */

export function productCurrencies(db: Executor, ids: number[]) {
  return db.selectFrom("onecard_products").select(["id", "currency"]).where("id", "in", ids).execute();
}

export async function insertPackage(
  db: Executor,
  row: { purchaser_id: number; name: string; message: string; items: string; created_by: number; created_at: Date },
): Promise<number> {
  const made = await db.insertInto("onecard_gift_packages").values(row).returning("id").executeTakeFirstOrThrow();
  return made.id;
}

/** Archives a purchaser's package; false when it has no such package. */
export async function archivePackage(db: Executor, id: number, purchaserId: number): Promise<boolean> {
  const done = await db
    .updateTable("onecard_gift_packages")
    .set({ archived: true })
    .where("id", "=", id)
    .where("purchaser_id", "=", purchaserId)
    .executeTakeFirst();
  return Number(done.numUpdatedRows) > 0;
}

export async function packagePage(db: Executor, purchaserId: number, offset: number, limit: number) {
  const base = db
    .selectFrom("onecard_gift_packages")
    .where("purchaser_id", "=", purchaserId)
    .where("archived", "=", false);
  return paginate(base.select("id").orderBy("id", "desc"), base, { offset, limit });
}

export function packageOf(db: Executor, id: number, purchaserId: number) {
  return db
    .selectFrom("onecard_gift_packages")
    .selectAll()
    .where("id", "=", id)
    .where("purchaser_id", "=", purchaserId)
    .executeTakeFirst();
}

/** A package not archived, to send. */
export function livePackageOf(tx: Executor, id: number, purchaserId: number) {
  return tx
    .selectFrom("onecard_gift_packages")
    .selectAll()
    .where("id", "=", id)
    .where("purchaser_id", "=", purchaserId)
    .where("archived", "=", false)
    .executeTakeFirst();
}

export function productsOf(db: Executor, ids: number[]) {
  return db
    .selectFrom("onecard_products")
    .select(["id", "name", "face_value", "currency"])
    .where("id", "in", ids)
    .execute();
}

export function productName(tx: Executor, id: number) {
  return tx.selectFrom("onecard_products").select("name").where("id", "=", id).executeTakeFirst();
}

/** How many gifts of a package were sent and claimed. */
export function giftCounts(db: Executor, packageId: number) {
  return db
    .selectFrom("onecard_gifts")
    .select((eb) => [eb.fn.countAll<string>().as("sent"), eb.fn.count<string>("claimed_at").as("claimed")])
    .where("package_id", "=", packageId)
    .executeTakeFirstOrThrow();
}

/** The purchaser's gifts made under these request keys (a replayed sending). */
export function giftsByKeys(tx: Executor, purchaserId: number, keys: string[]) {
  return tx
    .selectFrom("onecard_gifts")
    .select("id")
    .where("purchaser_id", "=", purchaserId)
    .where("request_key", "in", keys)
    .execute();
}

/** Up to `need` of the purchaser's free activated cards of a product, locked (SKIP LOCKED: a parallel sending takes others). */
export async function pickFreeCards(
  tx: Executor,
  purchaserId: number,
  productId: number,
  need: number,
  now: Date,
): Promise<{ id: number; balance: number }[]> {
  const cards = await sql<{ id: number; balance: number }>`
          SELECT id, balance FROM onecard_cards
          WHERE owner_id = ${purchaserId} AND product_id = ${productId} AND state = 'activated' AND customer_id IS NULL AND gift_id IS NULL
            AND (expires_at IS NULL OR expires_at > ${now})
          ORDER BY id LIMIT ${need} FOR UPDATE SKIP LOCKED`.execute(tx);
  return cards.rows;
}

/** Activated cards of each product the purchaser holds and has not given. */
export async function freeCounts(
  db: Executor,
  purchaserId: number,
  productIds: number[],
  now: Date,
): Promise<Map<number, number>> {
  if (productIds.length === 0) return new Map();
  const rows = await db
    .selectFrom("onecard_cards")
    .select(["product_id", (eb) => eb.fn.countAll<string>().as("n")])
    .where("owner_id", "=", purchaserId)
    .where("product_id", "in", productIds)
    .where("state", "=", "activated")
    .where("customer_id", "is", null)
    .where("gift_id", "is", null)
    .where((eb) => eb.or([eb("expires_at", "is", null), eb("expires_at", ">", now)]))
    .groupBy("product_id")
    .execute();
  return new Map(rows.map((r) => [r.product_id, Number(r.n)]));
}
