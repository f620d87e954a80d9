import type { ApplyRecord, PayCode, PayOrder, PayRefund } from "@tessera/contracts";
import { afterAll, expect, it } from "vitest";
import { registerMerchant } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { registerOperator } from "../../../test/operators";
import { checkInvariants } from "../ledger";

/** On the PostgreSQL server only: 100 refunds of one payment at once. */
const t = useTestApp();
afterAll(async () => {
  expect(await checkInvariants(t.ctx.database.db)).toEqual([]);
});

it("100 parallel refunds of one payment: the refunded total never exceeds it", async () => {
  const m = await registerMerchant(t, { orgName: "Race Collector" });
  const op = await registerOperator(t);
  const boundary = "----race";
  const png = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
  const up = await t.app.inject({
    method: "POST",
    url: "/api/card-brander/paymentApplyRecords/images",
    headers: { "x-auth-token": m.token, "content-type": `multipart/form-data; boundary=${boundary}` },
    payload: Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="l.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      png,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
  });
  const licenceImage = up.json<{ data: { key: string } }>().data.key;
  await t.call("POST", "/api/card-brander/paymentApplyRecords", {
    token: m.token,
    body: {
      companyName: "Race Co",
      creditCode: "91440300MA5EXAMPLE",
      legalPerson: "Wang",
      legalIdNo: "44030019900101123X",
      contactName: "Wang",
      contactPhone: "13800138000",
      industryCode: "718",
      bankName: "ICBC",
      bankAccount: "6222000000000001",
      bankAccountName: "Race Co",
      licenceImage,
      idCardFront: licenceImage,
      idCardBack: licenceImage,
    },
  });
  const submitted = await t.call<ApplyRecord>("POST", "/api/card-brander/paymentApplyRecords/submit", {
    token: m.token,
  });
  await t.call("POST", `/api/ops/queues/paymentApply/items/${submitted.body.data.id}/approve`, { token: op.token });
  const confirmed = await t.call<ApplyRecord>("POST", "/api/card-brander/paymentApplyRecords/confirm", {
    token: m.token,
  });
  await t.call("POST", `/api/pay-public/sign/${confirmed.body.data.signUrl?.split("/paySign/")[1] ?? ""}`);
  t.clock.advance(5);
  await t.call("POST", "/api/ops/collection/advance", { token: op.token });
  const code = await t.call<PayCode>("POST", `/api/card-brander/subPassports/${m.userId}/paymentCodes`, {
    token: m.token,
    body: { name: "Race" },
  });
  const payToken = code.body.data.url.split("/pay/")[1] ?? "";
  const paid = await t.call<PayOrder>("POST", `/api/pay-public/codes/${payToken}/pay`, {
    body: { amount: 10_000, requestKey: `race-pay-${Date.now()}` },
  });
  expect(paid.body.data.state).toBe("SUCCESS");

  const results = await Promise.all(
    Array.from({ length: 100 }, (_, i) =>
      t.call<PayRefund>("POST", "/api/card-brander/paymentRefunds", {
        token: m.token,
        body: { orderId: paid.body.data.id, amount: 300, requestKey: `race-refund-${i}-${Date.now()}` },
      }),
    ),
  );
  expect(results.every((r) => r.status < 500)).toBe(true);
  const ok = results.filter((r) => r.body.code === 1 && r.body.data.state === "SUCCESS");
  // 10,000 less the fee is in the income; 300 at a time: 33 refunds fit the order (9,900), the 34th would exceed it.
  expect(ok.length).toBe(33);
  const order = await t.ctx.database.db
    .selectFrom("pay_orders")
    .select(["refunded", "amount", "fee", "fee_refunded"])
    .where("id", "=", Number(paid.body.data.id))
    .executeTakeFirstOrThrow();
  expect(Number(order.refunded)).toBe(9_900);
  expect(Number(order.refunded)).toBeLessThanOrEqual(Number(order.amount));
  // The fee given back (0.60 fee, retail) is the fee's share of what was refunded, however the refunds interleaved.
  const feeBack = await t.ctx.database.db
    .selectFrom("pay_refunds")
    .select((eb) => eb.fn.sum<string>("fee").as("n"))
    .where("order_id", "=", Number(paid.body.data.id))
    .where("state", "=", "SUCCESS")
    .executeTakeFirstOrThrow();
  expect([Number(order.fee), Number(order.fee_refunded), Number(feeBack.n)]).toEqual([60, 59, 59]);
});
