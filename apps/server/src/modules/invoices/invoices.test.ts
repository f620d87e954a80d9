import type { Invoice, InvoiceableRow, PurchaseOrder } from "@tessera/contracts";
import { PDFParse } from "pdf-parse";
import { beforeAll, describe, expect, it } from "vitest";
import { dock } from "../../../test/docking";
import { registerMerchant } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { fundSup } from "../../../test/money";
import { registerOperator } from "../../../test/operators";
import { importFile, newBrand, newGoods, newMerchant, type TestMerchant } from "../../../test/kit/catalog-fixtures";
import { capitals, taxOf } from "./index";
import { cardCsv } from "../../../test/kit/cards";

const t = useTestApp();
let supplier: TestMerchant;
let ops: { token: string };
let brandId: number;
beforeAll(async () => {
  supplier = await newMerchant(t, "Invoice Supplier Co");
  brandId = (await newBrand(t, supplier, "Invoice Cards")).id;
  ops = await registerOperator(t);
});

let seq = 0;
const key = () => `inv-${Date.now()}-${++seq}`;
const csv = (n: number, prefix: string) =>
  cardCsv(n, (i) => `${prefix}${seq}${String(i).padStart(6, "0")},SECRET${i},`);
const TITLE = {
  name: "上海星辰数字科技有限公司",
  taxId: "91310000MA1K00002C",
  address: "上海市浦东新区世纪大道100号",
  phone: "021-50000000",
  bank: "招商银行上海分行",
  bankAccount: "121900000000001",
};

/** A purchaser that bought `quantity` cards of a vat_6 goods at 100.00 each. */
async function buyer(quantity: number) {
  ++seq;
  const goods = await newGoods(t, supplier, brandId, {
    name: `Invoice card ${seq}`,
    price: 10_000,
    settlementPrice: 9_000,
    invoiceType: "vat_6",
  });
  await importFile(t, supplier.token, goods.id, "cards.csv", csv(quantity + 1, `INV${seq}X`));
  const { buyer: b } = await dock(t, supplier);
  await fundSup(t, b, 1_000_000);
  const order = await t.call<PurchaseOrder>("POST", "/api/card-user/orders", {
    token: b.token,
    body: { goodsId: String(goods.id), quantity, orderNo: `PO${Date.now()}${seq}` },
  });
  expect(order.body.data.state).toBe("success");
  return { ...b, order: order.body.data };
}
const vat6 = async (token: string) => {
  const rows = (await t.call<InvoiceableRow[]>("GET", "/api/card-user/invoice/invoiceable", { token })).body.data;
  const row = rows.find((r) => r.invoiceType === "vat_6");
  if (!row) throw new Error("no vat_6 row");
  return row;
};
const request = (token: string, body: Record<string, unknown>, lang: "cn" | "tw" | "en" = "en") =>
  t.call<Invoice>("POST", "/api/card-user/invoices", {
    token,
    lang,
    body: { invoiceType: "vat_6", title: TITLE, email: "finance@example.com", requestKey: key(), ...body },
  });
const pdfText = async (url: string, token: string) => {
  const res = await t.app.inject({ method: "GET", url, headers: { "x-auth-token": token } });
  expect(res.statusCode).toBe(200);
  expect(res.headers["content-type"]).toBe("application/pdf");
  const parser = new PDFParse({ data: new Uint8Array(res.rawPayload) });
  try {
    return (await parser.getText()).text.replace(/\s+/g, "");
  } finally {
    await parser.destroy();
  }
};

describe("amounts", () => {
  it("tax of a tax-inclusive amount, rounded half up; capitals", () => {
    expect(taxOf(10_600, 600)).toBe(600);
    expect(taxOf(100, 1300)).toBe(12);
    expect(taxOf(5_000, 0)).toBe(0);
    expect(capitals(20_000)).toBe("贰佰元整");
    expect(capitals(1_000_050)).toBe("壹万元伍角整");
    expect(capitals(-20_000)).toBe("负贰佰元整");
  });
});

