import type { Executor, Tx } from "../../db/tx";

/**
 * The mall's SQL, on its own tables only. What it needs of other modules' rows comes through their
 * index.ts: the merchant (merchants), the customer's cards and phone (onecard), the codes the merchant
 * bought (supply's buyer stock: taking codes for a delivery marks them handed on there).
 */

export async function touchMember(db: Executor, merchantId: number, customerId: number, now: Date): Promise<void> {
  await db
    .insertInto("mall_members")
    .values({ merchant_id: merchantId, customer_id: customerId, first_seen_at: now, last_seen_at: now })
    .onConflict((oc) => oc.columns(["merchant_id", "customer_id"]).doUpdateSet({ last_seen_at: now }))
    .execute();
}

/**
 * One SMS of the merchant's packages, the soonest to expire first; undefined when none remain. Each
 * candidate is taken with a conditional update (waiting for a concurrent send's lock, never skipping
 * it), so parallel sends share one package until it is empty.
 */
export async function takeSms(tx: Tx, merchantId: number, now: Date): Promise<number | undefined> {
  const live = await tx
    .selectFrom("mall_sms_packages")
    .select("id")
    .where("merchant_id", "=", merchantId)
    .where("remaining", ">", 0)
    .where("expires_at", ">", now)
    .orderBy("expires_at")
    .orderBy("id")
    .limit(20)
    .execute();
  for (const p of live) {
    const r = await tx.updateTable("mall_sms_packages").set((eb) => ({ remaining: eb("remaining", "-", 1) })).where("id", "=", p.id).where("remaining", ">", 0).returning("id").executeTakeFirst();
    if (r) return r.id;
  }
  return undefined;
}
