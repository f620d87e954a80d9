import type { Invoice, InvoiceableRow, PurchaseOrder } from "@tessera/contracts";
import { PDFParse } from "pdf-parse";
import { beforeAll, describe, expect, it } from "vitest";
import { dock } from "../../../test/docking";
import { registerMerchant } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { fundSup } from "../../../test/money";
import { registerOperator } from "../../../test/operators";
import { withTx } from "../../db/tx";
import { outboxAttachments } from "../../platform/messaging/outbox.repo";
import { importFile, newBrand, newGoods, newMerchant, type TestMerchant } from "../../../test/kit/catalog-fixtures";
import { checkInvariants, post } from "../ledger";
import { cardCsv } from "../../../test/kit/cards";

/**
 * Issue 29 invoices: platform fees are invoiceable (VAT 6% services), the invoice mail carries its PDF
 * (kept whole by the local mail adapter), and the e-signature settings are used (the signer on the PDF,
 * the delivery email for a request without one).
 */
const t = useTestApp({ TOPUP_FEE_BP: "50" });
let ops: { token: string };
let supplier: TestMerchant;
let brandId: number;
beforeAll(async () => {
  ops = await registerOperator(t);
  supplier = await newMerchant(t, "Fee Mail Supplier");
  brandId = (await newBrand(t, supplier, "Fee Mail Cards")).id;
});

let seq = 0;
const key = () => `fm-${Date.now()}-${++seq}`;
const TITLE = {
  name: "上海星辰数字科技有限公司",
  taxId: "91310000MA1K00002C",
  address: "上海市浦东新区世纪大道100号",
  phone: "021-50000000",
  bank: "招商银行上海分行",
  bankAccount: "121900000000001",
};

const vat6 = async (token: string) => {
  const row = (await t.call<InvoiceableRow[]>("GET", "/api/card-user/invoice/invoiceable", { token })).body.data.find(
    (r) => r.invoiceType === "vat_6",
  );
  if (!row) throw new Error("no vat_6 row");
  return row;
};
const request = (token: string, body: Record<string, unknown>, lang: "cn" | "tw" | "en" = "en") =>
  t.call<Invoice>("POST", "/api/card-user/invoices", {
    token,
    lang,
    body: { invoiceType: "vat_6", title: TITLE, requestKey: key(), ...body },
  });
const textOf = async (data: Uint8Array) => {
  const parser = new PDFParse({ data });
  try {
    return (await parser.getText()).text.replace(/\s+/g, "");
  } finally {
    await parser.destroy();
  }
};
interface OutboxItem {
  id: string;
  subject: string;
  body: string;
}
const mailTo = async (to: string) =>
  (await t.call<{ list: OutboxItem[] }>("GET", `/api/dev/outbox?to=${encodeURIComponent(to)}&pageSize=20`)).body.data
    .list;

/** A purchaser that bought `quantity` cards of a vat_6 goods at 100.00 each. */
async function buyer(quantity: number) {
  ++seq;
  const goods = await newGoods(t, supplier, brandId, {
    name: `Fee mail card ${seq}`,
    price: 10_000,
    settlementPrice: 9_000,
    invoiceType: "vat_6",
  });
  const csv = cardCsv(quantity + 1, (i) => `FM${seq}X${String(i).padStart(6, "0")},SECRET${i},`);
  await importFile(t, supplier.token, goods.id, "cards.csv", csv);
  const { buyer: b } = await dock(t, supplier);
  await fundSup(t, b, 1_000_000);
  const order = await t.call<PurchaseOrder>("POST", "/api/card-user/orders", {
    token: b.token,
    body: { goodsId: String(goods.id), quantity, orderNo: `FM${Date.now()}${seq}` },
  });
  expect(order.body.data.state).toBe("success");
  return b;
}

describe("fees are invoiceable", () => {
  it("a top-up's fee is invoiceable as VAT 6% services, a fee given back reduces it, and it is the payer's alone", async () => {
    const m = await registerMerchant(t);
    const other = await registerMerchant(t);
    expect(await vat6(m.token)).toMatchObject({ spent: { amount: 0 }, invoiceable: { amount: 0 } });

    const body = {
      amount: 100_000,
      payerType: "company",
      payerName: "Blue Sky Trading Co",
      idNumber: "91440300MA5FXXXX1B",
      otherAccount: "6222020200112233",
      transferRef: "TRX-FEE-001",
      confirmed: true,
      requestKey: key(),
    };
    const filed = await t.call<{ id: string }>("POST", "/api/card-user/funds/topups", { token: m.token, body });
    expect(filed.body.code).toBe(1);
    const confirmed = await t.call<{ fee: { amount: number } }>(
      "POST",
      `/api/ops/funds/topups/${filed.body.data.id}/confirm`,
      { token: ops.token },
    );
    expect(confirmed.body.data.fee.amount).toBe(500);
    expect(await vat6(m.token)).toMatchObject({ spent: { amount: 500 }, invoiceable: { amount: 500 } });
    expect(await vat6(other.token)).toMatchObject({ spent: { amount: 0 } });

    // A fee given back (as a collection refund gives back its share of the fee) reduces it.
    await withTx(t.ctx.database.db, (tx) =>
      post(tx, {
        idempotencyKey: `fee-back-${m.merchantId}`,
        kind: "refund",
        currency: "CNY",
        postings: [
          { account: { platform: "fees" }, amount: -110 },
          { account: { merchantId: Number(m.merchantId), kind: "reserve" }, amount: 110 },
        ],
      }),
    );
    expect(await vat6(m.token)).toMatchObject({ spent: { amount: 390 }, invoiceable: { amount: 390 } });

    // Requests take from it like any spend.
    expect((await request(m.token, { amount: 391, email: "fees@example.com" })).body.msg).toBe(
      "The amount is more than the invoiceable amount (3.90 available)",
    );
    const made = await request(m.token, { amount: 390, email: "fees@example.com" });
    expect(made.body.data).toMatchObject({ state: "requested", amount: { amount: 390 } });
    expect(await vat6(m.token)).toMatchObject({ invoiceable: { amount: 0 } });
    expect(await checkInvariants(t.ctx.database.db)).toEqual([]);
  });
});