describe("invoice requests against spend", () => {
  it("spend is invoiceable; a request takes from it, a replay repeats it; bad input changes nothing", async () => {
    const b = await buyer(3);
    expect(await vat6(b.token)).toMatchObject({
      category: "special",
      rateBp: 600,
      available: true,
      spent: { amount: 30_000 },
      invoiceable: { amount: 30_000 },
    });

    const over = await request(b.token, { amount: 30_001 });
    expect(over.body.msg).toBe("The amount is more than the invoiceable amount (300.00 available)");
    expect((await request(b.token, { amount: 30_001 }, "cn")).body.msg).toBe("开票金额超过可开票金额（可开300.00）");
    expect((await request(b.token, { amount: 30_001 }, "tw")).body.msg).toBe("開票金額超過可開票金額（可開300.00）");
    const noTaxId = await request(b.token, { amount: 100, title: { ...TITLE, taxId: "" } });
    expect(noTaxId.body.msg).toBe("A VAT special invoice needs the taxpayer ID");
    const noBank = await request(b.token, { amount: 100, title: { ...TITLE, bank: "", bankAccount: "" } }, "cn");
    expect(noBank.body.msg).toBe("增值税专用发票须填写开户银行及账号");
    const badTaxId = await request(b.token, { amount: 100, title: { ...TITLE, taxId: "91310000MA1K00002D" } });
    expect(badTaxId.body.msg).toBe("Please enter a correct taxpayer ID (the 18-character unified social credit code)");
    // An ordinary invoice needs neither.
    const ordinary = await request(b.token, { invoiceType: "ordinary_3", amount: 100, title: { name: "个人" } });
    expect(ordinary.body.msg).toBe("The amount is more than the invoiceable amount (0.00 available)");
    expect(
      (await t.call<{ total: number }>("GET", "/api/card-user/invoices", { token: b.token })).body.data.total,
    ).toBe(0);

    const body = { amount: 20_000, requestKey: key(), remark: "Q4 purchases" };
    const made = await request(b.token, body);
    expect(made.body.data).toMatchObject({
      state: "requested",
      category: "special",
      rateBp: 600,
      amount: { amount: 20_000 },
      taxAmount: { amount: 1_132 },
      title: { taxId: TITLE.taxId },
    });
    expect((await request(b.token, body)).body.data.id).toBe(made.body.data.id);
    expect(await vat6(b.token)).toMatchObject({ pending: { amount: 20_000 }, invoiceable: { amount: 10_000 } });
    expect((await request(b.token, { amount: 10_001 })).status).toBe(400);
  });

  it("the operator issues it: a real PDF in Chinese, mailed; red-letter reversal returns the amount", async () => {
    const b = await buyer(2);
    const made = (await request(b.token, { amount: 20_000 })).body.data;
    const stranger = await registerMerchant(t);
    expect((await t.call("PUT", `/api/ops/invoices/${made.id}/issue`, { token: b.token })).status).toBe(403);
    expect(
      (await t.call("GET", `/api/card-user/invoices/${made.id}/pdf`, { token: b.token, lang: "en" })).body.msg,
    ).toBe("The invoice has not been issued yet");

    const issued = await t.call<Invoice>("PUT", `/api/ops/invoices/${made.id}/issue`, { token: ops.token });
    expect(issued.body.data).toMatchObject({ state: "delivered" });
    expect(issued.body.data.invoiceNo).toMatch(/^\d{20}$/);
    // The console's audit log lists the operator's issuing (issue 40, item 16).
    const logged = await t.call<{ list: { action: string }[] }>(
      "GET",
      `/api/ops/auditLog?subjectType=invoice&subjectId=${made.id}`,
      { token: ops.token },
    );
    expect(logged.body.data.list).toMatchObject([{ action: "invoices.issue" }]);
    const again = await t.call("PUT", `/api/ops/invoices/${made.id}/issue`, { token: ops.token, lang: "en" });
    expect(again.status).toBe(409);
    expect(again.body.msg).toBe("This invoice request has already been handled");
    const mail = await t.call<{ list: { subject: string; body: string }[] }>(
      "GET",
      `/api/dev/outbox?to=${encodeURIComponent("finance@example.com")}&pageSize=20`,
    );
    expect(mail.body.data.list.some((m) => m.subject.includes(issued.body.data.invoiceNo ?? "?"))).toBe(true);
    expect(await vat6(b.token)).toMatchObject({ invoiced: { amount: 20_000 }, invoiceable: { amount: 0 } });

    const text = await pdfText(`/api/card-user/invoices/${made.id}/pdf`, b.token);
    expect(text).toContain("电子发票（增值税专用发票）");
    expect(text).toContain(issued.body.data.invoiceNo);
    expect(text).toContain(TITLE.name);
    expect(text).toContain(TITLE.taxId);
    expect(text).toContain("贰佰元整");
    expect(text).toContain("¥200.00");
    expect(text).toContain("6%");
    // Tenancy: another merchant neither lists nor downloads it.
    expect(
      (await t.call<{ total: number }>("GET", "/api/card-user/invoices", { token: stranger.token })).body.data.total,
    ).toBe(0);
    expect((await t.call("GET", `/api/card-user/invoices/${made.id}/pdf`, { token: stranger.token })).status).toBe(404);

    const noReason = await t.call("PUT", `/api/ops/invoices/${made.id}/reverse`, {
      token: ops.token,
      body: { reason: " " },
      lang: "en",
    });
    expect(noReason.status).toBe(400);
    const reversed = await t.call<Invoice>("PUT", `/api/ops/invoices/${made.id}/reverse`, {
      token: ops.token,
      body: { reason: "Wrong title" },
    });
    expect(reversed.body.data).toMatchObject({ state: "reversed", reverseReason: "Wrong title" });
    expect(reversed.body.data.redInvoiceNo).toMatch(/^\d{20}$/);
    expect(await vat6(b.token)).toMatchObject({ invoiced: { amount: 0 }, invoiceable: { amount: 20_000 } });
    const red = await pdfText(`/api/card-user/invoices/${made.id}/pdf?red=1`, b.token);
    expect(red).toContain("（红字）");
    expect(red).toContain("负贰佰元整");
    expect(red).toContain(`被红冲蓝字发票号码：${issued.body.data.invoiceNo}`);
    expect(
      (await t.call("PUT", `/api/ops/invoices/${made.id}/reverse`, { token: ops.token, body: { reason: "again" } }))
        .status,
    ).toBe(409);
  });

  it("a refused request and a refund both change what is invoiceable; the operator lists by merchant", async () => {
    const b = await buyer(3);
    const made = (await request(b.token, { amount: 5_000 })).body.data;
    const refused = await t.call<Invoice>("PUT", `/api/ops/invoices/${made.id}/refuse`, {
      token: ops.token,
      body: { reason: "Title does not match the account" },
    });
    expect(refused.body.data).toMatchObject({ state: "refused", refuseReason: "Title does not match the account" });
    expect((await t.call("PUT", `/api/ops/invoices/${made.id}/issue`, { token: ops.token })).status).toBe(409);
    expect(await vat6(b.token)).toMatchObject({ invoiceable: { amount: 30_000 } });

    const refund = await t.call<{ id: string }>("POST", "/api/card-user/refunds", {
      token: b.token,
      body: { orderId: b.order.id, quantity: 1, reason: "unused" },
    });
    await t.call("PUT", `/api/card-brander/supplyRefunds/${refund.body.data.id}`, {
      token: supplier.token,
      body: { approve: true },
    });
    expect(await vat6(b.token)).toMatchObject({ spent: { amount: 20_000 }, invoiceable: { amount: 20_000 } });

    const listed = await t.call<{ list: Invoice[]; total: number }>(
      "GET",
      `/api/ops/invoices?merchantId=${b.merchantId}&state=refused`,
      { token: ops.token },
    );
    expect(listed.body.data.list.map((i) => i.id)).toEqual([made.id]);
    expect(listed.body.data.list[0]?.merchantName).toBe("Buyer Ltd");
  });
});

