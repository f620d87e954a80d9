import type { ApplyRecord, Page, PayCode, PayOrder, QueueItem, PayRefund } from "@tessera/contracts";
import { describe, expect, it } from "vitest";
import { registerMerchant } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { registerOperator } from "../../../test/operators";
import { checkInvariants } from "../ledger";
import { applyFields, uploadImage } from "../../../test/kit/collection-fixtures";

const t = useTestApp();

type M = Awaited<ReturnType<typeof registerMerchant>>;
let seq = 0;
const key = () => `pay-${Date.now()}-${++seq}`;
const applyBody = (licenceImage: string, idCardFront = licenceImage, idCardBack = licenceImage) => ({
  ...applyFields,
  licenceImage,
  idCardFront,
  idCardBack,
});
const upload = (m: M) => uploadImage(t, m);
// Payer-page payments go through the sandbox payment adapter: test money, credited to the sandbox income.
const incomeOf = async (m: M) =>
  (
    await t.call<{ balances: { sandboxIncome: { amount: number } } }>("GET", "/api/card-user/userInfo", {
      token: m.token,
    })
  ).body.data.balances.sandboxIncome.amount;

/** A merchant through onboarding: applied, rejected once, fixed, approved, confirmed, signed, finished. */
async function onboard(m: M, op: { token: string }) {
  const licence = await upload(m);
  expect(licence).toMatch(/\.png$/);
  const missing = await t.call("POST", "/api/card-brander/paymentApplyRecords", {
    token: m.token,
    body: { ...applyBody(licence), bankAccount: "" },
  });
  expect(missing.body.code).toBe(1);
  const incomplete = await t.call("POST", "/api/card-brander/paymentApplyRecords/submit", {
    token: m.token,
    lang: "en",
  });
  expect([incomplete.status, incomplete.body.msg]).toEqual([400, "Please enter a valid settlement bank account"]);
  await t.call("POST", "/api/card-brander/paymentApplyRecords", { token: m.token, body: applyBody(licence) });
  const submitted = await t.call<ApplyRecord>("POST", "/api/card-brander/paymentApplyRecords/submit", {
    token: m.token,
  });
  expect(submitted.body.data).toMatchObject({ state: "AUDITING", bankAccount: "6214********0001", feeBps: 38 });
  const items = await t.call<Page<QueueItem>>(
    "GET",
    `/api/ops/queues/paymentApply/items?state=pending&merchantId=${m.merchantId}`,
    { token: op.token },
  );
  const item = items.body.data.list[0];
  expect(item?.documents.map((d) => d.kind)).toEqual(["license", "id_front", "id_back"]);
  await t.call("POST", `/api/ops/queues/paymentApply/items/${item?.id}/reject`, {
    token: op.token,
    body: { reason: "Licence is blurred" },
  });
  const rejected = await t.call<Page<ApplyRecord>>("GET", "/api/card-brander/paymentApplyRecords", { token: m.token });
  expect(rejected.body.data.list[0]).toMatchObject({ state: "REJECTED", rejectReason: "Licence is blurred" });
  await t.call("POST", "/api/card-brander/paymentApplyRecords", { token: m.token, body: applyBody(licence) });
  await t.call("POST", "/api/card-brander/paymentApplyRecords/submit", { token: m.token });
  await t.call("POST", `/api/ops/queues/paymentApply/items/${item?.id}/approve`, { token: op.token });
  const confirmed = await t.call<ApplyRecord>("POST", "/api/card-brander/paymentApplyRecords/confirm", {
    token: m.token,
  });
  expect(confirmed.body.data.state).toBe("TO_BE_SIGNED");
  const token = confirmed.body.data.signUrl?.split("/paySign/")[1] ?? "";
  const signed = await t.call<ApplyRecord>("POST", `/api/pay-public/sign/${token}`);
  expect(signed.body.data.state).toBe("SIGNING");
  t.clock.advance(5);
  await t.call("POST", "/api/ops/collection/advance", { token: op.token });
  const done = await t.call<Page<ApplyRecord>>("GET", "/api/card-brander/paymentApplyRecords", { token: m.token });
  expect(done.body.data.list[0]?.state).toBe("FINISHED");
}

