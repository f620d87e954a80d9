import type { ApplyRecord, Page, PayCode, PayOrder, PayRefund } from "@tessera/contracts";
import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { withTx } from "../../db/tx";
import { registerMerchant, STRONG_PASSWORD, uniqueEmail } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { registerOperator } from "../../../test/operators";
import { checkInvariants, post } from "../ledger";
import { applyFields, onboarded, uploadImage } from "../../../test/kit/collection-fixtures";
import { feeShare } from "./refunds.service";

const t = useTestApp();
let op: { token: string };
beforeAll(async () => {
  op = await registerOperator(t);
});

type M = Awaited<ReturnType<typeof registerMerchant>>;
let seq = 0;
const key = () => `rf-${Date.now()}-${++seq}`;
const db = () => t.ctx.database.db;
// Payer-page payments go through the sandbox payment adapter: test money, credited to the sandbox income.
const incomeOf = async (m: M) =>
  (
    await t.call<{ balances: { sandboxIncome: { amount: number } } }>("GET", "/api/card-user/userInfo", {
      token: m.token,
    })
  ).body.data.balances.sandboxIncome.amount;
const feesBalance = async () =>
  Number(
    (
      await db()
        .selectFrom("ledger_accounts")
        .select("balance")
        .where("merchant_id", "is", null)
        .where("kind", "=", "sandbox_fees")
        .where("currency", "=", "CNY")
        .executeTakeFirst()
    )?.balance ?? 0,
  );
const ledgerTxCount = async () =>
  Number((await sql<{ n: string }>`SELECT count(*) AS n FROM ledger_transactions`.execute(db())).rows[0]?.n ?? 0);
const codeOf = async (m: M, passportId = m.userId, body: Record<string, unknown> = { name: "Counter" }) => {
  const r = await t.call<PayCode>("POST", `/api/card-brander/subPassports/${passportId}/paymentCodes`, {
    token: m.token,
    body,
  });
  if (r.body.code !== 1) throw new Error(r.body.msg);
  return r.body.data;
};
const tokenOf = (c: PayCode) => c.url.split("/pay/")[1] ?? "";
const pay = async (c: PayCode, amount: number) => {
  const r = await t.call<PayOrder>("POST", `/api/pay-public/codes/${tokenOf(c)}/pay`, {
    body: { amount, requestKey: key() },
  });
  if (r.body.code !== 1) throw new Error(r.body.msg);
  return r.body.data;
};
const refund = (m: M, orderId: string, amount: number, requestKey = key(), lang?: "en" | "cn" | "tw") =>
  t.call<PayRefund>("POST", "/api/card-brander/paymentRefunds", {
    token: m.token,
    body: { orderId, amount, requestKey },
    ...(lang && { lang }),
  });
const orderOf = async (m: M, orderNo: string) =>
  (await t.call<Page<PayOrder>>("GET", `/api/card-brander/paymentOrders?orderNo=${orderNo}`, { token: m.token })).body
    .data.list[0];

