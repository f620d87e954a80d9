import type { Brand, Card, Goods, Merchandise, Page, PurchaseOrder } from "@tessera/contracts";
import { beforeAll, describe, expect, it } from "vitest";
import { withTx } from "../../db/tx";
import { dock } from "../../../test/docking";
import { STRONG_PASSWORD } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { fundSup } from "../../../test/money";
import { platformDay } from "../../platform/clock";
import { importFile, newBrand, newGoods, newMerchant, type TestMerchant } from "../../../test/kit/catalog-fixtures";
import { checkInvariants } from "../ledger";
import { allocateCards } from "./allocate";
import { cardKeys } from "./crypto";
import { SupplyService } from "./service";
import { cardCsv } from "../../../test/kit/cards";

const t = useTestApp();
let supplier: TestMerchant;
let brand: Brand;
let supply: SupplyService;
const DAY = 86_400;

beforeAll(async () => {
  supplier = await newMerchant(t, "Expiring Cards Ltd");
  brand = await newBrand(t, supplier, "Expiring");
  supply = new SupplyService({
    db: t.ctx.database.db,
    keys: cardKeys(t.ctx.secret),
    clock: t.clock,
    mailer: t.ctx.mailer,
  });
});

/** Moves the clock on by whole days; sessions end after a day, so the supplier signs in again. */
async function advanceDays(days: number): Promise<void> {
  t.clock.advance(days * DAY);
  const login = await t.call<{ token: string }>("POST", "/api/card-user/login", {
    body: { email: supplier.email, password: STRONG_PASSWORD, version: "domestic" },
  });
  supplier = { ...supplier, token: login.body.data.token };
}

/** The platform day `days` after the test clock's. */
const dayAfter = (days: number) => platformDay(new Date(t.clock.now().getTime() + days * DAY * 1000));
const csv = (rows: [string, string, string][]) => cardCsv(rows.map((r) => r.join(",")));
const goodsOf = async (id: number) =>
  (await t.call<Goods>("GET", `/api/card-brander/product/${id}`, { token: supplier.token })).body.data;
const cardsOf = async (id: number, state?: string) =>
  (
    await t.call<Page<Card>>(
      "GET",
      `/api/card-brander/sup/merchandises/${id}/cards?pageSize=100${state ? `&state=${state}` : ""}`,
      { token: supplier.token },
    )
  ).body.data;

