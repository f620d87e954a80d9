import { renderMessage } from "@tessera/contracts";
import type { Db } from "../../db/tx";
import type { Mailer } from "../../platform/messaging/adapters";
import type { LowStock } from "../catalog";
import { merchantOwner } from "../accounts";
import { getMerchant } from "../merchants";

/** Mails a supplier that a goods fell below its low-stock threshold, at its owner login's address. */
export async function notifyLowStock(db: Db, mailer: Mailer, notice: LowStock): Promise<void> {
  const owner = await merchantOwner(db, notice.merchantId);
  if (!owner) return;
  const merchant = await getMerchant(db, notice.merchantId);
  const lang = merchant?.version === "international" ? "tw" : "cn";
  const params = { name: notice.name, id: notice.goodsId, stock: notice.stock, threshold: notice.threshold };
  await mailer.send({
    to: owner.email,
    subject: renderMessage("supply.lowStockSubject", lang, params),
    text: renderMessage("supply.lowStockBody", lang, params),
  });
}
