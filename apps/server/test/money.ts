import { uniquePhone } from "./kit/accounts";
import { withTx } from "../src/db/tx";
import { post } from "../src/modules/ledger";
import { lastCode, registerMerchant, type TestApp } from "./harness";

export type Merchant = Awaited<ReturnType<typeof registerMerchant>>;

/** A merchant whose user has bound a phone and (by default) authorised outgoing transfers with it. */
export async function authorisedSender(
  t: TestApp,
  options: { authorise?: boolean } = {},
): Promise<Merchant & { phone: string }> {
  const m = await registerMerchant(t);
  const phone = uniquePhone("13");
  await t.call("POST", "/api/card-user/sendSms", { token: m.token, body: { phone, scene: "bindPhone" } });
  const bound = await t.call("PUT", "/api/card-user/userPhone", {
    token: m.token,
    body: { phone, smsCode: await lastCode(t, phone) },
  });
  if (bound.body.code !== 1) throw new Error(`bind phone failed: ${bound.body.msg}`);
  if (options.authorise !== false) {
    await t.call("PUT", "/api/card-brander/applyTransitAuth", { token: m.token });
    const ok = await t.call("PUT", "/api/card-brander/confirmTransitAuth", {
      token: m.token,
      body: { smsCode: await lastCode(t, phone) },
    });
    if (ok.body.code !== 1) throw new Error(`transit authorisation failed: ${ok.body.msg}`);
  }
  return { ...m, phone };
}

/** Sales income for a supplier, posted to the ledger directly (a test about what income does need not sell first). */
export async function income(t: TestApp, m: Merchant, amount: number): Promise<void> {
  await withTx(t.ctx.database.db, (tx) =>
    post(tx, {
      idempotencyKey: `income-${m.merchantId}-${Date.now()}-${Math.random()}`,
      kind: "purchase",
      currency: "CNY",
      postings: [
        { account: { platform: "bank_clearing" }, amount: -amount },
        { account: { merchantId: Number(m.merchantId), kind: "income" }, amount },
      ],
    }),
  );
}

/** Money in a purchaser's SUP account (what purchases are paid from), posted to the ledger directly. */
export async function fundSup(
  t: TestApp,
  m: { merchantId: string },
  amount: number,
  currency: "CNY" | "USD" | "HKD" = "CNY",
): Promise<void> {
  await withTx(t.ctx.database.db, (tx) =>
    post(tx, {
      idempotencyKey: `sup-${m.merchantId}-${Date.now()}-${Math.random()}`,
      kind: "manual_credit",
      currency,
      postings: [
        { account: { platform: "bank_clearing" }, amount: -amount },
        { account: { merchantId: Number(m.merchantId), kind: "sup" }, amount },
      ],
    }),
  );
}

/**
 * A merchant that joined `days` ago: automatic payouts of merchants younger than PAYOUT_REVIEW_DAYS wait
 * for an operator, so tests of the unreviewed T+1 payout use an established merchant.
 */
export async function established(t: TestApp, m: { merchantId: string }, days = 60): Promise<void> {
  await t.ctx.database.db
    .updateTable("merchants")
    .set({ created_at: new Date(Date.now() - days * 86_400_000) })
    .where("id", "=", Number(m.merchantId))
    .execute();
}