describe("collection", () => {
  it("onboarding with a rejection, a collection code, a payment less the fee, partial refunds never above the payment", async () => {
    const m = await registerMerchant(t, { orgName: "Harbour Tea" });
    const op = await registerOperator(t);
    const industries = await t.call<{ code: string; name: string }[]>("GET", "/api/card-brander/wechat/industries", {
      token: m.token,
      lang: "en",
    });
    expect(industries.body.data.map((i) => i.name)).toContain("Catering");
    const early = await t.call("POST", `/api/card-brander/subPassports/${m.userId}/paymentCodes`, {
      token: m.token,
      body: { name: "Counter" },
      lang: "en",
    });
    expect(early.body.msg).toBe("Please finish the aggregated onboarding first");
    await onboard(m, op);

    const code = await t.call<PayCode>("POST", `/api/card-brander/subPassports/${m.userId}/paymentCodes`, {
      token: m.token,
      body: { name: "Counter" },
    });
    expect(code.body.data.url).toMatch(/\/pay\/[A-Za-z0-9_-]+$/);
    const other = await registerMerchant(t);
    expect(
      (await t.call("GET", `/api/card-brander/subPassports/${m.userId}/paymentCodes`, { token: other.token })).status,
    ).toBe(404);
    const payToken = code.body.data.url.split("/pay/")[1] ?? "";
    const info = await t.call<{ merchantName: string }>("GET", `/api/pay-public/codes/${payToken}`);
    expect(info.body.data.merchantName).toBe("Harbour Tea");

    const before = await incomeOf(m);
    const k = key();
    const paid = await t.call<PayOrder>("POST", `/api/pay-public/codes/${payToken}/pay`, {
      body: { amount: 10_000, requestKey: k },
    });
    expect(paid.body.data).toMatchObject({
      state: "SUCCESS",
      amount: { amount: 10_000 },
      fee: { amount: 38 },
      net: { amount: 9_962 },
    });
    const again = await t.call<PayOrder>("POST", `/api/pay-public/codes/${payToken}/pay`, {
      body: { amount: 10_000, requestKey: k },
    });
    expect(again.body.data.id).toBe(paid.body.data.id);
    expect(await incomeOf(m)).toBe(before + 9_962);
    const orders = await t.call<Page<PayOrder>>("GET", "/api/card-brander/paymentOrders", { token: m.token });
    expect(orders.body.data.total).toBe(1);
    expect(
      (await t.call<Page<PayOrder>>("GET", "/api/card-brander/paymentOrders", { token: other.token })).body.data.total,
    ).toBe(0);

    const orderId = paid.body.data.id;
    const part = await t.call<PayRefund>("POST", "/api/card-brander/paymentRefunds", {
      token: m.token,
      body: { orderId, amount: 3_000, requestKey: key() },
    });
    expect(part.body.data).toMatchObject({ state: "SUCCESS", amount: { amount: 3_000 } });
    const tooMuch = await t.call("POST", "/api/card-brander/paymentRefunds", {
      token: m.token,
      body: { orderId, amount: 7_001, requestKey: key() },
      lang: "en",
    });
    expect([tooMuch.status, tooMuch.body.msg]).toEqual([400, "The refund is more than what can still be refunded"]);
    const foreign = await t.call("POST", "/api/card-brander/paymentRefunds", {
      token: other.token,
      body: { orderId, amount: 1, requestKey: key() },
    });
    expect(foreign.status).toBe(404);
    // The refund of 30.00 gives back its share of the fee (0.11 of 0.38): the income pays 29.89.
    expect(await incomeOf(m)).toBe(before + 9_962 - 2_989);
    const refunds = await t.call<Page<PayRefund>>("GET", "/api/card-brander/paymentRefunds", { token: m.token });
    expect(refunds.body.data.list.map((r) => r.amount.amount)).toEqual([3_000]);
    expect(await checkInvariants(t.ctx.database.db)).toEqual([]);
  });
});
