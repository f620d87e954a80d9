import type { InvoiceType } from "@tessera/contracts";
import type { Executor } from "../../db/tx";
import type { ModuleHost } from "../../platform/module";
import { feesPaidBy, tradesByMerchant, type TradeCategory } from "../ledger";
import { invoiceOpsRoutes, invoiceUserRoutes } from "./routes";
import { InvoicesService, type InvoiceSeller } from "./service";

export { InvoicesService, taxOf, type InvoiceSeller } from "./service";
export { renderInvoicePdf, capitals, type InvoiceDocument } from "../../platform/adapters/einvoice";

export interface InvoicesNeeds {
  /** What a purchaser spent on digital goods per invoice type of the goods (purchasing's read of the ledger's trade facts). */
  spendByInvoiceType(db: Executor, merchantId: number, currency: string): Promise<Map<InvoiceType, number>>;
}

/** Platform fees (top-up and collection fees, SMS packages; net of fees given back) are services: VAT 6%. */
export const FEES_INVOICE_TYPE: InvoiceType = "vat_6";

/**
 * The invoice type of what merchants buy besides digital goods: stored-value cards are prepaid value, not
 * taxed when sold (a 0% ordinary invoice); physical goods are goods at VAT 13%. SMS packages are platform
 * fees (counted with the fees below).
 */
export const CATEGORY_INVOICE_TYPES: Partial<Record<TradeCategory, InvoiceType>> = {
  cards: "ordinary_0",
  physical: "vat_13",
};

/**
 * What a merchant spent per invoice type, all from the ledger entries its fund sheet lists: digital goods by
 * the goods' invoice type (purchasing), cards and physical goods by CATEGORY_INVOICE_TYPES (the ledger's trade
 * facts), each less its refunds, plus the platform fees it paid net of fees given back (ledger).
 */
async function spendOfMerchant(
  needs: InvoicesNeeds,
  db: Executor,
  merchantId: number,
  currency: string,
): Promise<Map<InvoiceType, number>> {
  const [spend, trades, fees] = await Promise.all([
    needs.spendByInvoiceType(db, merchantId, currency),
    tradesByMerchant(db, { buyers: [merchantId], sellers: [], currency }),
    feesPaidBy(db, merchantId, currency),
  ]);
  const add = (type: InvoiceType, amount: number) => {
    if (amount !== 0) spend.set(type, (spend.get(type) ?? 0) + amount);
  };
  for (const t of trades) {
    const type = CATEGORY_INVOICE_TYPES[t.category];
    if (type) add(type, t.amount - t.refunds);
  }
  add(FEES_INVOICE_TYPE, fees);
  return spend;
}

/**
 * Invoices against spend (issue 29): requests, the operator's issue through the e-invoice adapter
 * (local: numbered here, PDF rendered here, mailed through the mail adapter), red-letter reversal,
 * titles and e-signature settings. Mounts /api/card-user (the merchant) and /api/ops (the operator).
 */
export async function registerInvoices(host: ModuleHost, needs: InvoicesNeeds): Promise<{ invoices: InvoicesService }> {
  const { ctx, db, guard } = host;
  const bank = ctx.config.funds.domesticBank;
  const seller: InvoiceSeller = {
    name: bank.accountName,
    taxId: ctx.config.invoiceSellerTaxId,
    address: ctx.config.invoiceSellerAddress,
    bank: bank.bankName,
    bankAccount: bank.accountNumber,
  };
  const invoices = new InvoicesService({
    db,
    clock: ctx.clock,
    storage: ctx.storage,
    mailer: ctx.mailer,
    adapter: ctx.einvoice,
    seller,
    spendByInvoiceType: (db, merchantId, currency) => spendOfMerchant(needs, db, merchantId, currency),
    log: ctx.log,
  });
  await host.mount("/api/card-user", invoiceUserRoutes({ invoices, guard }));
  await host.mount("/api/ops", invoiceOpsRoutes({ invoices, guard }));
  return { invoices };
}
