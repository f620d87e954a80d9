import type { Executor, Tx } from "../../db/tx";

/** The storefront's SQL: the goods a customer sees on sale, and the login SMS counted against the packages. */

/**
 * What the customer sees of the merchant's goods on sale (no purchase cost, no own stock: the back-office's
 * list has them), by sort then newest, the keyword matched in the name.
 */
export async function goodsOnSale(db: Executor, merchantId: number, keyword: string | undefined) {
  let base = db
    .selectFrom("mall_self_goods")
    .select(["id", "goods_id", "name", "price", "currency"])
    .where("merchant_id", "=", merchantId)
    .where("on_sale", "=", true);
  if (keyword) base = base.where("name", "ilike", `%${keyword.replace(/[%_\\]/g, (c) => `\\${c}`)}%`);
  return base.orderBy("sort").orderBy("id", "desc").limit(1000).execute();
}

/** The record of a customer-login SMS taken from a package (sent). */
export async function insertLoginSms(
  tx: Tx,
  merchantId: number,
  r: { appId: string; phone: string; packageId: number; now: Date },
) {
  return tx
    .insertInto("mall_sms_records")
    .values({
      merchant_id: merchantId,
      app_id: r.appId,
      phone: r.phone,
      scene: "customerLogin",
      package_id: r.packageId,
      state: "sent",
      created_at: r.now,
    })
    .returning(["id", "package_id"])
    .executeTakeFirstOrThrow();
}

/** An SMS not sent after all: back into its package, its record failed. */
export async function returnSms(tx: Tx, packageId: number, recordId: number): Promise<void> {
  await tx
    .updateTable("mall_sms_packages")
    .set((eb) => ({ remaining: eb("remaining", "+", 1) }))
    .where("id", "=", packageId)
    .execute();
  await tx.updateTable("mall_sms_records").set({ state: "failed" }).where("id", "=", recordId).execute();
}
