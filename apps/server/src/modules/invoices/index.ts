import type { InvoiceType } from "@tessera/contracts";
import type { Executor } from "../../db/tx";
import type { ModuleHost } from "../../platform/module";
import { feesPaidBy } from "../ledger";
import { invoiceOpsRoutes, invoiceUserRoutes } from "./routes";
import { InvoicesService, type InvoiceSeller } from "./service";

export { InvoicesService, taxOf, type InvoiceSeller } from "./service";
export { renderInvoicePdf, capitals, type InvoiceDocument } from "../../platform/adapters/einvoice";

export interface InvoicesNeeds {
  /** What a purchaser spent per invoice type (purchasing's read of its orders and refunds). */
  spendByInvoiceType(db: Executor, merchantId: number, currency: string): Promise<Map<InvoiceType, number>>;
}

/** Platform fees (top-up and collection fees, SMS packages; net of fees given back) are services: VAT 6%. */
export const FEES_INVOICE_TYPE: InvoiceType = "vat_6";

/** What a merchant spent per invoice type: its orders less refunds (purchasing), plus the platform fees it paid (ledger). */
async function spendWithFees(
  needs: InvoicesNeeds,
  db: Executor,
  merchantId: number,
  currency: string,
): Promise<Map<InvoiceType, number>> {
  const [spend, fees] = await Promise.all([
    needs.spendByInvoiceType(db, merchantId, currency),
    feesPaidBy(db, merchantId, currency),
  ]);
  if (fees !== 0) spend.set(FEES_INVOICE_TYPE, (spend.get(FEES_INVOICE_TYPE) ?? 0) + fees);
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
    spendByInvoiceType: (db, merchantId, currency) => spendWithFees(needs, db, merchantId, currency),
    log: ctx.log,
  });
  await host.mount("/api/card-user", invoiceUserRoutes({ invoices, guard }));
  await host.mount("/api/ops", invoiceOpsRoutes({ invoices, guard }));
  return { invoices };
}
