import type {
  Clerk,
  District,
  Page,
  PayCode,
  PayOrder,
  QrCode,
  QrLanding,
  Redemption,
  SettlementDoc,
  Store,
} from "@tessera/contracts";
import ExcelJS from "exceljs";
import { beforeAll, describe, expect, it } from "vitest";
import { dock } from "../../../test/docking";
import { registerMerchant, STRONG_PASSWORD, uniqueEmail } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { fundSup } from "../../../test/money";
import { registerOperator } from "../../../test/operators";
import { importFile, newBrand, newGoods, newMerchant, type TestMerchant } from "../../../test/kit/catalog-fixtures";
import { onboarded } from "../../../test/kit/collection-fixtures";
import { checkInvariants } from "../ledger";
import { releaseConfig } from "../../../test/kit/mall-fixtures";
import { storeOf } from "../../../test/kit/redeem-fixtures";
import { cardCsv } from "../../../test/kit/cards";

const t = useTestApp();
let op: { email: string; token: string };
beforeAll(async () => {
  op = await registerOperator(t);
});

const SZ = { provinceCode: "440000", cityCode: "440300", countyCode: "440305" };
let seq = 0;
const key = () => `tn-${Date.now()}-${++seq}`;
const db = () => t.ctx.database.db;
const raw = (url: string, token: string) =>
  t.app.inject({ method: "GET", url, headers: { "x-auth-token": token, lang: "en" } });
async function sheetRows(data: Buffer): Promise<number> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(data as unknown as ArrayBuffer);
  return wb.worksheets[0]?.actualRowCount ?? 0;
}
async function subAccount(owner: TestMerchant, menus: string[]) {
  const email = uniqueEmail("clerk");
  const added = await t.call<{ passportId: string }>("POST", "/api/card-brander/passport/sub/add", {
    token: owner.token,
    body: { email, name: "Clerk Zhao", password: STRONG_PASSWORD, menus },
  });
  if (added.body.code !== 1) throw new Error(added.body.msg);
  const login = async () =>
    (await t.call<{ token: string }>("POST", "/api/card-user/login", { body: { email, password: STRONG_PASSWORD } }))
      .body.data.token;
  return { passportId: added.body.data.passportId, token: await login(), login };
}
const relogin = async (m: { email: string; token: string }) => {
  m.token = (
    await t.call<{ token: string }>("POST", "/api/card-user/login", {
      body: { email: m.email, password: STRONG_PASSWORD },
    })
  ).body.data.token;
};
/** A provider the brand bound (kind brand), logged in. */
async function providerOf(brand: TestMerchant) {
  const provider = await registerMerchant(t, { orgName: "Store Provider Co" });
  await t.call("POST", `/api/ops/merchants/${provider.merchantId}/providerRole`, {
    token: op.token,
    body: { grant: true },
  });
  await t.call("POST", "/api/card-servicer/brander/service", {
    token: brand.token,
    body: { providerId: provider.merchantId, kind: "brand" },
  });
  await relogin(provider);
  return provider;
}

