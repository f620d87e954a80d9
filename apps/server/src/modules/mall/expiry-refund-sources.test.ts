import { expect, it } from "vitest";
import { registerMerchant } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { fundSup, income } from "../../../test/money";
import { withTx } from "../../db/tx";
import { RetryLater } from "../purchasing";
import { expiryRefundSources } from "./expiry-refund-sources";

const t = useTestApp();

/**
 * A mall customer's refund for codes that expired unused comes out of the merchant's income; a merchant that
 * has withdrawn it since the sale pays the rest from the account the codes' purchase price was just refunded
 * to, and when neither can the order waits for a later run rather than failing the whole job.
 */
it("an expiry refund takes the merchant's income first, then the refunded-to account, else waits", async () => {
  const m = await registerMerchant(t);
  const id = Number(m.merchantId);
  const order = { merchant_id: id, currency: "CNY", sandbox: false, order_no: "MO-EXPIRY-1" };
  const sources = (amount: number, refundedTo = { merchantId: id, kind: "sup" as const }, sandbox = false) =>
    withTx(t.ctx.database.db, (tx) => expiryRefundSources(tx, { ...order, sandbox }, amount, refundedTo));

  await income(t, m, 500);
  await fundSup(t, m, 300);
  expect(await sources(400)).toEqual([{ account: { merchantId: id, kind: "income" }, amount: -400 }]);
  expect(await sources(700)).toEqual([
    { account: { merchantId: id, kind: "income" }, amount: -500 },
    { account: { merchantId: id, kind: "sup" }, amount: -200 },
  ]);
  // Income and the refunded-to account together hold 800.
  await expect(sources(801)).rejects.toBeInstanceOf(RetryLater);
  // Another merchant's account never pays it, and test money never borrows real money.
  await expect(sources(700, { merchantId: id + 1_000_000, kind: "sup" })).rejects.toBeInstanceOf(RetryLater);
  await expect(sources(1, { merchantId: id, kind: "sup" }, true)).rejects.toBeInstanceOf(RetryLater);
});
