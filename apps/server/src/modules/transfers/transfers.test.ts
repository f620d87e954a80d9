import { describe, expect, it } from "vitest";
import { lastCode, registerMerchant } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { withTx } from "../../db/tx";
import { checkInvariants, post } from "../ledger";
import { authorisedSender, income, type Merchant } from "../../../test/money";

const t = useTestApp();

interface T {
  id: string;
  state: string;
  direction: string;
  amount: { amount: number };
  remark: string;
  refuseReason: string | null;
}
let seq = 0;
const key = () => `tr-${Date.now()}-${++seq}`;
const incomeOf = async (m: Merchant) =>
  (await t.call<{ balances: { income: { amount: number } } }>("GET", "/api/card-user/userInfo", { token: m.token }))
    .body.data.balances.income.amount;

describe("transit authorisation", () => {
  it("needs a bound phone, sends the code only to it, and a wrong code changes nothing", async () => {
    const m = await registerMerchant(t);
    const noPhone = await t.call("PUT", "/api/card-brander/applyTransitAuth", { token: m.token, lang: "en" });
    expect(noPhone.body.msg).toBe("Please bind a mobile number first");
    const other = `139${String(Date.now()).slice(-8)}`;
    const wrongPhone = await t.call("POST", "/api/card-user/sendSms", {
      token: m.token,
      body: { phone: other, scene: "transitAuth" },
      lang: "en",
    });
    expect(wrongPhone.body.msg).toBe("The code can only be sent to your own bound mobile number");

    const sender = await authorisedSender(t, { authorise: false });
    const applied = await t.call<{ phone: string }>("PUT", "/api/card-brander/applyTransitAuth", {
      token: sender.token,
    });
    expect(applied.body.data.phone).toMatch(/^\d{3}\*{4}\d{4}$/);
    const wrong = await t.call("PUT", "/api/card-brander/confirmTransitAuth", {
      token: sender.token,
      body: { smsCode: "000000" },
    });
    expect(wrong.body.code).not.toBe(1);
    const check = await t.call<{ authorised: boolean }>(
      "GET",
      `/api/card-brander/transfer/check?toMerchantId=${m.merchantId}`,
      { token: sender.token },
    );
    expect(check.body.data.authorised).toBe(false);
    const ok = await t.call("PUT", "/api/card-brander/confirmTransitAuth", {
      token: sender.token,
      body: { smsCode: await lastCode(t, sender.phone) },
    });
    expect(ok.body.code).toBe(1);
    const after = await t.call<{ authorised: boolean; merchantName: string }>(
      "GET",
      `/api/card-brander/transfer/check?toMerchantId=${m.merchantId}`,
      { token: sender.token },
    );
    expect(after.body.data).toMatchObject({ authorised: true, merchantName: "Acme Trading Ltd" });
  });
});

