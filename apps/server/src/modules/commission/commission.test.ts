import type { CommissionStatement, PurchaseOrder, StatementDetail } from "@tessera/contracts";
import { PDFParse } from "pdf-parse";
import { describe, expect, it } from "vitest";
import { dock } from "../../../test/docking";
import { registerMerchant, STRONG_PASSWORD } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { fundSup } from "../../../test/money";
import { registerOperator } from "../../../test/operators";
import { importFile, newBrand, newGoods } from "../../../test/kit/catalog-fixtures";
import { balancesOf, checkInvariants } from "../ledger";
import { platformDay } from "../../platform/clock";
import { shiftPeriod } from "./index";
import { cardCsv } from "../../../test/kit/cards";

const t = useTestApp();

/** Tokens live 12 hours; the test moves the clock by weeks, so everyone signs in again. */
async function relogin(who: { email: string; token: string }): Promise<void> {
  const login = await t.call<{ token: string }>("POST", "/api/card-user/login", {
    body: { email: who.email, password: STRONG_PASSWORD, version: "domestic" },
  });
  if (login.body.code !== 1) throw new Error(login.body.msg);
  who.token = login.body.data.token;
}
/** Moves the clock to 10:00 (platform time) on the 2nd of the month after the current one. */
function toNextMonth(): void {
  const now = t.clock.now();
  const next = shiftPeriod(platformDay(now).slice(0, 7), 1);
  const target = new Date(`${next}-02T10:00:00+08:00`).getTime();
  t.clock.advance((target - now.getTime()) / 1000);
}
let seq = 0;
const csv = (n: number) => cardCsv(n, (i) => `COMM${Date.now()}${++seq}${i},S${i},`);