describe("store delete and collection codes", () => {
  it("is refused while the store's collection codes have a payment not final or a refund processing; deleting retires the codes", async () => {
    const m = await newMerchant(t, "Paying Stores Co");
    await onboarded(t, m, op);
    const a = await storeOf(t, m, "Collecting store A");
    const b = await storeOf(t, m, "Collecting store B");
    const code = async (name: string, storeId: string | null) =>
      (
        await t.call<PayCode>("POST", `/api/card-brander/subPassports/${m.userId}/paymentCodes`, {
          token: m.token,
          body: { name, storeId },
        })
      ).body.data;
    const codeA = await code("Desk A", a.id);
    const codeB = await code("Desk B", b.id);
    const loose = await code("Desk at large", null);
    const tokenOf = (c: PayCode) => c.url.split("/pay/")[1] ?? "";
    const paid = await t.call<PayOrder>("POST", `/api/pay-public/codes/${tokenOf(codeA)}/pay`, {
      body: { amount: 3_000, requestKey: key() },
    });
    expect(paid.body.data.state).toBe("SUCCESS");
    // The store's codes, with the store (BrandStore's QR dialog); another merchant's store is not readable.
    const listed = await t.call<Page<PayCode>>("GET", `/api/card-brander/paymentCodes?storeId=${a.id}`, {
      token: m.token,
    });
    expect(listed.body.data.list.map((c) => c.name)).toEqual(["Desk A"]);
    const other = await newMerchant(t, "Nosy Stores Co");
    expect((await t.call("GET", `/api/card-brander/paymentCodes?storeId=${a.id}`, { token: other.token })).status).toBe(
      404,
    );

    // A refund the aggregator is still processing (the local adapter answers at once; a real one later).
    const order = await db()
      .selectFrom("pay_orders")
      .select(["id", "currency"])
      .where("order_no", "=", paid.body.data.orderNo)
      .executeTakeFirstOrThrow();
    const processing = await db()
      .insertInto("pay_refunds")
      .values({
        merchant_id: Number(m.merchantId),
        order_id: order.id,
        request_key: key(),
        amount: 1_000,
        currency: order.currency,
        created_by: Number(m.userId),
        created_at: new Date(),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const msgs: string[] = [];
    for (const lang of ["en", "cn", "tw"] as const) {
      const r = await t.call("DELETE", "/api/card-brander/branderStores", {
        token: m.token,
        body: { storeIds: [a.id] },
        lang,
      });
      expect(r.status).toBe(409);
      msgs.push(r.body.msg);
    }
    expect(msgs).toEqual([
      "The store's collection codes have unfinished payments or refunds in processing, so it cannot be deleted yet",
      "门店的收款码有未完成的支付或处理中的退款，暂不能删除",
      "門店的收款碼有未完成的支付或處理中的退款，暫不能刪除",
    ]);
    // All or none: with B in the same request, neither goes; the codes stay live.
    expect(
      (await t.call("DELETE", "/api/card-brander/branderStores", { token: m.token, body: { storeIds: [b.id, a.id] } }))
        .status,
    ).toBe(409);
    expect(
      (await t.call<Page<Store>>("GET", "/api/card-brander/branderStores?keyword=Collecting", { token: m.token })).body
        .data.total,
    ).toBe(2);
    expect((await t.call("GET", `/api/pay-public/codes/${tokenOf(codeA)}`)).body.code).toBe(1);

    // A payment not final (NOTPAY) through B's code: B is refused too.
    await db()
      .insertInto("pay_orders")
      .values({
        merchant_id: Number(m.merchantId),
        code_id: Number(codeB.id),
        order_no: `PAYOPEN${key()}`,
        request_key: key(),
        amount: 500,
        fee: 2,
        currency: "CNY",
        created_at: new Date(),
      })
      .execute();
    expect(
      (await t.call("DELETE", "/api/card-brander/branderStores", { token: m.token, body: { storeIds: [b.id] } }))
        .status,
    ).toBe(409);

    // The refund finishes (failed at the aggregator): A can go, and its code is retired in the same transaction.
    await db()
      .updateTable("pay_refunds")
      .set({ state: "FAILURE", fail_reason: "collection.refundFunds", finished_at: new Date() })
      .where("id", "=", processing.id)
      .execute();
    const gone = await t.call<{ deleted: number }>("DELETE", "/api/card-brander/branderStores", {
      token: m.token,
      body: { storeIds: [a.id] },
    });
    expect(gone.body.data.deleted).toBe(1);
    expect((await t.call("GET", `/api/pay-public/codes/${tokenOf(codeA)}`)).status).toBe(404);
    expect(
      (
        await t.call("POST", `/api/pay-public/codes/${tokenOf(codeA)}/pay`, {
          body: { amount: 100, requestKey: key() },
        })
      ).status,
    ).toBe(404);
    const mine = await t.call<Page<PayCode>>("GET", `/api/card-brander/subPassports/${m.userId}/paymentCodes`, {
      token: m.token,
    });
    expect(mine.body.data.list.map((c) => c.name).sort()).toEqual(["Desk B", "Desk at large"]);
    expect((await t.call("GET", `/api/pay-public/codes/${tokenOf(loose)}`)).body.code).toBe(1);
    // The payment made through A's code stays in the orders; refunds of it still work.
    const refund = await t.call<{ state: string }>("POST", "/api/card-brander/paymentRefunds", {
      token: m.token,
      body: { orderId: paid.body.data.id, amount: 1_000, requestKey: key() },
    });
    expect(refund.body.data.state).toBe("SUCCESS");
    expect(await checkInvariants(db())).toEqual([]);
  });
});

describe("the mall code's landing", () => {
  it("names the brand's released mall storefront, or none; a shop code names no mall", async () => {
    const m = await newMerchant(t, "Mall Code Brand");
    const s = await storeOf(t, m, "Mall code store");
    const mall = await t.call<QrCode>("POST", "/api/card-brander/mallCodes", {
      token: m.token,
      body: { name: "Counter card", storeId: s.id },
    });
    const token = mall.body.data.url.split("/qr/")[1] ?? "";
    const before = await t.call<QrLanding>("GET", `/api/store-public/qr/${token}`);
    expect(before.body.data).toMatchObject({
      kind: "mall",
      branderName: "Mall Code Brand",
      mallAppId: null,
      store: { name: "Mall code store" },
    });
    // Another merchant's released mall is not this brand's.
    const other = await newMerchant(t, "Other Mall Brand");
    await releaseConfig(t, Number(other.merchantId), `wxother${Date.now().toString(16)}`, 2);
    expect((await t.call<QrLanding>("GET", `/api/store-public/qr/${token}`)).body.data.mallAppId).toBeNull();
    const appId = `wxtn${Date.now().toString(16)}`;
    await releaseConfig(t, Number(m.merchantId), appId, 2);
    const after = await t.call<QrLanding>("GET", `/api/store-public/qr/${token}`);
    expect(after.body.data.mallAppId).toBe(appId);
    // The storefront it names opens (the mall's own call, as /mall/<appId> makes it).
    const front = await t.call("GET", "/api/mall/shop/storefront", {
      headers: { v: "1", "x-app-id": appId, "x-seller-id": m.merchantId },
    });
    expect(front.body.code).toBe(1);
    const shop = await t.call<QrCode>("POST", "/api/card-brander/qrCodes/bind", {
      token: m.token,
      body: { storeId: s.id },
    });
    // An unknown or malformed token opens nothing.
    expect((await t.call("GET", "/api/store-public/qr/AAAAAAAAAAAAAAAA", { lang: "en" })).body.msg).toBe(
      "The QR code does not exist",
    );
    expect((await t.call("GET", "/api/store-public/qr/bad%20token")).status).toBe(400);
    const shopLanding = await t.call<QrLanding>(
      "GET",
      `/api/store-public/qr/${shop.body.data.url.split("/qr/")[1] ?? ""}`,
    );
    expect(shopLanding.body.data).toMatchObject({ kind: "shop", mallAppId: null });
  });
});

describe("tenancy of the store calls", () => {
  it("the region tree is public and the store forms' codes are in it", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/store-public/regions" });
    expect(res.headers["cache-control"]).toContain("public");
    const tree = res.json<{
      data: {
        value: string;
        label: string;
        children: { value: string; children: { value: string; label: string }[] }[];
      }[];
    }>().data;
    const gd = tree.find((p) => p.value === SZ.provinceCode);
    expect(gd?.label).toBe("广东省");
    expect(
      gd?.children.find((c) => c.value === SZ.cityCode)?.children.find((k) => k.value === SZ.countyCode)?.label,
    ).toBe("南山区");
  });

  it("QR codes, districts and clerks: another brand sees none and changes none", async () => {
    const m = await newMerchant(t, "Tenant Brand");
    const other = await newMerchant(t, "Tenant Rival");
    const d = await t.call<District>("POST", "/api/card-brander/storeDistricts", {
      token: m.token,
      body: { name: "Harbour district" },
    });
    const s = await storeOf(t, m, "Tenant store");
    const shop = await t.call<QrCode>("POST", "/api/card-brander/qrCodes/bind", {
      token: m.token,
      body: { storeId: s.id },
    });
    await t.call<QrCode>("POST", "/api/card-brander/mallCodes", { token: m.token, body: { name: "Tenant mall code" } });

    const codes = await t.call<Page<QrCode>>("GET", "/api/card-brander/qrCodes", { token: m.token });
    expect(codes.body.data.list.map((c) => c.kind).sort()).toEqual(["mall", "shop"]);
    expect(
      (
        await t.call<Page<QrCode>>("GET", `/api/card-brander/qrCodes?kind=shop&storeId=${s.id}`, { token: m.token })
      ).body.data.list.map((c) => c.id),
    ).toEqual([shop.body.data.id]);
    expect(
      (await t.call<Page<QrCode>>("GET", "/api/card-brander/qrCodes", { token: other.token })).body.data.total,
    ).toBe(0);
    expect(
      (await t.call<Page<QrCode>>("GET", `/api/card-brander/qrCodes?storeId=${s.id}`, { token: other.token })).body.data
        .total,
    ).toBe(0);
    expect(
      (await t.call("POST", "/api/card-brander/qrCodes/bind", { token: other.token, body: { storeId: s.id } })).status,
    ).toBe(404);

    expect(
      (await t.call<Page<District>>("GET", "/api/card-brander/storeDistricts", { token: other.token })).body.data.total,
    ).toBe(0);
    const put = await t.call("PUT", `/api/card-brander/storeDistricts/${d.body.data.id}`, {
      token: other.token,
      body: { name: "Taken over" },
      lang: "en",
    });
    expect(put.status).toBe(404);
    const del = await t.call("DELETE", `/api/card-brander/storeDistricts/${d.body.data.id}`, {
      token: other.token,
      lang: "cn",
    });
    expect(del.status).toBe(404);
    const mine = await t.call<Page<District>>("GET", "/api/card-brander/storeDistricts", { token: m.token });
    expect(mine.body.data.list.map((x) => x.name)).toEqual(["Harbour district"]);
    // A store of one brand cannot be put in another brand's district.
    const foreignDistrict = await t.call("POST", "/api/card-brander/branderStores", {
      token: other.token,
      body: { name: "Rival store", ...SZ, address: "x", districtId: d.body.data.id },
      lang: "en",
    });
    expect(foreignDistrict.status).toBe(400);

    const clerk = await subAccount(m, ["business/WriteOff"]);
    await t.call("POST", `/api/card-brander/branderStores/${s.id}/clerks`, {
      token: m.token,
      body: { passportId: clerk.passportId },
    });
    const clerks = await t.call<Clerk[]>("GET", `/api/card-brander/branderStores/${s.id}/clerks`, { token: m.token });
    expect(clerks.body.data.map((c) => [c.passportId, c.storeName])).toEqual([[clerk.passportId, "Tenant store"]]);
    expect((await t.call("GET", `/api/card-brander/branderStores/${s.id}/clerks`, { token: other.token })).status).toBe(
      404,
    );
    expect(
      (
        await t.call("DELETE", `/api/card-brander/branderStores/${s.id}/clerks/${clerk.passportId}`, {
          token: other.token,
        })
      ).status,
    ).toBe(404);
    expect(
      (await t.call<Clerk[]>("GET", `/api/card-brander/branderStores/${s.id}/clerks`, { token: m.token })).body.data,
    ).toHaveLength(1);
    const unbound = await t.call<Clerk[]>(
      "DELETE",
      `/api/card-brander/branderStores/${s.id}/clerks/${clerk.passportId}`,
      { token: m.token },
    );
    expect(unbound.body.data).toEqual([]);
    expect(
      (await t.call("DELETE", `/api/card-brander/branderStores/${s.id}/clerks/${clerk.passportId}`, { token: m.token }))
        .status,
    ).toBe(404);
    // Unbound, the clerk has no store to redeem at.
    expect((await t.call("GET", "/api/card-brander/writeOff/me", { token: clerk.token })).body.data).toBeNull();
  });

  it("vouchers expired or voided and a closed store are refused with the reason; exports and provider documents keep to the brand", async () => {
    const supplier = await newMerchant(t, "Expiring Voucher Co");
    const b = await newBrand(t, supplier, "Expiring");
    const goods = await newGoods(t, supplier, b.id, {
      name: "Tea voucher",
      businessType: "card_voucher",
      faceValue: 3000,
      price: 2500,
    });
    const tomorrow = new Date(t.clock.now().getTime() + 8 * 3600_000 + 86_400_000).toISOString().slice(0, 10);
    const csv = cardCsv([`EXP0001,E1,${tomorrow}`, `EXP0002,E2,${tomorrow}`, "EXP0003,E3,", "EXP0004,E4,"]);
    expect((await importFile(t, supplier.token, goods.id, "v.csv", csv)).body.code).toBe(1);
    const { buyer } = await dock(t, supplier);
    await fundSup(t, buyer, 100_000);
    const order = await t.call<{ id: string }>("POST", "/api/card-user/orders", {
      token: buyer.token,
      body: { goodsId: String(goods.id), quantity: 4, orderNo: `PO${Date.now()}` },
    });
    expect(order.body.code).toBe(1);
    const bought = await t.call<{ list: { id: string }[] }>(
      "GET",
      `/api/card-user/purchasedCards?orderId=${order.body.data.id}`,
      { token: buyer.token },
    );
    const revealed = await t.call<{ cardNumber: string; cardSecret: string }[]>(
      "POST",
      "/api/card-user/purchasedCards/reveal",
      { token: buyer.token, body: { ids: bought.body.data.list.map((c) => c.id) } },
    );
    const codes = new Map(revealed.body.data.map((c) => [c.cardNumber, c.cardSecret]));
    expect(codes.size).toBe(4);

    const store = await storeOf(t, supplier, "Expiring store");
    const clerk = await subAccount(supplier, ["business/WriteOff"]);
    await t.call("POST", `/api/card-brander/branderStores/${store.id}/clerks`, {
      token: supplier.token,
      body: { passportId: clerk.passportId },
    });
    const redeem = (code: string, lang: "en" | "cn" | "tw" = "en") =>
      t.call<Redemption>("POST", "/api/card-brander/writeOff/redeem", {
        token: clerk.token,
        body: { kind: "coupon", code, secret: codes.get(code) ?? "", requestKey: key() },
        lang,
      });

    // A closed store redeems nothing.
    const storeBody = { name: "Expiring store", ...SZ, address: "1 Science Park Road" };
    await t.call("PUT", `/api/card-brander/branderStores/${store.id}`, {
      token: supplier.token,
      body: { ...storeBody, state: "closed" },
    });
    const closed = await redeem("EXP0003");
    expect([closed.status, closed.body.msg]).toEqual([409, "The store is closed and cannot redeem"]);
    expect((await redeem("EXP0003", "tw")).body.msg).toBe("門店已停業，不能核銷");
    await t.call("PUT", `/api/card-brander/branderStores/${store.id}`, {
      token: supplier.token,
      body: { ...storeBody, state: "open" },
    });
    expect((await redeem("EXP0003")).body.data.storeName).toBe("Expiring store");

    // One code goes back to the supplier (a purchaser refund): it is void.
    const refund = await t.call<{ id: string }>("POST", "/api/card-user/refunds", {
      token: buyer.token,
      body: { orderId: order.body.data.id, quantity: 1, reason: "not needed" },
    });
    expect(
      (
        await t.call("PUT", `/api/card-brander/supplyRefunds/${refund.body.data.id}`, {
          token: supplier.token,
          body: { approve: true },
        })
      ).body.code,
    ).toBe(1);
    const voided = await db()
      .selectFrom("supply_cards")
      .select("number_mask")
      .where("order_id", "=", order.body.data.id)
      .where("state", "=", "void")
      .execute();
    expect(voided).toHaveLength(1);
    const voidNo = [...codes.keys()].find((n) => n.slice(-1) === voided[0]?.number_mask.slice(-1)) ?? "";
    const v = await redeem(voidNo);
    expect([v.status, v.body.msg]).toEqual([409, "This code has been voided"]);
    expect((await redeem(voidNo, "cn")).body.msg).toBe("该券码已作废");

    // Two days on, the codes that expired tomorrow are refused; the one without expiry is not.
    t.clock.advance(2 * 86_400);
    for (const m of [supplier, buyer, op]) await relogin(m);
    clerk.token = await clerk.login();
    const expiring = ["EXP0001", "EXP0002"].filter((n) => n !== voidNo);
    const exp = await redeem(expiring[0] ?? "");
    expect([exp.status, exp.body.msg]).toEqual([409, "This code has expired"]);
    expect((await redeem(expiring[0] ?? "", "cn")).body.msg).toBe("该券码已过期");
    if (voidNo !== "EXP0004") expect((await redeem("EXP0004")).body.code).toBe(1);

    // Exports: the brand's rows only.
    const other = await newMerchant(t, "Export Stranger");
    expect(
      await sheetRows((await raw("/api/card-brander/hyAccounts/export", supplier.token)).rawPayload),
    ).toBeGreaterThan(1);
    expect(await sheetRows((await raw("/api/card-brander/hyAccounts/export", other.token)).rawPayload)).toBe(1);

    // The day's settlement: one document; the provider serving the brand reads it (list, detail, xlsx, PDF), others cannot.
    const run = await t.call<{ documents: number }>("POST", "/api/ops/stores/settle", { token: op.token, body: {} });
    expect(run.body.data.documents).toBeGreaterThanOrEqual(1);
    const docs = await t.call<Page<SettlementDoc>>("GET", "/api/card-brander/writeOff/docs", { token: supplier.token });
    const doc = docs.body.data.list[0];
    if (!doc) throw new Error("no document");
    expect(await sheetRows((await raw("/api/card-brander/writeOff/docs/export", supplier.token)).rawPayload)).toBe(
      1 + docs.body.data.total,
    );
    expect(await sheetRows((await raw("/api/card-brander/writeOff/docs/export", other.token)).rawPayload)).toBe(1);

    const provider = await providerOf(supplier);
    const stranger = await providerOf(other);
    const fund = await t.call<Page<SettlementDoc>>(
      "GET",
      `/api/card-servicer/writeFund?branderId=${supplier.merchantId}`,
      { token: provider.token },
    );
    expect(fund.body.data.list.map((x) => x.id)).toEqual(docs.body.data.list.map((x) => x.id));
    const notServed = await t.call("GET", `/api/card-servicer/writeFund?branderId=${supplier.merchantId}`, {
      token: stranger.token,
      lang: "en",
    });
    expect([notServed.status, notServed.body.msg]).toEqual([403, "You do not serve this brand"]);
    const detail = await t.call<{ doc: SettlementDoc; lines: Redemption[] }>(
      "GET",
      `/api/card-servicer/writeFund/${doc.id}?branderId=${supplier.merchantId}`,
      { token: provider.token },
    );
    expect(detail.body.data.doc.id).toBe(doc.id);
    expect(detail.body.data.lines.length).toBe(doc.count);
    const xlsx = await raw(
      `/api/card-servicer/writeFund/${doc.id}/xlsx?branderId=${supplier.merchantId}`,
      provider.token,
    );
    expect(await sheetRows(xlsx.rawPayload)).toBe(1 + doc.count);
    const pdf = await raw(
      `/api/card-servicer/writeFund/${doc.id}/pdf?branderId=${supplier.merchantId}`,
      provider.token,
    );
    expect([pdf.headers["content-type"], pdf.rawPayload.subarray(0, 5).toString()]).toEqual([
      "application/pdf",
      "%PDF-",
    ]);
    for (const suffix of ["", "/xlsx", "/pdf"]) {
      // Not served: refused; served, but the document is another brand's (named as the served one): not found; no brand: refused.
      expect(
        (await raw(`/api/card-servicer/writeFund/${doc.id}${suffix}?branderId=${supplier.merchantId}`, stranger.token))
          .statusCode,
      ).toBe(403);
      expect(
        (await raw(`/api/card-servicer/writeFund/${doc.id}${suffix}?branderId=${other.merchantId}`, stranger.token))
          .statusCode,
      ).toBe(404);
      expect((await raw(`/api/card-servicer/writeFund/${doc.id}${suffix}`, provider.token)).statusCode).toBe(400);
    }
    expect(await checkInvariants(db())).toEqual([]);
  });
});
