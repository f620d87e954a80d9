import type {
  Page,
  QrCode,
  Redemption,
  SettlementDoc,
  Store,
  StoreBatchReply,
  WriteAccountReply,
  WriteOffPreview,
} from "@tessera/contracts";
import ExcelJS from "exceljs";
import { beforeAll, describe, expect, it } from "vitest";
import { dock } from "../../../test/docking";
import { registerMerchant, STRONG_PASSWORD, uniqueEmail } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { fundSup } from "../../../test/money";
import { registerOperator } from "../../../test/operators";
import { importFile, newBrand, newGoods, newMerchant, type TestMerchant } from "../../../test/kit/catalog-fixtures";
import { checkInvariants } from "../ledger";
import { deflatedSheet, withSheet } from "../../../test/xlsx-bomb";
import { STORE_HEADERS } from "./sheets";
import { cardCsv } from "../../../test/kit/cards";

const t = useTestApp();
let brand: TestMerchant;
beforeAll(async () => {
  brand = await newMerchant(t, "Tea House Co");
});

const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
const SZ = { provinceCode: "440000", cityCode: "440300", countyCode: "440305" };
let seq = 0;
const key = () => `wo-${Date.now()}-${++seq}`;
const storeBody = (over: Record<string, unknown> = {}) => ({
  name: `Store ${++seq}`,
  ...SZ,
  address: "1 Science Park Road",
  openingHours: "09:00-21:00",
  contactPhone: "0755-12345678",
  ...over,
});
const addStore = async (m: TestMerchant, over: Record<string, unknown> = {}) => {
  const r = await t.call<Store>("POST", "/api/card-brander/branderStores", { token: m.token, body: storeBody(over) });
  if (r.body.code !== 1) throw new Error(r.body.msg);
  return r.body.data;
};
const raw = (method: "GET" | "POST", url: string, token: string, payload?: Buffer) =>
  t.app.inject({
    method,
    url,
    headers: { "x-auth-token": token, lang: "en", ...(payload && { "content-type": XLSX }) },
    ...(payload && { payload }),
  });
async function sheet(data: Buffer): Promise<unknown[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(data as unknown as ArrayBuffer);
  const out: unknown[][] = [];
  wb.worksheets[0]?.eachRow((row) => out.push((row.values as unknown[]).slice(1)));
  return out;
}
async function subAccount(owner: TestMerchant, menus: string[]) {
  const email = uniqueEmail("clerk");
  const added = await t.call<{ passportId: string }>("POST", "/api/card-brander/passport/sub/add", {
    token: owner.token,
    body: { email, name: "Clerk Li", password: STRONG_PASSWORD, menus },
  });
  if (added.body.code !== 1) throw new Error(added.body.msg);
  const login = await t.call<{ token: string }>("POST", "/api/card-user/login", {
    body: { email, password: STRONG_PASSWORD },
  });
  return { passportId: added.body.data.passportId, token: login.body.data.token };
}

