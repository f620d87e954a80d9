import { createLocalEInvoiceAdapter } from "./local";
import type { InvoiceDocument } from "./pdf";

export { renderInvoicePdf, capitals, yuan, type InvoiceDocument } from "./pdf";

/**
 * The e-invoice service the platform issues through (built in the context beside mail and SMS). Only the
 * local adapter exists (local.ts); a real one would send the same request to the provider and return its
 * number and file.
 */
export interface EInvoiceAdapter {
  readonly kind: "local";
  /** A blue invoice for an invoice row: its number and PDF. Same id, same number: safe to repeat. */
  issue(
    invoiceId: number,
    doc: Omit<InvoiceDocument, "invoiceNo" | "reverses">,
  ): Promise<{ invoiceNo: string; pdf: Buffer }>;
  /** The red-letter invoice reversing a blue one. */
  reverse(
    invoiceId: number,
    blueInvoiceNo: string,
    doc: Omit<InvoiceDocument, "invoiceNo" | "reverses">,
  ): Promise<{ invoiceNo: string; pdf: Buffer }>;
}

/** The configured e-invoice adapter: the local one (no provider is configured yet). */
export function createEInvoice(): EInvoiceAdapter {
  return createLocalEInvoiceAdapter();
}