describe("provider commission", () => {
  it("rules, a month's close, the refund window's hold, refunds clawed back the month after, a negative month carried; one payout into the income account", async () => {
    const ops = await registerOperator(t);
    const provider = await registerMerchant(t, { orgName: "Star Service Provider" });
    expect(
      (
        await t.call("POST", `/api/ops/merchants/${provider.merchantId}/providerRole`, {
          token: ops.token,
          body: { grant: true },
        })
      ).status,
    ).toBe(200);
    await relogin(provider);
    const other = await registerMerchant(t, { orgName: "Other Provider" });
    await t.call("POST", `/api/ops/merchants/${other.merchantId}/providerRole`, {
      token: ops.token,
      body: { grant: true },
    });
    await relogin(other);

    // A brand served by the provider (its sales count), and a purchaser served by it (its purchases count).
    const brandOwner = await registerMerchant(t, { orgName: "Served Brand Co" });
    const bound = await t.call("POST", "/api/card-servicer/brander/service", {
      token: brandOwner.token,
      body: { providerId: provider.merchantId, kind: "brand" },
    });
    expect(bound.body.code).toBe(1);
    const starBrand = await newBrand(t, brandOwner, "Star Cards");
    const plainBrand = await newBrand(t, brandOwner, "Plain Cards");
    const starGoods = await newGoods(t, brandOwner, starBrand.id, {
      name: "Star 100",
      price: 10_000,
      settlementPrice: 9_000,
    });
    const plainGoods = await newGoods(t, brandOwner, plainBrand.id, {
      name: "Plain 100",
      price: 10_000,
      settlementPrice: 9_000,
    });
    await importFile(t, brandOwner.token, starGoods.id, "cards.csv", csv(5));
    await importFile(t, brandOwner.token, plainGoods.id, "cards.csv", csv(5));
    const { buyer } = await dock(t, brandOwner);
    await fundSup(t, buyer, 1_000_000);
    const vendor = await registerMerchant(t, { orgName: "Served Purchaser Co" });
    expect(
      (
        await t.call("POST", "/api/card-servicer/brander/service", {
          token: vendor.token,
          body: { providerId: provider.merchantId, kind: "vendor" },
        })
      ).body.code,
    ).toBe(1);
    await dock(t, brandOwner, vendor);
    await fundSup(t, vendor, 1_000_000);

    // Rules: 2% on everything, 5% on the Star brand; an overlapping one is refused in three languages.
    const rule = (body: Record<string, unknown>, lang: "cn" | "tw" | "en" = "en") =>
      t.call<{ id: string }>("POST", "/api/ops/commission/rules", {
        token: ops.token,
        lang,
        body: { providerId: provider.merchantId, validFrom: "2026-01-01", ...body },
      });
    const firstRule = await rule({ rateBp: 200 });
    expect(firstRule.body.code).toBe(1);
    // The console's audit log lists the operator's rule (issue 40, item 16).
    const logged = await t.call<{ list: { action: string }[] }>(
      "GET",
      `/api/ops/auditLog?subjectType=commissionRule&subjectId=${firstRule.body.data.id}`,
      { token: ops.token },
    );
    expect(logged.body.data.list).toMatchObject([{ action: "commission.rule" }]);
    expect((await rule({ rateBp: 500, brandId: String(starBrand.id) })).body.code).toBe(1);
    expect((await rule({ rateBp: 300, validFrom: "2026-06-01" })).body.msg).toBe(
      "The validity overlaps another commission rule for the same scope",
    );
    expect((await rule({ rateBp: 300, validFrom: "2026-06-01" }, "cn")).body.msg).toBe(
      "与同一范围的另一条佣金规则有效期重叠",
    );
    expect((await rule({ rateBp: 300, validFrom: "2026-06-01" }, "tw")).body.msg).toBe(
      "與同一範圍的另一條傭金規則有效期重疊",
    );
    expect((await rule({ rateBp: 9_000 })).body.msg).toBe("The commission rate must be between 0% and 50%");
    expect(
      (await t.call<unknown[]>("GET", "/api/card-servicer/commission/rules", { token: provider.token })).body.data,
    ).toHaveLength(2);
    expect(
      (await t.call<unknown[]>("GET", "/api/card-servicer/commission/rules", { token: other.token })).body.data,
    ).toHaveLength(0);

    // The brand's rebates for its purchasers: 1% from the first yuan, 2% from 300.00 a month.
    const rebateRule = (body: Record<string, unknown>, lang: "cn" | "tw" | "en" = "en") =>
      t.call("POST", "/api/card-brander/rebate/rules", {
        token: brandOwner.token,
        lang,
        body: { validFrom: "2026-01-01", ...body },
      });
    expect(
      (
        await rebateRule({
          tiers: [
            { minVolume: 0, rateBp: 100 },
            { minVolume: 30_000, rateBp: 200 },
          ],
        })
      ).body.code,
    ).toBe(1);
    expect((await rebateRule({ tiers: [{ minVolume: 0, rateBp: 300 }], validFrom: "2026-03-01" }, "cn")).body.msg).toBe(
      "与同一范围的另一条返利规则有效期重叠",
    );
    expect(
      (
        await rebateRule({
          tiers: [
            { minVolume: 500, rateBp: 100 },
            { minVolume: 100, rateBp: 200 },
          ],
          purchaserId: buyer.merchantId,
        })
      ).body.msg,
    ).toBe("Rebate tiers must rise by volume");
    expect(
      (await t.call<unknown[]>("GET", "/api/card-brander/rebate/rules", { token: brandOwner.token })).body.data,
    ).toHaveLength(1);

    const buy = async (who: { token: string }, goodsId: number, quantity: number) =>
      (
        await t.call<PurchaseOrder>("POST", "/api/card-user/orders", {
          token: who.token,
          body: { goodsId: String(goodsId), quantity, orderNo: `CO${Date.now()}${++seq}` },
        })
      ).body.data;
    const starOrder = await buy(buyer, starGoods.id, 3); // 300.00 at 5% = 15.00 (the brand's sale)
    expect(starOrder.state).toBe("success");
    await buy(vendor, plainGoods.id, 1); // 100.00: the brand's sale and the vendor's purchase, counted once (brand side) at 2% = 2.00
    const month = platformDay(t.clock.now()).slice(0, 7);

    const early = await t.call("POST", "/api/ops/commission/close", {
      token: ops.token,
      body: { period: month },
      lang: "en",
    });
    expect(early.body.msg).toBe("This month has not ended yet and cannot be closed");

    toNextMonth();
    for (const who of [ops, provider, other, buyer, vendor, brandOwner]) await relogin(who);
    const closed = await t.call<{ statements: number; lines: number; alreadyClosed: boolean }>(
      "POST",
      "/api/ops/commission/close",
      { token: ops.token, body: { period: month } },
    );
    expect(closed.body.data).toMatchObject({ lines: 2, rebates: 2, alreadyClosed: false });
    // Rebates, paid from the brand's income: the buyer reached the 2% tier (300.00), the vendor 1% (100.00).
    const records = await t.call<{
      list: {
        period: string;
        volume: { amount: number };
        rateBp: number;
        amount: { amount: number };
        state: string;
        supplierName: string;
      }[];
    }>("GET", "/api/card-user/rebate/records", { token: buyer.token });
    expect(records.body.data.list).toEqual([
      expect.objectContaining({
        period: month,
        volume: { amount: 30_000, currency: "CNY" },
        rateBp: 200,
        amount: { amount: 600, currency: "CNY" },
        state: "paid",
        supplierName: "Served Brand Co",
      }),
    ]);
    const changes = await t.call<{ list: { amount: { amount: number }; type: string }[]; balance: { amount: number } }>(
      "GET",
      "/api/card-user/rebate/changes",
      { token: buyer.token },
    );
    expect(changes.body.data).toMatchObject({
      balance: { amount: 600 },
      list: [{ amount: { amount: 600 }, type: "rebate" }],
    });
    expect(
      (
        await t.call<{ list: { amount: { amount: number } }[] }>("GET", "/api/card-user/rebate/records", {
          token: vendor.token,
        })
      ).body.data.list.map((r) => r.amount.amount),
    ).toEqual([100]);
    expect(
      (await t.call<{ total: number }>("GET", "/api/card-user/rebate/records", { token: other.token })).body.data.total,
    ).toBe(0);
    expect(
      (await t.call<{ total: number }>("GET", "/api/card-brander/rebate/statements", { token: brandOwner.token })).body
        .data.total,
    ).toBe(2);
    expect(
      (
        await t.call<{ alreadyClosed: boolean }>("POST", "/api/ops/commission/close", {
          token: ops.token,
          body: { period: month },
        })
      ).body.data.alreadyClosed,
    ).toBe(true);

    const page = await t.call<{ list: CommissionStatement[] }>("GET", "/api/card-servicer/commission/statements", {
      token: provider.token,
    });
    const first = page.body.data.list[0];
    expect(first).toMatchObject({
      period: month,
      accrued: { amount: 1_700 },
      clawedBack: { amount: 0 },
      closing: { amount: 1_700 },
      state: "draft",
      lines: 2,
    });
    const detail = await t.call<StatementDetail>("GET", `/api/card-servicer/commission/statements/${first?.id}`, {
      token: provider.token,
    });
    expect(detail.body.data.merchants).toEqual([
      expect.objectContaining({
        merchantId: brandOwner.merchantId,
        side: "brand",
        orders: 2,
        basis: { amount: 40_000, currency: "CNY" },
        net: { amount: 1_700, currency: "CNY" },
      }),
    ]);
    const xlsx = await t.app.inject({
      method: "GET",
      url: `/api/card-servicer/commission/statements/${first?.id}/export`,
      headers: { "x-auth-token": provider.token },
    });
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers["content-type"]).toContain("spreadsheetml");

    // The refund window: payable from the month's last day plus 7 days (the 7th of the month after).
    const payable = `${shiftPeriod(month, 1)}-07`;
    expect(first?.payableFrom).toBe(payable);
    expect(detail.body.data.payableFrom).toBe(payable);

    // The printable PDF, in the request's language: the month, the figures, the served merchant's line,
    // the closing amount also in Chinese capitals (simplified for cn, traditional for tw).
    const pdfText = async (lang: "cn" | "tw" | "en") => {
      const res = await t.app.inject({
        method: "GET",
        url: `/api/card-servicer/commission/statements/${first?.id}/pdf`,
        headers: { "x-auth-token": provider.token, lang },
      });
      expect([res.statusCode, res.headers["content-type"], res.rawPayload.subarray(0, 5).toString("latin1")]).toEqual([
        200,
        "application/pdf",
        "%PDF-",
      ]);
      const parser = new PDFParse({ data: new Uint8Array(res.rawPayload) });
      try {
        return (await parser.getText()).text.replace(/\s+/g, "");
      } finally {
        await parser.destroy();
      }
    };
    const cnPdf = await pdfText("cn");
    for (const part of [
      "服务商月度佣金账单",
      "StarServiceProvider",
      `月份:${month}`,
      `可结算日期:${payable}`,
      "应结佣金:17.00CNY",
      "壹拾柒元整",
      "ServedBrandCo",
      "400.00",
    ]) {
      expect(cnPdf).toContain(part);
    }
    expect(await pdfText("tw")).toContain("壹拾柒圓整");
    const enPdf = await pdfText("en");
    for (const part of ["Monthlycommissionstatement", `Month:${month}`, "Closing:17.00CNY"]) {
      expect(enPdf).toContain(part);
    }
    expect(enPdf).not.toContain("壹");

    // Tenancy: another provider neither sees nor confirms it.
    expect(
      (await t.call<{ total: number }>("GET", "/api/card-servicer/commission/statements", { token: other.token })).body
        .data.total,
    ).toBe(0);
    expect(
      (await t.call("GET", `/api/card-servicer/commission/statements/${first?.id}`, { token: other.token })).status,
    ).toBe(404);
    expect(
      (await t.call("GET", `/api/card-servicer/commission/statements/${first?.id}/pdf`, { token: other.token })).status,
    ).toBe(404);
    expect(
      (await t.call("PUT", `/api/card-servicer/commission/statements/${first?.id}/confirm`, { token: other.token }))
        .status,
    ).toBe(404);

    // Confirming during the hold is refused in three languages and changes nothing; on the 6th still, on the 7th it pays.
    const income = async () => (await balancesOf(t.ctx.database.db, Number(provider.merchantId), "CNY")).income.amount;
    const held = await t.call("PUT", `/api/card-servicer/commission/statements/${first?.id}/confirm`, {
      token: provider.token,
      lang: "en",
    });
    expect([held.status, held.body.msg]).toEqual([
      409,
      `This statement is held for refunds and can be confirmed from ${payable}`,
    ]);
    expect(
      (
        await t.call("PUT", `/api/card-servicer/commission/statements/${first?.id}/confirm`, {
          token: provider.token,
          lang: "cn",
        })
      ).body.msg,
    ).toBe(`该账单处于退款保留期，${payable}起可确认结算`);
    expect(
      (
        await t.call("PUT", `/api/card-servicer/commission/statements/${first?.id}/confirm`, {
          token: provider.token,
          lang: "tw",
        })
      ).body.msg,
    ).toBe(`該賬單處於退款保留期，${payable}起可確認結算`);
    t.clock.advance(4 * 86_400);
    await relogin(provider);
    expect(
      (await t.call("PUT", `/api/card-servicer/commission/statements/${first?.id}/confirm`, { token: provider.token }))
        .status,
    ).toBe(409);
    expect(await income()).toBe(0);
    expect(
      (
        await t.call<CommissionStatement>("GET", `/api/card-servicer/commission/statements/${first?.id}`, {
          token: provider.token,
        })
      ).body.data.state,
    ).toBe("draft");
    t.clock.advance(86_400);
    for (const who of [ops, provider, buyer, vendor, brandOwner]) await relogin(who);
    expect(platformDay(t.clock.now())).toBe(payable);

    const paid = await t.call<CommissionStatement>(
      "PUT",
      `/api/card-servicer/commission/statements/${first?.id}/confirm`,
      { token: provider.token },
    );
    expect(paid.body.data.state).toBe("paid");
    const again = await t.call("PUT", `/api/card-servicer/commission/statements/${first?.id}/confirm`, {
      token: provider.token,
      lang: "en",
    });
    expect(again.body.msg).toBe("This statement has already been confirmed or has nothing to pay");
    // The commission lands in the provider's fund (income) account: its balance, ChangesFundsP, withdrawals.
    expect(await income()).toBe(1_700);
    const fundChanges = await t.call<{
      list: { type: string; increase: number; balance: number }[];
      balance: { amount: number };
    }>("GET", "/api/card-brander/order/fund/search", { token: provider.token });
    expect(fundChanges.body.data.list[0]).toMatchObject({ type: "commission", increase: 1_700, balance: 1_700 });
    expect(fundChanges.body.data.balance.amount).toBe(1_700);

    // The month after: a refund of two Star cards ordered last month is clawed back (−10.00), a new
    // vendor purchase from another brand accrues (+2.00); the month is negative and carries forward.
    const refund = await t.call<{ id: string }>("POST", "/api/card-user/refunds", {
      token: buyer.token,
      body: { orderId: starOrder.id, quantity: 2, reason: "unused" },
    });
    expect(
      (
        await t.call("PUT", `/api/card-brander/supplyRefunds/${refund.body.data.id}`, {
          token: brandOwner.token,
          body: { approve: true },
        })
      ).body.code,
    ).toBe(1);
    await buy(vendor, plainGoods.id, 1);
    const month2 = platformDay(t.clock.now()).slice(0, 7);
    toNextMonth();
    for (const who of [ops, provider]) await relogin(who);
    expect(
      (
        await t.call<{ lines: number }>("POST", "/api/ops/commission/close", {
          token: ops.token,
          body: { period: month2 },
        })
      ).body.data.lines,
    ).toBe(2);
    const second = (
      await t.call<{ list: CommissionStatement[] }>(
        "GET",
        `/api/card-servicer/commission/statements?from=${month2}&to=${month2}`,
        { token: provider.token },
      )
    ).body.data.list[0];
    expect(second).toMatchObject({
      period: month2,
      opening: { amount: 0 },
      accrued: { amount: 200 },
      clawedBack: { amount: 1_000 },
      closing: { amount: -800 },
      state: "carried",
    });
    expect(
      (await t.call("PUT", `/api/card-servicer/commission/statements/${second?.id}/confirm`, { token: provider.token }))
        .status,
    ).toBe(409);

    // The third month has nothing new: its statement opens with the carried −8.00.
    const month3 = platformDay(t.clock.now()).slice(0, 7);
    toNextMonth();
    await relogin(ops);
    await relogin(provider);
    await t.call("POST", "/api/ops/commission/close", { token: ops.token, body: { period: month3 } });
    const third = (
      await t.call<{ list: CommissionStatement[] }>("GET", `/api/card-servicer/commission/statements?from=${month3}`, {
        token: provider.token,
      })
    ).body.data.list[0];
    expect(third).toMatchObject({
      period: month3,
      opening: { amount: -800 },
      closing: { amount: -800 },
      state: "carried",
      lines: 0,
    });
    expect(await income()).toBe(1_700);
    expect(await checkInvariants(t.ctx.database.db)).toEqual([]);
  });
});