describe("titles and e-signature settings", () => {
  it("saves titles (one default), checks them, and keeps each merchant's own", async () => {
    const m = await registerMerchant(t);
    const bad = await t.call("POST", "/api/card-user/invoice/titles", {
      token: m.token,
      body: { ...TITLE, taxId: "123" },
      lang: "en",
    });
    expect(bad.body.msg).toBe("Please enter a correct taxpayer ID (the 18-character unified social credit code)");
    const a = await t.call<{ id: string; specialReady: boolean; isDefault: boolean }>(
      "POST",
      "/api/card-user/invoice/titles",
      { token: m.token, body: { ...TITLE, isDefault: true } },
    );
    expect(a.body.data).toMatchObject({ specialReady: true, isDefault: true });
    const b = await t.call<{ id: string; specialReady: boolean }>("POST", "/api/card-user/invoice/titles", {
      token: m.token,
      body: { name: "个人消费", isDefault: true },
    });
    expect(b.body.data.specialReady).toBe(false);
    const list = await t.call<{ id: string; isDefault: boolean }[]>("GET", "/api/card-user/invoice/titles", {
      token: m.token,
    });
    expect(list.body.data.map((x) => [x.id, x.isDefault])).toEqual([
      [b.body.data.id, true],
      [a.body.data.id, false],
    ]);
    const other = await registerMerchant(t);
    expect((await t.call<unknown[]>("GET", "/api/card-user/invoice/titles", { token: other.token })).body.data).toEqual(
      [],
    );
    expect(
      (await t.call("DELETE", `/api/card-user/invoice/titles/${a.body.data.id}`, { token: other.token })).status,
    ).toBe(404);
    expect(
      (await t.call("DELETE", `/api/card-user/invoice/titles/${a.body.data.id}`, { token: m.token })).body.code,
    ).toBe(1);

    expect((await t.call("GET", "/api/card-user/invoice/settings", { token: m.token })).body.data).toMatchObject({
      eSign: false,
      updatedAt: null,
    });
    const badPhone = await t.call("PUT", "/api/card-user/invoice/settings", {
      token: m.token,
      body: { eSign: true, signerName: "王芳", signerPhone: "123", deliveryEmail: "" },
      lang: "en",
    });
    expect(badPhone.body.msg).toBe("Please enter a correct mobile number");
    const saved = await t.call("PUT", "/api/card-user/invoice/settings", {
      token: m.token,
      body: { eSign: true, signerName: "王芳", signerPhone: "13800001111", deliveryEmail: "ap@example.com" },
    });
    expect(saved.body.data).toMatchObject({ eSign: true, signerName: "王芳", deliveryEmail: "ap@example.com" });
    expect((await t.call("GET", "/api/card-user/invoice/settings", { token: other.token })).body.data).toMatchObject({
      eSign: false,
    });
  });

  it("lists the rates as data with their validity", async () => {
    const m = await registerMerchant(t);
    const rates = await t.call<{ invoiceType: string; rateBp: number; validFrom: string; validTo: string | null }[]>(
      "GET",
      "/api/card-user/invoice/rates",
      { token: m.token },
    );
    expect(rates.body.data).toContainEqual({
      invoiceType: "ordinary_1",
      category: "ordinary",
      rateBp: 100,
      validFrom: "2023-01-01",
      validTo: "2027-12-31",
    });
    expect(rates.body.data.map((r) => r.invoiceType)).toEqual(
      expect.arrayContaining(["ordinary_0", "ordinary_3", "vat_3", "vat_6", "vat_9", "vat_13"]),
    );
  });
});