describe("refunds", () => {
  it("the fee share: rounded per refund, the last refund gives back exactly what remains; the income pays the rest", () => {
    expect(feeShare(38, 10_000, 3_333)).toBe(13);
    expect(feeShare(38, 10_000, 6_666)).toBe(25);
    expect(feeShare(38, 10_000, 10_000)).toBe(38);
    expect(feeShare(0, 500, 200)).toBe(0);
    expect(feeShare(1, 3, 1)).toBe(0);
    expect(feeShare(1, 3, 2)).toBe(1);
  });

  it("partial refunds give back the fee's share, the full refund ends exactly at the amount and the whole fee; replays move nothing", async () => {
    const m = await registerMerchant(t, { orgName: "Fee Share Tea" });
    await onboarded(t, m, op);
    const code = await codeOf(m);
    const income0 = await incomeOf(m);
    const fees0 = await feesBalance();
    const paid = await pay(code, 10_000);
    expect(paid).toMatchObject({ fee: { amount: 38 }, net: { amount: 9_962 } });
    expect(await incomeOf(m)).toBe(income0 + 9_962);
    expect(await feesBalance()).toBe(fees0 + 38);

    // 33.33: fee share 0.13, the income pays 33.20.
    const k1 = key();
    const first = await refund(m, paid.id, 3_333, k1);
    expect(first.body.data).toMatchObject({ state: "SUCCESS", amount: { amount: 3_333 }, feeBack: { amount: 13 } });
    expect(await incomeOf(m)).toBe(income0 + 9_962 - 3_320);
    expect(await feesBalance()).toBe(fees0 + 38 - 13);

    // The same request key again (even with another amount): the first refund, nothing moved.
    const txs = await ledgerTxCount();
    const replay = await refund(m, paid.id, 5_000, k1);
    expect(replay.body.data.id).toBe(first.body.data.id);
    expect(replay.body.data.amount.amount).toBe(3_333);
    expect(await ledgerTxCount()).toBe(txs);
    expect(await incomeOf(m)).toBe(income0 + 9_962 - 3_320);
    expect((await orderOf(m, paid.orderNo))?.refunded.amount).toBe(3_333);

    // Cumulative 66.66: fee share 0.25 in all, 0.12 this time.
    expect((await refund(m, paid.id, 3_333)).body.data.state).toBe("SUCCESS");
    expect(await feesBalance()).toBe(fees0 + 38 - 25);
    // Above what remains: refused, nothing moved.
    const over = await refund(m, paid.id, 3_335, key(), "en");
    expect([over.status, over.body.msg]).toEqual([400, "The refund is more than what can still be refunded"]);
    // The rest, exactly: the fee comes back whole, the income is where it was before the payment.
    const last = await refund(m, paid.id, 3_334);
    expect(last.body.data).toMatchObject({ state: "SUCCESS", feeBack: { amount: 13 } });
    expect(await feesBalance()).toBe(fees0);
    expect(await incomeOf(m)).toBe(income0);
    const order = await orderOf(m, paid.orderNo);
    expect(order?.refunded.amount).toBe(10_000);
    const fees = await db()
      .selectFrom("pay_refunds")
      .select(["amount", "fee"])
      .where("order_id", "=", Number(paid.id))
      .orderBy("id")
      .execute();
    expect(fees.map((f) => [Number(f.amount), Number(f.fee)])).toEqual([
      [3_333, 13],
      [3_333, 12],
      [3_334, 13],
    ]);
    const nothingLeft = await refund(m, paid.id, 1, key(), "tw");
    expect(nothingLeft.status).toBe(400);
    const list = await t.call<Page<PayRefund>>("GET", `/api/card-brander/paymentRefunds?orderId=${paid.id}`, {
      token: m.token,
    });
    expect(list.body.data.total).toBe(3);
    expect(await checkInvariants(db())).toEqual([]);
  });

  it("a refund the merchant's income cannot cover fails: state FAILURE with the reason, nothing moved", async () => {
    const m = await registerMerchant(t, { orgName: "Short Income Tea" });
    await onboarded(t, m, op);
    const paid = await pay(await codeOf(m), 5_000);
    const income = await incomeOf(m);
    // The merchant's (test) income is spent elsewhere meanwhile: nothing is left for the refund.
    await withTx(db(), (tx) =>
      post(tx, {
        idempotencyKey: `drain-${m.merchantId}-${key()}`,
        kind: "refund",
        currency: "CNY",
        postings: [
          { account: { merchantId: Number(m.merchantId), kind: "sandbox_income" }, amount: -income },
          { account: { platform: "sandbox_clearing" }, amount: income },
        ],
      }),
    );
    const fees = await feesBalance();
    const txs = await ledgerTxCount();
    const failed = await refund(m, paid.id, 2_000, key(), "en");
    expect(failed.body.data).toMatchObject({
      state: "FAILURE",
      failReason: "The merchant's balance is not enough for the refund",
      amount: { amount: 2_000 },
      feeBack: { amount: 0 },
    });
    expect(await ledgerTxCount()).toBe(txs);
    expect(await feesBalance()).toBe(fees);
    expect(await incomeOf(m)).toBe(0);
    expect((await orderOf(m, paid.orderNo))?.refunded.amount).toBe(0);
    const cn = await t.call<Page<PayRefund>>("GET", "/api/card-brander/paymentRefunds?state=FAILURE", {
      token: m.token,
      lang: "cn",
    });
    expect(cn.body.data.list.map((r) => r.failReason)).toEqual(["商户余额不足，退款失败"]);
    expect(await checkInvariants(db())).toEqual([]);
  });
});