describe("stores", () => {
  it("add, change, list, delete; bad input changes nothing; another brand sees and changes nothing", async () => {
    const s = await addStore(brand, { name: "Nanshan flagship" });
    expect(s).toMatchObject({ name: "Nanshan flagship", region: "广东省 深圳市 南山区", state: "open", clerks: 0 });
    const dup = await t.call("POST", "/api/card-brander/branderStores", {
      token: brand.token,
      body: storeBody({ name: "Nanshan flagship" }),
      lang: "en",
    });
    expect([dup.status, dup.body.msg]).toEqual([409, "A store with this name already exists"]);
    const badRegion = await t.call("POST", "/api/card-brander/branderStores", {
      token: brand.token,
      body: storeBody({ countyCode: "110101" }),
      lang: "en",
    });
    expect([badRegion.status, badRegion.body.msg]).toEqual([400, "Please choose a valid province, city and county"]);
    const noName = await t.call("POST", "/api/card-brander/branderStores", {
      token: brand.token,
      body: storeBody({ name: " " }),
      lang: "cn",
    });
    expect(noName.body.msg).toBe("请输入门店名称");
    const badPhone = await t.call("POST", "/api/card-brander/branderStores", {
      token: brand.token,
      body: storeBody({ contactPhone: "abc" }),
      lang: "tw",
    });
    expect(badPhone.body.msg).toBe("請輸入正確的聯絡電話");

    const changed = await t.call<Store>("PUT", `/api/card-brander/branderStores/${s.id}`, {
      token: brand.token,
      body: storeBody({ name: "Nanshan flagship", state: "closed", address: "2 Keyuan Road" }),
    });
    expect(changed.body.data).toMatchObject({ state: "closed", address: "2 Keyuan Road" });

    const other = await newMerchant(t, "Other Brand");
    const theirs = await t.call<Page<Store>>("GET", "/api/card-brander/branderStores", { token: other.token });
    expect(theirs.body.data.total).toBe(0);
    const put = await t.call("PUT", `/api/card-brander/branderStores/${s.id}`, {
      token: other.token,
      body: storeBody(),
      lang: "en",
    });
    expect([put.status, put.body.msg]).toEqual([404, "The store does not exist or is not yours"]);
    const del = await t.call("DELETE", "/api/card-brander/branderStores", {
      token: other.token,
      body: { storeIds: [s.id] },
    });
    expect(del.status).toBe(404);
    const mine = await t.call<Page<Store>>("GET", "/api/card-brander/branderStores?keyword=Nanshan", {
      token: brand.token,
    });
    expect(mine.body.data.list.map((x) => x.address)).toEqual(["2 Keyuan Road"]);

    const gone = await t.call<{ deleted: number }>("DELETE", "/api/card-brander/branderStores", {
      token: brand.token,
      body: { storeIds: [s.id] },
    });
    expect(gone.body.data.deleted).toBe(1);
    expect(
      (await t.call<Page<Store>>("GET", "/api/card-brander/branderStores?keyword=Nanshan", { token: brand.token })).body
        .data.total,
    ).toBe(0);
  });

  it("imports from the template: good rows added, bad rows in the reject report; exports the list", async () => {
    const m = await newMerchant(t, "Import Brand");
    await t.call("POST", "/api/card-brander/storeDistricts", { token: m.token, body: { name: "Coastal City" } });
    const template = await raw("GET", "/api/card-brander/branderStores/template", m.token);
    expect(template.headers["content-type"]).toBe(XLSX);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(template.rawPayload as unknown as ArrayBuffer);
    const ws = wb.worksheets[0];
    if (!ws) throw new Error("no sheet");
    expect((ws.getRow(1).values as unknown[]).slice(1, 3)).toEqual(["Store name", "Province"]);
    ws.addRow([
      "Futian one",
      "广东省",
      "深圳市",
      "福田区",
      "1 Shennan Road",
      "114.05",
      "22.54",
      "10:00-22:00",
      "Wang",
      "13800000000",
      "Coastal City",
      "营业",
    ]);
    ws.addRow(["Beijing one", "北京市", "北京市", "东城区", "1 Chang'an Avenue", "", "", "", "", "", "", "停业"]);
    ws.addRow(["", "广东省", "深圳市", "福田区", "no name"]);
    ws.addRow(["Nowhere", "广东省", "深圳市", "不存在区", "x"]);
    ws.addRow(["Futian one", "广东省", "深圳市", "福田区", "duplicate name"]);
    ws.addRow(["Bad district", "广东省", "深圳市", "福田区", "x", "", "", "", "", "", "No such district"]);
    const file = Buffer.from(await wb.xlsx.writeBuffer());
    const res = await raw("POST", `/api/card-brander/branderStores/import?fileName=stores.xlsx`, m.token, file);
    const body = res.json<{ code: number; data: StoreBatchReply }>();
    expect(body.data).toMatchObject({ imported: 2, rejected: 4 });
    expect(body.data.rejects.map((r) => [r.row, r.reason])).toEqual([
      [4, "The store name is empty"],
      [5, "The province, city or county is not valid"],
      [6, "The store name is a duplicate"],
      [7, "The business district does not exist"],
    ]);
    const report = await raw("GET", `/api/card-brander/branderStores/imports/${body.data.importId}/rejects`, m.token);
    expect((await sheet(report.rawPayload)).slice(1).map((r) => r[0])).toEqual([4, 5, 6, 7]);
    const other = await newMerchant(t);
    expect(
      (await raw("GET", `/api/card-brander/branderStores/imports/${body.data.importId}/rejects`, other.token))
        .statusCode,
    ).toBe(404);

    const list = await t.call<Page<Store>>("GET", "/api/card-brander/branderStores", { token: m.token });
    expect(list.body.data.list.map((s) => [s.name, s.region, s.state, s.districtName]).sort()).toEqual([
      ["Beijing one", "北京市 东城区", "closed", null],
      ["Futian one", "广东省 深圳市 福田区", "open", "Coastal City"],
    ]);
    const exported = await sheet((await raw("GET", "/api/card-brander/branderStores/export", m.token)).rawPayload);
    expect(exported.length).toBe(3);

    // A zip bomb in the template's clothes (200 MB of row XML in under 1 MB, lying about its size):
    // refused with a clear 400 in the user's language, nothing imported.
    const bombSheet = await deflatedSheet(200, STORE_HEADERS.en);
    const bomb = await withSheet({ name: "", data: bombSheet.data, size: 2 * 1024 * 1024 }, template.rawPayload);
    const refused = await raw("POST", `/api/card-brander/branderStores/import?fileName=stores.xlsx`, m.token, bomb);
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ msg: string }>().msg).toMatch(/^The file unpacks to more than 50 MB/);
    const honest = await withSheet({ name: "", ...bombSheet }, template.rawPayload);
    const cn = await t.app.inject({
      method: "POST",
      url: `/api/card-brander/branderStores/import?fileName=stores.xlsx`,
      headers: { "x-auth-token": m.token, lang: "cn", "content-type": XLSX },
      payload: honest,
    });
    expect(cn.statusCode).toBe(400);
    expect(cn.json<{ msg: string }>().msg).toMatch(/^文件解压后超过50MB/);
    expect(
      (await t.call<Page<Store>>("GET", "/api/card-brander/branderStores", { token: m.token })).body.data.total,
    ).toBe(2);

    const notXlsx = await raw(
      "POST",
      `/api/card-brander/branderStores/import?fileName=stores.xlsx`,
      m.token,
      Buffer.from("not a zip"),
    );
    expect(notXlsx.json<{ msg: string }>().msg).toBe("The file cannot be read; please use the template");
    const batch = await t.call<StoreBatchReply>("POST", "/api/card-brander/branderStores/batch", {
      token: m.token,
      body: { stores: [storeBody({ name: "Batch one" }), { name: "x" }] },
    });
    expect(batch.body.data).toMatchObject({ imported: 1, rejected: 1 });
  });
});

