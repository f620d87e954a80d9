import { renderInvoicePdf, type InvoiceDocument } from "./pdf";

/**
 * The e-invoice service the platform issues through. Only the local adapter exists here (no tax
 * authority platform is reachable): it numbers the invoice and renders its PDF itself. A real adapter
 * would send the same request to the provider and return its number and file.
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

/**
 * Full-digital invoice numbers are 20 digits starting with the year's last two digits; the local one
 * puts the invoice id after them (a 0 for blue, a 9 for red, so the two never meet).
 */
const numberOf = (issuedOn: string, kind: "0" | "9", id: number) =>
  `${issuedOn.slice(2, 4)}${kind}${String(id).padStart(17, "0")}`;

export function createLocalEInvoiceAdapter(): EInvoiceAdapter {
  return {
    kind: "local",
    async issue(id, doc) {
      const invoiceNo = numberOf(doc.issuedOn, "0", id);
      return { invoiceNo, pdf: await renderInvoicePdf({ ...doc, invoiceNo }) };
    },
    async reverse(id, blueInvoiceNo, doc) {
      const invoiceNo = numberOf(doc.issuedOn, "9", id);
      return { invoiceNo, pdf: await renderInvoicePdf({ ...doc, invoiceNo, reverses: blueInvoiceNo }) };
    },
  };
}