describe("collection codes, images and receipts: tenancy", () => {
  it("codes for a sub-account and for a store; another merchant can neither list, read, print nor retire them", async () => {
    const m = await registerMerchant(t, { orgName: "Code Owner Tea" });
    await onboarded(t, m, op);
    const other = await registerMerchant(t, { orgName: "Code Stranger Tea" });
    const email = uniqueEmail("cashier");
    const sub = await t.call<{ passportId: string }>("POST", "/api/card-brander/passport/sub/add", {
      token: m.token,
      body: { email, name: "Cashier Xu", password: STRONG_PASSWORD, menus: ["business/receiptB"] },
    });
    const subId = sub.body.data.passportId;
    const store = await t.call<{ id: string }>("POST", "/api/card-brander/branderStores", {
      token: m.token,
      body: {
        name: "Harbour store",
        provinceCode: "440000",
        cityCode: "440300",
        countyCode: "440305",
        address: "1 Science Park Road",
      },
    });

    const subCode = await codeOf(m, subId, { name: "Cashier desk" });
    expect(subCode).toMatchObject({ passportId: subId, storeId: null });
    const storeCode = await codeOf(m, m.userId, { name: "Store desk", storeId: store.body.data.id });
    expect(storeCode.storeId).toBe(store.body.data.id);
    const listed = await t.call<Page<PayCode>>("GET", `/api/card-brander/subPassports/${subId}/paymentCodes`, {
      token: m.token,
    });
    expect(listed.body.data.list.map((c) => c.name)).toEqual(["Cashier desk"]);
    // A store or an account of another merchant: refused.
    const foreignStore = await t.call("POST", `/api/card-brander/subPassports/${m.userId}/paymentCodes`, {
      token: m.token,
      body: { name: "x", storeId: "999999999" },
      lang: "en",
    });
    expect([foreignStore.status, foreignStore.body.msg]).toEqual([404, "The store does not exist or is not yours"]);
    const otherSub = await t.call("POST", `/api/card-brander/subPassports/${other.userId}/paymentCodes`, {
      token: m.token,
      body: { name: "x" },
    });
    expect(otherSub.status).toBe(404);

    // Another merchant: no listing, no PNG, no retiring.
    expect(
      (await t.call("GET", `/api/card-brander/subPassports/${subId}/paymentCodes`, { token: other.token })).status,
    ).toBe(404);
    const png = (token: string) =>
      t.app.inject({
        method: "GET",
        url: `/api/card-brander/subPassports/${subId}/paymentCodes/${subCode.id}/png`,
        headers: { "x-auth-token": token },
      });
    expect((await png(other.token)).statusCode).toBe(404);
    const mine = await png(m.token);
    expect([mine.statusCode, mine.headers["content-type"], mine.rawPayload.subarray(1, 4).toString()]).toEqual([
      200,
      "image/png",
      "PNG",
    ]);
    const del = await t.call("DELETE", `/api/card-brander/subPassports/${subId}/paymentCodes/${subCode.id}`, {
      token: other.token,
      lang: "en",
    });
    expect([del.status, del.body.msg]).toEqual([404, "The collection code does not exist or is retired"]);
    expect((await t.call("GET", `/api/pay-public/codes/${tokenOf(subCode)}`)).body.code).toBe(1);
    // The owner retires it: the payer's link stops working, the PNG and a second retire are 404.
    expect(
      (await t.call("DELETE", `/api/card-brander/subPassports/${subId}/paymentCodes/${subCode.id}`, { token: m.token }))
        .body.code,
    ).toBe(1);
    expect((await t.call("GET", `/api/pay-public/codes/${tokenOf(subCode)}`)).status).toBe(404);
    const payRetired = await t.call("POST", `/api/pay-public/codes/${tokenOf(subCode)}/pay`, {
      body: { amount: 100, requestKey: key() },
    });
    expect(payRetired.status).toBe(404);
    expect((await png(m.token)).statusCode).toBe(404);
    expect(
      (await t.call("DELETE", `/api/card-brander/subPassports/${subId}/paymentCodes/${subCode.id}`, { token: m.token }))
        .status,
    ).toBe(404);

    // Application images: the merchant's own only.
    const rec = await t.call<Page<ApplyRecord>>("GET", "/api/card-brander/paymentApplyRecords", { token: m.token });
    const r = rec.body.data.list[0];
    expect(r?.idCardFrontUrl).toMatch(/\/paymentApplyRecords\/images\//);
    for (const url of [r?.licenceUrl, r?.idCardFrontUrl, r?.idCardBackUrl]) {
      const res = (token: string) =>
        t.app.inject({ method: "GET", url: url ?? "", headers: { "x-auth-token": token } });
      expect((await res(m.token)).headers["content-type"]).toBe("image/png");
      expect((await res(other.token)).statusCode).toBe(404);
    }
    // Another merchant's image key cannot be put in an application.
    const stolen = await t.call("POST", "/api/card-brander/paymentApplyRecords", {
      token: other.token,
      body: { ...applyFields, idCardFront: r?.idCardFront ?? "" },
      lang: "en",
    });
    expect([stolen.status, stolen.body.msg]).toEqual([
      400,
      "Please upload the front (portrait side) of the legal person's ID card",
    ]);
  });

  it("submitting needs the ID card's both sides, with the message in three languages; the review shows them", async () => {
    const m = await registerMerchant(t, { orgName: "Id Card Tea" });
    const licenceImage = await uploadImage(t, m);
    await t.call("POST", "/api/card-brander/paymentApplyRecords", {
      token: m.token,
      body: { ...applyFields, licenceImage },
    });
    const msgs = [];
    for (const lang of ["en", "cn", "tw"] as const) {
      msgs.push(
        (await t.call("POST", "/api/card-brander/paymentApplyRecords/submit", { token: m.token, lang })).body.msg,
      );
    }
    expect(msgs).toEqual([
      "Please upload the front (portrait side) of the legal person's ID card",
      "请上传法人身份证人像面",
      "請上傳法人身分證人像面",
    ]);
    const idCardFront = await uploadImage(t, m, "front.png");
    await t.call("POST", "/api/card-brander/paymentApplyRecords", {
      token: m.token,
      body: { ...applyFields, licenceImage, idCardFront },
    });
    const back = await t.call("POST", "/api/card-brander/paymentApplyRecords/submit", { token: m.token, lang: "tw" });
    expect([back.status, back.body.msg]).toEqual([400, "請上傳法人身分證國徽面"]);
    const idCardBack = await uploadImage(t, m, "back.png");
    await t.call("POST", "/api/card-brander/paymentApplyRecords", {
      token: m.token,
      body: { ...applyFields, licenceImage, idCardFront, idCardBack },
    });
    expect(
      (await t.call<ApplyRecord>("POST", "/api/card-brander/paymentApplyRecords/submit", { token: m.token })).body.data
        .state,
    ).toBe("AUDITING");
    const items = await t.call<Page<{ documents: { kind: string; url: string }[] }>>(
      "GET",
      `/api/ops/queues/paymentApply/items?state=pending&merchantId=${m.merchantId}`,
      { token: op.token },
    );
    const docs = items.body.data.list[0]?.documents ?? [];
    expect(docs.map((d) => d.kind)).toEqual(["license", "id_front", "id_back"]);
    const img = await t.app.inject({ method: "GET", url: docs[1]?.url ?? "", headers: { "x-auth-token": op.token } });
    expect(img.headers["content-type"]).toBe("image/png");
  });

  it("a provider reads the payment orders (receipt) of a brand it serves, and is refused another's", async () => {
    const brand = await registerMerchant(t, { orgName: "Served Tea" });
    await onboarded(t, brand, op);
    const paid = await pay(await codeOf(brand), 2_000);
    const stranger = await registerMerchant(t, { orgName: "Unserved Tea" });
    const provider = await registerMerchant(t, { orgName: "Receipt Provider Co" });
    await t.call("POST", `/api/ops/merchants/${provider.merchantId}/providerRole`, {
      token: op.token,
      body: { grant: true },
    });
    await t.call("POST", "/api/card-servicer/brander/service", {
      token: brand.token,
      body: { providerId: provider.merchantId, kind: "brand" },
    });
    const pt = (
      await t.call<{ token: string }>("POST", "/api/card-user/login", {
        body: { email: provider.email, password: STRONG_PASSWORD },
      })
    ).body.data.token;
    const served = await t.call<Page<PayOrder>>(
      "GET",
      `/api/card-servicer/paymentOrders?branderId=${brand.merchantId}`,
      { token: pt },
    );
    expect(served.body.data.list.map((o) => [o.orderNo, o.amount.amount])).toEqual([[paid.orderNo, 2_000]]);
    const notServed = await t.call("GET", `/api/card-servicer/paymentOrders?branderId=${stranger.merchantId}`, {
      token: pt,
      lang: "en",
    });
    expect([notServed.status, notServed.body.msg]).toEqual([403, "You do not serve this brand"]);
    const noBrand = await t.call("GET", "/api/card-servicer/paymentOrders", { token: pt });
    expect(noBrand.status).toBe(400);
    // The brand itself is no provider.
    expect(
      (await t.call("GET", `/api/card-servicer/paymentOrders?branderId=${brand.merchantId}`, { token: stranger.token }))
        .status,
    ).toBe(403);
  });
});