describe("expired card secrets", () => {
  it("leave stock when their day has passed; an order never gets one, before or after the job", async () => {
    const g = await newGoods(t, supplier, brand.id, { name: "Expiring card", perOrderMax: 10 });
    // Oldest ids first: the allocation takes codes in id order, so the expiring ones would come first.
    await importFile(
      t,
      supplier.token,
      g.id,
      "exp.csv",
      csv([
        ["EXP-0001", "S1", dayAfter(0)],
        ["EXP-0002", "S2", dayAfter(0)],
        ["EXP-0003", "S3", dayAfter(1)],
        ["KEEP-0004", "S4", dayAfter(30)],
        ["KEEP-0005", "S5", ""],
      ]),
    );
    expect(await goodsOf(g.id)).toMatchObject({ stock: 5, sold: 0, expired: 0 });
    // A code expiring today still counts and sells today: the job leaves them in stock. (Other test files
    // may share the PostgreSQL database, so figures are checked per goods, not by the job's total.)
    await supply.expireDue();
    expect(await goodsOf(g.id)).toMatchObject({ stock: 5, expired: 0 });

    await advanceDays(1);
    // Tomorrow, before the job: the order skips the two codes whose day passed.
    const { buyer } = await dock(t, supplier);
    await fundSup(t, buyer, 100_000);
    const placed = await t.call<PurchaseOrder>("POST", "/api/card-user/orders", {
      token: buyer.token,
      body: { goodsId: String(g.id), quantity: 1, orderNo: `EXP${Date.now()}` },
    });
    expect(placed.body.data.state).toBe("success");
    const bought = await t.call<Page<Card>>("GET", `/api/card-user/purchasedCards?orderId=${placed.body.data.id}`, {
      token: buyer.token,
    });
    expect(bought.body.data.list.map((c) => c.cardNumber)).toEqual(["EX****03"]);

    // The job: the two expired codes leave stock, in the counters and in the code list.
    expect(await supply.expireDue()).toBeGreaterThanOrEqual(2);
    expect(await goodsOf(g.id)).toMatchObject({ stock: 2, sold: 1, expired: 2 });
    expect((await cardsOf(g.id, "expired")).list.map((c) => [c.cardNumber, c.state]).sort()).toEqual([
      ["EX****01", "expired"],
      ["EX****02", "expired"],
    ]);
    expect((await cardsOf(g.id, "available")).total).toBe(2);
    // Idempotent: a second run the same day changes nothing.
    await supply.expireDue();
    expect(await goodsOf(g.id)).toMatchObject({ stock: 2, sold: 1, expired: 2 });
    // An expired code cannot be voided (it is no longer in stock).
    const expiredIds = (await cardsOf(g.id, "expired")).list.map((c) => c.id);
    const voidIt = await t.call("POST", `/api/card-brander/sup/merchandises/${g.id}/cards/void`, {
      token: supplier.token,
      body: { ids: expiredIds },
      lang: "en",
    });
    expect(voidIt.status).toBe(409);

    // Purchasers see the figure that can really be bought.
    const seen = await t.call<Merchandise>("GET", `/api/card-user/merchandises/${g.id}`, { token: buyer.token });
    expect(seen.body.data.stock).toBe(2);

    // Asking for more than the unexpired codes fails whole: no code changes hands.
    const tooMany = await t.call("POST", "/api/card-user/orders", {
      token: buyer.token,
      body: { goodsId: String(g.id), quantity: 3, orderNo: `EXP${Date.now()}x` },
      lang: "en",
    });
    expect(tooMany.status).toBe(409);
    expect(await goodsOf(g.id)).toMatchObject({ stock: 2, sold: 1, expired: 2 });
    expect(await checkInvariants(t.ctx.database.db)).toEqual([]);
  });

  it("a day later the next code expires, and stock always equals the available unexpired codes", async () => {
    const g = await newGoods(t, supplier, brand.id, { name: "Rolling expiry", lowStockThreshold: 2 });
    await importFile(
      t,
      supplier.token,
      g.id,
      "roll.csv",
      csv([
        ["ROLL-0001", "R1", dayAfter(0)],
        ["ROLL-0002", "R2", dayAfter(1)],
        ["ROLL-0003", "R3", dayAfter(2)],
      ]),
    );
    const db = t.ctx.database.db;
    const available = async () =>
      Number(
        (
          await db
            .selectFrom("supply_cards")
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .where("goods_id", "=", g.id)
            .where("state", "=", "available")
            .where("expires_on", ">=", platformDay(t.clock.now()))
            .executeTakeFirstOrThrow()
        ).n,
      );
    for (const [advance, stock] of [
      [1, 2],
      [1, 1],
      [1, 0],
    ] as const) {
      await advanceDays(advance);
      await supply.expireDue();
      expect((await goodsOf(g.id)).stock).toBe(stock);
      expect(await available()).toBe(stock);
    }
    // Nothing left to sell: the allocation refuses rather than hand out an expired code.
    const buyer = await newMerchant(t, "Late Buyer");
    await expect(
      withTx(db, (tx) =>
        allocateCards(
          tx,
          { goodsId: g.id, quantity: 1, orderId: "LATE-1", buyerMerchantId: Number(buyer.merchantId) },
          t.clock.now(),
        ),
      ),
    ).rejects.toMatchObject({
      messageKey: "supply.outOfStock",
    });
    expect(await goodsOf(g.id)).toMatchObject({ stock: 0, expired: 3 });
    // The low-stock notice went out once, when expiry took stock under the threshold (3 → 2 is not under 2; 2 → 1 is).
    const notices = (
      await t.call<{ list: { subject: string; body: string }[] }>(
        "GET",
        `/api/dev/outbox?to=${encodeURIComponent(supplier.email)}&pageSize=200`,
      )
    ).body.data.list.filter((m) => m.subject === "库存不足提醒：Rolling expiry");
    expect(notices).toHaveLength(1);
    expect(notices[0]?.body).toContain("可用库存为1");
  });
});