describe("the invoice mail and the e-signature settings", () => {
  it("a request without an email goes to the delivery email; the mail carries the PDF, which shows the signer; the red-letter mail carries the red PDF", async () => {
    const b = await buyer(2);
    const delivery = `ap-${Date.now()}@example.com`;
    const saved = await t.call("PUT", "/api/card-user/invoice/settings", {
      token: b.token,
      body: { eSign: true, signerName: "王芳", signerPhone: "13800001111", deliveryEmail: delivery },
    });
    expect(saved.body.code).toBe(1);

    const made = await request(b.token, { amount: 20_000 });
    expect(made.body.data).toMatchObject({ state: "requested", email: delivery });
    const issued = (await t.call<Invoice>("PUT", `/api/ops/invoices/${made.body.data.id}/issue`, { token: ops.token }))
      .body.data;
    expect(issued.state).toBe("delivered");
    const invoiceNo = issued.invoiceNo ?? "?";

    const mail = (await mailTo(delivery)).find((x) => x.subject.includes(invoiceNo));
    if (!mail) throw new Error("no invoice mail");
    const [pdf, ...more] = await outboxAttachments(t.ctx.database.db, Number(mail.id));
    expect(more).toEqual([]);
    expect(pdf).toMatchObject({ filename: `invoice-${invoiceNo}.pdf`, contentType: "application/pdf" });
    expect(mail.body).toContain(
      `📎 invoice-${invoiceNo}.pdf (application/pdf, ${(pdf?.size ?? 0).toLocaleString("en-US")} bytes)`,
    );
    // The attachment is the invoice's PDF as the merchant downloads it.
    const download = await t.app.inject({
      method: "GET",
      url: `/api/card-user/invoices/${made.body.data.id}/pdf`,
      headers: { "x-auth-token": b.token },
    });
    expect(Buffer.compare(download.rawPayload, pdf?.content ?? Buffer.alloc(0))).toBe(0);
    const text = await textOf(new Uint8Array(pdf?.content ?? []));
    expect(text).toContain(invoiceNo);
    expect(text).toContain("购买方电子签名：王芳（138****1111）");

    const reversed = (
      await t.call<Invoice>("PUT", `/api/ops/invoices/${made.body.data.id}/reverse`, {
        token: ops.token,
        body: { reason: "Wrong title" },
      })
    ).body.data;
    const redNo = reversed.redInvoiceNo ?? "?";
    const redMail = (await mailTo(delivery)).find((x) => x.subject.includes(redNo));
    if (!redMail) throw new Error("no red-letter mail");
    const [red] = await outboxAttachments(t.ctx.database.db, Number(redMail.id));
    expect(red?.filename).toBe(`red-invoice-${redNo}.pdf`);
    expect(redMail.body).toContain(`📎 red-invoice-${redNo}.pdf (application/pdf,`);
    const redText = await textOf(new Uint8Array(red?.content ?? []));
    expect(redText).toContain(`被红冲蓝字发票号码：${invoiceNo}`);
    expect(redText).toContain("购买方电子签名：王芳");
  });

  it("without e-signing no signer is shown; without any email the request is refused in three languages and nothing changes", async () => {
    const b = await buyer(1);
    expect(
      (
        await t.call("PUT", "/api/card-user/invoice/settings", {
          token: b.token,
          body: { eSign: false, signerName: "李雷", signerPhone: "", deliveryEmail: "" },
        })
      ).body.code,
    ).toBe(1);
    expect((await request(b.token, { amount: 5_000 }, "cn")).body.msg).toBe(
      "请填写收票邮箱，或在签章设置中填写收票邮箱",
    );
    expect((await request(b.token, { amount: 5_000 }, "tw")).body.msg).toBe(
      "請填寫收票郵箱，或在簽章設置中填寫收票郵箱",
    );
    const en = await request(b.token, { amount: 5_000, email: "" }, "en");
    expect(en.status).toBe(400);
    expect(en.body.msg).toBe(
      "Please give the email to send the invoice to, or set a delivery email in the e-signature settings",
    );
    expect(await vat6(b.token)).toMatchObject({ pending: { amount: 0 }, invoiceable: { amount: 10_000 } });

    const to = `plain-${Date.now()}@example.com`;
    const made = await request(b.token, { amount: 5_000, email: to });
    expect(made.body.data.email).toBe(to);
    const issued = (await t.call<Invoice>("PUT", `/api/ops/invoices/${made.body.data.id}/issue`, { token: ops.token }))
      .body.data;
    const mail = (await mailTo(to)).find((x) => x.subject.includes(issued.invoiceNo ?? "?"));
    if (!mail) throw new Error("no invoice mail");
    const [pdf] = await outboxAttachments(t.ctx.database.db, Number(mail.id));
    const text = await textOf(new Uint8Array(pdf?.content ?? []));
    expect(text).toContain(issued.invoiceNo ?? "?");
    expect(text).not.toContain("电子签名");
    expect(text).not.toContain("李雷");
  });
});