describe("districts, clerks and QR codes", () => {
  it("groups stores, binds only the brand's own sub-accounts, and makes real PNG codes", async () => {
    const m = await newMerchant(t, "Clerk Brand");
    const d = await t.call<{ id: string }>("POST", "/api/card-brander/storeDistricts", {
      token: m.token,
      body: { name: "Old Town" },
    });
    const s = await addStore(m, { districtId: d.body.data.id });
    expect(s.districtName).toBe("Old Town");
    const inUse = await t.call("DELETE", `/api/card-brander/storeDistricts/${d.body.data.id}`, {
      token: m.token,
      lang: "en",
    });
    expect(inUse.body.msg).toBe("The business district still has stores");

    const clerk = await subAccount(m, ["business/WriteOff"]);
    const bound = await t.call<{ passportId: string }[]>("POST", `/api/card-brander/branderStores/${s.id}/clerks`, {
      token: m.token,
      body: { passportId: clerk.passportId },
    });
    expect(bound.body.data.map((c) => c.passportId)).toEqual([clerk.passportId]);
    const other = await newMerchant(t, "Someone Else");
    const foreign = await subAccount(other, ["business/WriteOff"]);
    const refused = await t.call("POST", `/api/card-brander/branderStores/${s.id}/clerks`, {
      token: m.token,
      body: { passportId: foreign.passportId },
      lang: "en",
    });
    expect([refused.status, refused.body.msg]).toEqual([403, "Only your own sub-accounts can be bound as clerks"]);
    const me = await t.call<{ storeName: string }>("GET", "/api/card-brander/writeOff/me", { token: clerk.token });
    expect(me.body.data.storeName).toBe(s.name);

    const code = await t.call<QrCode>("POST", "/api/card-brander/qrCodes/bind", {
      token: m.token,
      body: { storeId: s.id },
    });
    const again = await t.call<QrCode>("POST", "/api/card-brander/qrCodes/bind", {
      token: m.token,
      body: { storeId: s.id },
    });
    expect(again.body.data.id).toBe(code.body.data.id);
    expect(code.body.data.url).toMatch(/\/qr\/[A-Za-z0-9_-]+$/);
    const png = await raw("GET", `/api/card-brander/qrCodes/${code.body.data.id}/png`, m.token);
    expect(png.headers["content-type"]).toBe("image/png");
    expect(png.rawPayload.subarray(1, 4).toString()).toBe("PNG");
    expect((await raw("GET", `/api/card-brander/qrCodes/${code.body.data.id}/png`, other.token)).statusCode).toBe(404);
    const token = code.body.data.url.split("/qr/")[1] ?? "";
    const landing = await t.call<{ kind: string; store: { name: string } }>("GET", `/api/store-public/qr/${token}`);
    expect(landing.body.data).toMatchObject({ kind: "shop", store: { name: s.name } });

    const mall = await t.call<QrCode>("POST", "/api/card-brander/mallCodes", {
      token: m.token,
      body: { name: "Counter card" },
    });
    expect(mall.body.data.kind).toBe("mall");
    const malls = await t.call<Page<QrCode>>("GET", "/api/card-brander/mallCodes", { token: m.token });
    expect(malls.body.data.list.map((c) => c.name)).toEqual(["Counter card"]);
    expect(
      (await t.call("DELETE", `/api/card-brander/mallCodes/${mall.body.data.id}`, { token: other.token })).status,
    ).toBe(404);
    expect(
      (await t.call("DELETE", `/api/card-brander/mallCodes/${mall.body.data.id}`, { token: m.token })).body.code,
    ).toBe(1);
  });
});

