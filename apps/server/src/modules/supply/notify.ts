import { renderMessage } from "@tessera/contracts";
import type { Db } from "../../db/tx";
import type { Mailer } from "../../platform/messaging/adapters";
import type { LowStock } from "../catalog";
import { getMerchant } from "../merchants";

/**
 * Mails a supplier that a goods fell below its low-stock threshold. The address is the merchant's
 * first (owner) login; the accounts module exports no lookup for it yet, so this reads `users` directly
 * and should move behind an accounts function when one exists.
 */
export async function notifyLowStock(db: Db, mailer: Mailer, notice: LowStock): Promise<void> {
  const owner = await db
    .selectFrom("users")
    .select("email")
    .where("merchant_id", "=", notice.merchantId)
    .where("kind", "=", "merchant")
    .orderBy("id")
    .executeTakeFirst();
  if (!owner) return;
  const merchant = await getMerchant(db, notice.merchantId);
  const lang = merchant?.version === "international" ? "tw" : "cn";
  const params = { name: notice.name, id: notice.goodsId, stock: notice.stock, threshold: notice.threshold };
  await mailer.send({ to: owner.email, subject: renderMessage("supply.lowStockSubject", lang, params), text: renderMessage("supply.lowStockBody", lang, params) });
}
