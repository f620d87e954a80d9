import type { EInvoiceAdapter } from "./index";
import { renderInvoicePdf } from "./pdf";

/**
 * Full-digital invoice numbers are 20 digits starting with the year's last two digits; the local one
 * puts the invoice id after them (a 0 for blue, a 9 for red, so the two never meet).
 */
const numberOf = (issuedOn: string, kind: "0" | "9", id: number) =>
  `${issuedOn.slice(2, 4)}${kind}${String(id).padStart(17, "0")}`;

/**
 * The local e-invoice adapter: no tax authority platform is reachable, so it numbers the invoice and
 * renders its PDF itself.
 */
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