describe("write-off", () => {
  it("a clerk redeems a code bought through purchasing once; refusals say why; settlement next day credits the brand once", async () => {
    const supplier = await newMerchant(t, "Voucher Brand");
    const b = await newBrand(t, supplier, "Voucher");
    const goods = await newGoods(t, supplier, b.id, {
      name: "Coffee voucher",
      businessType: "card_voucher",
      faceValue: 3000,
      price: 2500,
    });
    const csv = cardCsv(["VCH0001,S1,", "VCH0002,S2,", "VCH0003,S3,"]);
    expect((await importFile(t, supplier.token, goods.id, "v.csv", csv)).body.code).toBe(1);
    const { buyer } = await dock(t, supplier);
    await fundSup(t, buyer, 100_000);
    const incomeOf = async () =>
      (
        await t.call<{ balances: { income: { amount: number } } }>("GET", "/api/card-user/userInfo", {
          token: supplier.token,
        })
      ).body.data.balances.income.amount;
    const before = await incomeOf();
    const order = await t.call<{ id: string }>("POST", "/api/card-user/orders", {
      token: buyer.token,
      body: { goodsId: String(goods.id), quantity: 2, orderNo: `PO${Date.now()}` },
    });
    expect(order.body.code).toBe(1);
    // A store voucher pays the brand when it is used: the sale leaves the brand's income as it was.
    expect(await incomeOf()).toBe(before);

    const store = await addStore(supplier, { name: "Voucher store" });
    const other = await addStore(supplier, { name: "Voucher store 2" });
    const clerk = await subAccount(supplier, ["business/WriteOff"]);
    await t.call("POST", `/api/card-brander/branderStores/${store.id}/clerks`, {
      token: supplier.token,
      body: { passportId: clerk.passportId },
    });
    const unbound = await subAccount(supplier, ["business/WriteOff"]);

    const codes = await t.call<{ list: { id: string }[] }>(
      "GET",
      `/api/card-user/purchasedCards?orderId=${order.body.data.id}`,
      { token: buyer.token },
    );
    const revealed = await t.call<{ cardNumber: string; cardSecret: string }[]>(
      "POST",
      "/api/card-user/purchasedCards/reveal",
      { token: buyer.token, body: { ids: codes.body.data.list.map((c) => c.id) } },
    );
    const [first, second] = revealed.body.data;
    if (!first || !second) throw new Error("no codes");

    const preview = await t.call<WriteOffPreview>("POST", "/api/card-brander/writeOff/check", {
      token: clerk.token,
      body: { kind: "coupon", code: first.cardNumber, secret: first.cardSecret },
    });
    expect(preview.body.data).toMatchObject({
      itemName: "Coffee voucher",
      value: { amount: 3000 },
      storeName: "Voucher store",
    });
    const wrongSecret = await t.call("POST", "/api/card-brander/writeOff/redeem", {
      token: clerk.token,
      body: { kind: "coupon", code: first.cardNumber, secret: "nope", requestKey: key() },
      lang: "en",
    });
    expect(wrongSecret.body.msg).toBe("The code or its secret is not correct");
    const unsold = await t.call("POST", "/api/card-brander/writeOff/redeem", {
      token: clerk.token,
      body: { kind: "coupon", code: "VCH0003", secret: "S3", requestKey: key() },
      lang: "en",
    });
    expect(unsold.body.msg).toBe("This code has not been sold and cannot be redeemed");
    const noStore = await t.call("POST", "/api/card-brander/writeOff/redeem", {
      token: unbound.token,
      body: { kind: "coupon", code: first.cardNumber, secret: first.cardSecret, requestKey: key() },
      lang: "en",
    });
    expect(noStore.body.msg).toBe("You are not bound to a store; please ask the brand's administrator");
    const elsewhere = await t.call("POST", "/api/card-brander/writeOff/redeem", {
      token: clerk.token,
      body: { kind: "coupon", code: first.cardNumber, secret: first.cardSecret, storeId: other.id, requestKey: key() },
      lang: "en",
    });
    expect(elsewhere.body.msg).toBe("This code cannot be redeemed at this store");
    const otherBrand = await newMerchant(t, "Rival");
    const rivalStore = await addStore(otherBrand);
    // Another brand's store cannot tell this brand's right code and secret from a wrong one (no oracle).
    const foreign = await t.call("POST", "/api/card-brander/writeOff/redeem", {
      token: otherBrand.token,
      body: {
        kind: "coupon",
        code: first.cardNumber,
        secret: first.cardSecret,
        storeId: rivalStore.id,
        requestKey: key(),
      },
      lang: "en",
    });
    expect(foreign.body.msg).toBe("The code or its secret is not correct");
    const foreignCheck = await t.call("POST", "/api/card-brander/writeOff/check", {
      token: otherBrand.token,
      body: { kind: "coupon", code: first.cardNumber, secret: first.cardSecret, storeId: rivalStore.id },
      lang: "en",
    });
    const foreignWrong = await t.call("POST", "/api/card-brander/writeOff/check", {
      token: otherBrand.token,
      body: { kind: "coupon", code: first.cardNumber, secret: "nope", storeId: rivalStore.id },
      lang: "en",
    });
    expect([foreignCheck.status, foreignCheck.body.msg]).toEqual([foreignWrong.status, foreignWrong.body.msg]);

    const k = key();
    const done = await t.call<Redemption>("POST", "/api/card-brander/writeOff/redeem", {
      token: clerk.token,
      body: { kind: "coupon", code: first.cardNumber, secret: first.cardSecret, requestKey: k },
    });
    expect(done.body.data).toMatchObject({
      kind: "coupon",
      storeName: "Voucher store",
      value: { amount: 3000 },
      settleAmount: { amount: 2500 },
      settled: false,
      clerkName: "Clerk Li",
    });
    const replay = await t.call<Redemption>("POST", "/api/card-brander/writeOff/redeem", {
      token: clerk.token,
      body: { kind: "coupon", code: first.cardNumber, secret: first.cardSecret, requestKey: k },
    });
    expect(replay.body.data.id).toBe(done.body.data.id);
    const twice = await t.call("POST", "/api/card-brander/writeOff/redeem", {
      token: clerk.token,
      body: { kind: "coupon", code: first.cardNumber, secret: first.cardSecret, requestKey: key() },
      lang: "cn",
    });
    expect([twice.status, twice.body.msg]).toEqual([409, "该券码已核销，不能重复核销"]);
    // The main account names the store.
    const owner = await t.call<Redemption>("POST", "/api/card-brander/writeOff/redeem", {
      token: supplier.token,
      body: {
        kind: "coupon",
        code: second.cardNumber,
        secret: second.cardSecret,
        storeId: other.id,
        requestKey: key(),
      },
    });
    expect(owner.body.data.storeName).toBe("Voucher store 2");

    // Redeemed codes cannot be returned to the supplier for a refund.
    const refund = await t.call<{ id: string }>("POST", "/api/card-user/refunds", {
      token: buyer.token,
      body: { orderId: order.body.data.id, quantity: 1, reason: "changed mind" },
    });
    const accept = await t.call("PUT", `/api/card-brander/supplyRefunds/${refund.body.data.id}`, {
      token: supplier.token,
      body: { approve: true },
      lang: "en",
    });
    expect([accept.status, accept.body.msg]).toEqual([409, "More than the codes left to refund"]);

    // The store with unsettled redemptions cannot be deleted.
    const busy = await t.call("DELETE", "/api/card-brander/branderStores", {
      token: supplier.token,
      body: { storeIds: [store.id] },
      lang: "en",
    });
    expect(busy.body.msg).toBe("The store has unsettled redemptions and cannot be deleted yet");

    const orders = await t.call<Page<Redemption>>("GET", "/api/card-user/writeOrders", { token: buyer.token });
    expect(orders.body.data.total).toBe(2);
    expect(
      (await t.call<Page<Redemption>>("GET", "/api/card-user/writeOrders", { token: otherBrand.token })).body.data
        .total,
    ).toBe(0);
    const clerkView = await t.call<Page<Redemption>>("GET", "/api/card-brander/hyAccounts", { token: clerk.token });
    expect(clerkView.body.data.list.map((r) => r.storeName)).toEqual(["Voucher store"]);
    const ownerView = await t.call<Page<Redemption>>("GET", "/api/card-brander/hyAccounts", { token: supplier.token });
    expect(ownerView.body.data.total).toBe(2);
    expect(
      (await t.call<Page<Redemption>>("GET", "/api/card-brander/hyAccounts", { token: otherBrand.token })).body.data
        .total,
    ).toBe(0);

    expect(await incomeOf()).toBe(before);
    const account = await t.call<WriteAccountReply>("GET", "/api/card-brander/accounts", { token: supplier.token });
    expect(account.body.data.total).toMatchObject({
      count: 2,
      value: { amount: 6000 },
      unsettled: { amount: 5000 },
      settled: { amount: 0 },
    });

    // Next day (T+1): the settlement makes one document per store and pays each document's vouchers into
    // the brand's income, once.
    t.clock.advance(86_400);
    // Sessions last 12 hours: the next day everyone logs in again.
    for (const m of [supplier, otherBrand]) {
      m.token = (
        await t.call<{ token: string }>("POST", "/api/card-user/login", {
          body: { email: m.email, password: STRONG_PASSWORD },
        })
      ).body.data.token;
    }
    const op = await registerOperator(t);
    const settle = async () =>
      (await t.call<{ documents: number }>("POST", "/api/ops/stores/settle", { token: op.token, body: {} })).body.data;
    expect((await t.call("POST", "/api/ops/stores/settle", { token: supplier.token, body: {} })).body.code).not.toBe(1);
    const run = await settle();
    // The run settles every brand's day (on PostgreSQL a worker's database also holds earlier files'
    // redemptions): this brand's two documents are checked below; a second run finds nothing left.
    expect(run.documents).toBeGreaterThanOrEqual(2);
    expect((await settle()).documents).toBe(0);
    expect(await incomeOf()).toBe(before + 5000);
    const docs = await t.call<Page<SettlementDoc>>("GET", "/api/card-brander/writeOff/docs", { token: supplier.token });
    expect(
      docs.body.data.list
        .map((d) => [d.storeName, d.count, d.amount.amount, d.paid.amount])
        .sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    ).toEqual([
      ["Voucher store", 1, 2500, 2500],
      ["Voucher store 2", 1, 2500, 2500],
    ]);
    const changes = await t.call<Page<{ type: string; increase: number }>>(
      "GET",
      "/api/card-brander/order/fund/search",
      { token: supplier.token },
    );
    expect(changes.body.data.list.filter((c) => c.type === "store_settlement").map((c) => c.increase)).toEqual([
      2500, 2500,
    ]);
    const doc = await raw(
      "GET",
      `/api/card-brander/writeOff/docs/${docs.body.data.list[0]?.id ?? 0}/xlsx`,
      supplier.token,
    );
    expect((await sheet(doc.rawPayload)).length).toBe(2);
    expect(
      (await raw("GET", `/api/card-brander/writeOff/docs/${docs.body.data.list[0]?.id ?? 0}/xlsx`, otherBrand.token))
        .statusCode,
    ).toBe(404);
    const pdf = await raw(
      "GET",
      `/api/card-brander/writeOff/docs/${docs.body.data.list[0]?.id ?? 0}/pdf`,
      supplier.token,
    );
    expect([pdf.headers["content-type"], pdf.rawPayload.subarray(0, 5).toString()]).toEqual([
      "application/pdf",
      "%PDF-",
    ]);
    const settledAccount = await t.call<WriteAccountReply>("GET", "/api/card-brander/accounts", {
      token: supplier.token,
    });
    expect(settledAccount.body.data.total).toMatchObject({ settled: { amount: 5000 }, unsettled: { amount: 0 } });
    expect(
      (
        await t.call("DELETE", "/api/card-brander/branderStores", {
          token: supplier.token,
          body: { storeIds: [store.id] },
        })
      ).body.code,
    ).toBe(1);
    expect(await checkInvariants(t.ctx.database.db)).toEqual([]);
  });

  it("a clerk takes an amount off a one-card card of the brand, once per request; a card of another brand is refused", async () => {
    const brand = await newMerchant(t, "Card Brand");
    const product = await t.call<{ id: string }>("POST", "/api/card-brander/onecard/products", {
      token: brand.token,
      body: {
        kind: "face_value",
        name: "Tea card 100",
        faceValue: 10_000,
        salePrice: 10_000,
        named: false,
        validity: { kind: "days", days: 1200 },
        rechargeAllowed: true,
        scope: "",
        terms: "",
      },
    });
    await t.call("POST", "/api/card-brander/onecard/batches", {
      token: brand.token,
      body: { productId: product.body.data.id, count: 2, requestKey: key() },
    });
    const { buyer } = await dock(t, brand);
    await fundSup(t, buyer, 100_000);
    const sale = await t.call<{ id: string }>("POST", "/api/card-user/onecard/purchase", {
      token: buyer.token,
      body: { productId: product.body.data.id, quantity: 1, requestKey: key() },
    });
    const cards = await t.call<{ list: { id: string }[] }>("GET", "/api/card-user/onecard/cards?pageSize=100", {
      token: buyer.token,
    });
    const res = await t.app.inject({
      method: "POST",
      url: "/api/card-user/onecard/extract",
      headers: { "x-auth-token": buyer.token },
      payload: { cardIds: cards.body.data.list.map((c) => c.id) },
    });
    if (res.statusCode !== 200) throw new Error(res.body);
    const rows = await sheet(res.rawPayload);
    const [no, password] = (rows[1] ?? []).map(String);
    if (!no || !password) throw new Error("no card");
    await t.call("POST", "/api/card-user/onecard/activate", {
      token: buyer.token,
      body: { saleId: sale.body.data.id, requestKey: key() },
    });

    const store = await addStore(brand, { name: "Card store" });
    const clerk = await subAccount(brand, ["business/WriteOff"]);
    await t.call("POST", `/api/card-brander/branderStores/${store.id}/clerks`, {
      token: brand.token,
      body: { passportId: clerk.passportId },
    });
    const preview = await t.call<WriteOffPreview>("POST", "/api/card-brander/writeOff/check", {
      token: clerk.token,
      body: { kind: "onecard", code: no, secret: password },
    });
    expect(preview.body.data).toMatchObject({ kind: "onecard", itemName: "Tea card 100", value: { amount: 10_000 } });
    const noAmount = await t.call("POST", "/api/card-brander/writeOff/redeem", {
      token: clerk.token,
      body: { kind: "onecard", code: no, secret: password, requestKey: key() },
      lang: "en",
    });
    expect(noAmount.body.msg).toBe("Please enter the amount to take off the card");
    const k = key();
    const first = await t.call<Redemption>("POST", "/api/card-brander/writeOff/redeem", {
      token: clerk.token,
      body: { kind: "onecard", code: no, secret: password, amount: 2_500, requestKey: k },
    });
    expect(first.body.data).toMatchObject({ kind: "onecard", value: { amount: 2_500 }, storeName: "Card store" });
    const again = await t.call<Redemption>("POST", "/api/card-brander/writeOff/redeem", {
      token: clerk.token,
      body: { kind: "onecard", code: no, secret: password, amount: 2_500, requestKey: k },
    });
    expect(again.body.data.id).toBe(first.body.data.id);
    const after = await t.call<WriteOffPreview>("POST", "/api/card-brander/writeOff/check", {
      token: clerk.token,
      body: { kind: "onecard", code: no, secret: password },
    });
    expect(after.body.data.value.amount).toBe(7_500);
    const tooMuch = await t.call("POST", "/api/card-brander/writeOff/redeem", {
      token: clerk.token,
      body: { kind: "onecard", code: no, secret: password, amount: 8_000, requestKey: key() },
    });
    expect(tooMuch.status).toBe(409);

    // Another brand's clerk: the card answers exactly like an unknown number whether its password is right or
    // wrong (no oracle on other brands' card passwords, issue 38), and its guesses lock nothing.
    const rival = await newMerchant(t, "Rival Card Brand");
    const rivalStore = await addStore(rival);
    const rivalClerk = await subAccount(rival, ["business/WriteOff"]);
    await t.call("POST", `/api/card-brander/branderStores/${rivalStore.id}/clerks`, {
      token: rival.token,
      body: { passportId: rivalClerk.passportId },
    });
    const db = t.ctx.database.db;
    const cardIds = cards.body.data.list.map((c) => Number(c.id));
    const marks = async () => ({
      failures: await db.selectFrom("onecard_card_failures").selectAll().where("card_id", "in", cardIds).execute(),
      cards: await db
        .selectFrom("onecard_cards")
        .select(["id", "wrong_attempts", "locked_until", "balance"])
        .where("id", "in", cardIds)
        .orderBy("id")
        .execute(),
    });
    const before = await marks();
    const answer = async (path: "check" | "redeem", code: string, secret: string) => {
      const r = await t.call("POST", `/api/card-brander/writeOff/${path}`, {
        token: rivalClerk.token,
        body: { kind: "onecard", code, secret, ...(path === "redeem" && { amount: 100, requestKey: key() }) },
        lang: "en",
      });
      return [r.status, r.body.code, r.body.msg];
    };
    const unknownCard = [400, expect.any(Number), "Wrong card number or password"];
    const wrongPassword = password === "12345678" ? "87654321" : "12345678";
    const unissued = `${no.slice(0, -4)}${String((Number(no.slice(-4)) + 5000) % 10000).padStart(4, "0")}`;
    for (const path of ["check", "redeem"] as const) {
      const right = await answer(path, no, password);
      expect(right).toEqual(unknownCard);
      expect(await answer(path, no, wrongPassword)).toEqual(right);
      expect(await answer(path, unissued, password)).toEqual(right);
    }
    // More wrong guesses than lock a card: nothing counted, nothing locked, nothing taken off.
    for (let i = 0; i < 6; i++) expect(await answer("check", no, wrongPassword)).toEqual(unknownCard);
    expect(await answer("check", no, password)).toEqual(unknownCard);
    expect(await marks()).toEqual(before);
    // The brand's own clerk still uses the card.
    expect(
      (
        await t.call<WriteOffPreview>("POST", "/api/card-brander/writeOff/check", {
          token: clerk.token,
          body: { kind: "onecard", code: no, secret: password },
        })
      ).body.data.value.amount,
    ).toBe(7_500);
    // The main account of the other brand, naming its store, is answered alike.
    const foreign = await t.call("POST", "/api/card-brander/writeOff/redeem", {
      token: rival.token,
      body: { kind: "onecard", code: no, secret: password, amount: 100, storeId: rivalStore.id, requestKey: key() },
      lang: "en",
    });
    expect([foreign.status, foreign.body.msg]).toEqual([400, "Wrong card number or password"]);
  });

  it("associated and visitor stores: only docked purchasers and serving providers see a brand's stores", async () => {
    const supplier = await newMerchant(t, "Shown Brand");
    await addStore(supplier, { name: "Shown store" });
    const { buyer } = await dock(t, supplier);
    const seen = await t.call<Page<Store>>("GET", "/api/card-user/associatedStores", { token: buyer.token });
    expect(seen.body.data.list.map((s) => s.name)).toEqual(["Shown store"]);
    const stranger = await registerMerchant(t);
    expect(
      (await t.call<Page<Store>>("GET", "/api/card-user/associatedStores", { token: stranger.token })).body.data.total,
    ).toBe(0);
    const visit = await t.call("GET", `/api/card-servicer/visitorStores?branderId=${supplier.merchantId}`, {
      token: stranger.token,
      lang: "en",
    });
    expect(visit.status).toBe(403);

    // A service provider the brand bound: its stores (VisitorStore), and with the brand token their shop codes (brandShopCode).
    const op = await registerOperator(t);
    const provider = await registerMerchant(t, { orgName: "Provider Co" });
    await t.call("POST", `/api/ops/merchants/${provider.merchantId}/providerRole`, {
      token: op.token,
      body: { grant: true },
    });
    const bound = await t.call<{ id: string }>("POST", "/api/card-servicer/brander/service", {
      token: supplier.token,
      body: { providerId: provider.merchantId, kind: "brand" },
    });
    const providerToken = (
      await t.call<{ token: string }>("POST", "/api/card-user/login", {
        body: { email: provider.email, password: STRONG_PASSWORD },
      })
    ).body.data.token;
    const served = await t.call<Page<Store>>(
      "GET",
      `/api/card-servicer/visitorStores?branderId=${supplier.merchantId}`,
      { token: providerToken },
    );
    expect(served.body.data.list.map((s) => s.name)).toEqual(["Shown store"]);
    const notServed = await t.call("GET", `/api/card-servicer/visitorStores?branderId=${stranger.merchantId}`, {
      token: providerToken,
      lang: "en",
    });
    expect([notServed.status, notServed.body.msg]).toEqual([403, "You do not serve this brand"]);
    const bt = (
      await t.call<{ token: string }>("POST", `/api/card-servicer/brander/${bound.body.data.id}/token`, {
        token: providerToken,
      })
    ).body.data.token;
    const stores = await t.call<Page<Store>>("GET", "/api/card-brander/branderStores", { token: bt });
    expect(stores.body.data.list.map((s) => s.name)).toEqual(["Shown store"]);
    const code = await t.call<QrCode>("POST", "/api/card-brander/qrCodes/bind", {
      token: bt,
      body: { storeId: stores.body.data.list[0]?.id },
    });
    expect(code.body.data.kind).toBe("shop");
    expect((await t.call("GET", "/api/card-brander/paymentApplyRecords", { token: bt })).body.code).toBe(1);
    expect((await t.call("GET", "/api/card-brander/hyAccounts", { token: bt })).status).toBe(403);
  });
});
