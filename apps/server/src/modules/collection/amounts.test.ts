import type { PayCode, PayCodeInfo, PayOrder } from "@tessera/contracts";
import { beforeAll, describe, expect, it } from "vitest";
import { registerMerchant } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { registerOperator } from "../../../test/operators";
import { onboarded } from "../../../test/kit/collection-fixtures";

/**
 * Bounded payer-page amounts (issue 37): the amount a code fixes, or a payer's amount within the
 * collection account's per-payment limit (¥5,000 by default); anything else is refused and changes nothing.
 */
const t = useTestApp();
let op: { token: string };
beforeAll(async () => {
  op = await registerOperator(t);
});

type M = Awaited<ReturnType<typeof registerMerchant>>;
let seq = 0;
const key = () => `amt-${Date.now()}-${++seq}`;
const tokenOf = (c: PayCode) => c.url.split("/pay/")[1] ?? "";
const newCode = async (m: M, body: Record<string, unknown>) =>
  t.call<PayCode>("POST", `/api/card-brander/subPassports/${m.userId}/paymentCodes`, {
    token: m.token,
    body,
    lang: "en",
  });
const pay = (c: PayCode, amount: number) =>
  t.call<PayOrder>("POST", `/api/pay-public/codes/${tokenOf(c)}/pay`, {
    body: { amount, requestKey: key() },
    lang: "en",
  });
const orderCount = async (m: M) =>
  (await t.call<{ total: number }>("GET", "/api/card-brander/paymentOrders", { token: m.token })).body.data.total;

describe("payer-page amounts", () => {
  it("a code with its own amount collects exactly that amount", async () => {
    const m = await registerMerchant(t, { orgName: "Fixed Price Tea" });
    await onboarded(t, m, op);
    const code = (await newCode(m, { name: "Cup of tea", amount: 1_800 })).body.data;
    expect(code.amount).toBe(1_800);
    const info = await t.call<PayCodeInfo>("GET", `/api/pay-public/codes/${tokenOf(code)}`);
    expect(info.body.data).toMatchObject({ codeName: "Cup of tea", amount: 1_800, limit: 500_000 });
    const wrong = await pay(code, 1_000_000);
    expect(wrong.status).toBe(400);
    expect(wrong.body.msg).toBe("This code collects ¥18.00; the amount cannot be changed");
    expect(await orderCount(m)).toBe(0);
    expect((await pay(code, 1_800)).body.data).toMatchObject({ state: "SUCCESS", amount: { amount: 1_800 } });
  });

  it("a payer's own amount stays within the account's per-payment limit", async () => {
    const m = await registerMerchant(t, { orgName: "Open Amount Tea" });
    await onboarded(t, m, op);
    const code = (await newCode(m, { name: "Counter" })).body.data;
    expect(code.amount).toBeNull();
    const over = await pay(code, 500_001);
    expect(over.status).toBe(400);
    expect(over.body.msg).toBe("A single payment cannot exceed ¥5,000.00");
    expect(await orderCount(m)).toBe(0);
    expect((await pay(code, 500_000)).body.data.state).toBe("SUCCESS");
    // Nor may a code fix an amount above the limit.
    const big = await newCode(m, { name: "Too big", amount: 600_000 });
    expect(big.status).toBe(400);
    expect(big.body.msg).toBe("A single payment cannot exceed ¥5,000.00");
  });
});