describe("transfers", () => {
  it("check refuses self, unknown and other-currency recipients; creating needs authorisation", async () => {
    const sender = await authorisedSender(t, { authorise: false });
    const check = (id: string) =>
      t.call("GET", `/api/card-brander/transfer/check?toMerchantId=${id}`, { token: sender.token, lang: "en" });
    expect((await check(sender.merchantId)).body.msg).toBe("You cannot transfer to yourself");
    expect((await check("999999999")).body.msg).toBe("The receiving merchant does not exist");
    const usd = await registerMerchant(t, { version: "international", currency: "USD" });
    expect((await check(usd.merchantId)).body.msg).toBe("The receiving merchant settles in another currency");
    const to = await registerMerchant(t);
    const create = await t.call("POST", "/api/card-brander/transfers", {
      token: sender.token,
      body: { toMerchantId: to.merchantId, amount: 100, requestKey: key() },
      lang: "en",
    });
    expect(create.body.msg).toBe("Please authorise transfers first");
  });

  it("created, updated, accepted: the money moves once, on acceptance", async () => {
    const sender = await authorisedSender(t);
    const to = await registerMerchant(t);
    await income(t, sender, 10_000);
    const body = { toMerchantId: to.merchantId, amount: 4_000, remark: "November rebate", requestKey: key() };
    const created = await t.call<T>("POST", "/api/card-brander/transfers", { token: sender.token, body });
    expect(created.body.data).toMatchObject({ state: "created", direction: "out" });
    expect(await incomeOf(sender)).toBe(10_000);
    const replay = await t.call<T>("POST", "/api/card-brander/transfers", { token: sender.token, body });
    expect(replay.body.data.id).toBe(created.body.data.id);

    const id = created.body.data.id;
    expect(
      (await t.call("PUT", `/api/card-brander/transfers/${id}`, { token: to.token, body: { amount: 1 } })).status,
    ).toBe(404);
    const updated = await t.call<T>("PUT", `/api/card-brander/transfers/${id}`, {
      token: sender.token,
      body: { amount: 4_500 },
    });
    expect(updated.body.data.amount.amount).toBe(4_500);
    expect((await t.call("PUT", `/api/card-brander/transfers/${id}/accept`, { token: sender.token })).status).toBe(404);

    const incoming = await t.call<{ list: T[] }>("GET", "/api/card-brander/transfers?direction=in", {
      token: to.token,
    });
    expect(incoming.body.data.list.map((x) => [x.id, x.direction])).toEqual([[id, "in"]]);
    const accepted = await t.call<T>("PUT", `/api/card-brander/transfers/${id}/accept`, { token: to.token });
    expect(accepted.body.data.state).toBe("completed");
    expect(await incomeOf(sender)).toBe(5_500);
    expect(await incomeOf(to)).toBe(4_500);
    const again = await t.call("PUT", `/api/card-brander/transfers/${id}/accept`, { token: to.token, lang: "en" });
    expect(again.status).toBe(409);
    expect(again.body.msg).toBe("This transfer has already been settled");
    expect(
      (await t.call("PUT", `/api/card-brander/transfers/${id}`, { token: sender.token, body: { amount: 1 } })).status,
    ).toBe(409);
    expect(await incomeOf(to)).toBe(4_500);
    expect(await checkInvariants(t.ctx.database.db)).toEqual([]);
  });

  it("a refused transfer moves nothing; an unaffordable acceptance is refused and the transfer stays open", async () => {
    const sender = await authorisedSender(t);
    const to = await registerMerchant(t);
    await income(t, sender, 1_000);
    const create = (amount: number) =>
      t.call<T>("POST", "/api/card-brander/transfers", {
        token: sender.token,
        body: { toMerchantId: to.merchantId, amount, requestKey: key() },
      });
    const a = (await create(500)).body.data.id;
    const refused = await t.call<T>("PUT", `/api/card-brander/transfers/${a}/refuse`, {
      token: to.token,
      body: { reason: "Not ours" },
    });
    expect(refused.body.data).toMatchObject({ state: "refused", refuseReason: "Not ours" });
    const b = (await create(5_000)).body.data.id;
    const tooMuch = await t.call("PUT", `/api/card-brander/transfers/${b}/accept`, { token: to.token, lang: "en" });
    expect(tooMuch.body.msg).toBe("Insufficient balance");
    const still = await t.call<{ list: T[] }>("GET", "/api/card-brander/transfers?state=created", {
      token: sender.token,
    });
    expect(still.body.data.list.map((x) => x.id)).toEqual([b]);
    expect(await incomeOf(sender)).toBe(1_000);
  });

  it("contract transfers are listed per contract; strangers see nothing", async () => {
    const sender = await authorisedSender(t);
    const to = await registerMerchant(t);
    await income(t, sender, 9_000);
    const contractNo = `HT-${Date.now()}`;
    const mk = (amount: number) =>
      t.call<T>("POST", "/api/card-brander/contract/transfers", {
        token: sender.token,
        body: { contractNo, toMerchantId: to.merchantId, amount, requestKey: key() },
      });
    const first = (await mk(2_000)).body.data.id;
    await mk(3_000);
    await t.call("PUT", `/api/card-brander/transfers/${first}/accept`, { token: to.token });
    const list = await t.call<
      { contractNo: string; transfers: number; completed: { amount: number }; pending: { amount: number } }[]
    >("GET", "/api/card-brander/transfer/contracts", { token: to.token });
    expect(list.body.data).toEqual([
      expect.objectContaining({
        contractNo,
        transfers: 2,
        completed: { amount: 2_000, currency: "CNY" },
        pending: { amount: 3_000, currency: "CNY" },
      }),
    ]);
    const bad = await t.call("POST", "/api/card-brander/contract/transfers", {
      token: sender.token,
      body: { contractNo: "bad no!", toMerchantId: to.merchantId, amount: 1, requestKey: key() },
      lang: "en",
    });
    expect(bad.body.msg).toBe("The contract number is 1-40 letters, digits or -");
    const stranger = await registerMerchant(t);
    expect(
      (await t.call<{ total: number }>("GET", "/api/card-brander/transfers", { token: stranger.token })).body.data
        .total,
    ).toBe(0);
    expect(
      (
        await t.call("PUT", `/api/card-brander/transfers/${first}/refuse`, {
          token: stranger.token,
          body: { reason: "x" },
        })
      ).status,
    ).toBe(404);
    // The ledger keeps the transfer as one balanced transaction.
    await withTx(t.ctx.database.db, (tx) =>
      post(tx, {
        idempotencyKey: `transfer:${first}`,
        kind: "transfer",
        currency: "CNY",
        subject: { type: "transfer", id: first },
        postings: [
          { account: { merchantId: Number(sender.merchantId), kind: "income" }, amount: -2_000 },
          { account: { merchantId: Number(to.merchantId), kind: "income" }, amount: 2_000 },
        ],
      }),
    );
    expect(await incomeOf(to)).toBe(2_000);
  });
});

it("reports the authorisation state", async () => {
  const sender = await authorisedSender(t);
  const status = await t.call<{ authorised: boolean; authorisedAt: string | null }>(
    "GET",
    "/api/card-brander/transitAuth",
    { token: sender.token },
  );
  expect(status.body.data.authorised).toBe(true);
  const fresh = await registerMerchant(t);
  expect(
    (await t.call<{ authorised: boolean }>("GET", "/api/card-brander/transitAuth", { token: fresh.token })).body.data,
  ).toEqual({ authorised: false, authorisedAt: null });
});
