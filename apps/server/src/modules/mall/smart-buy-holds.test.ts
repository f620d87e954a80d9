import { expect, it } from "vitest";
import { useTestApp } from "../../../test/kit/use-test-app";
import { newShop } from "../../../test/kit/mall-fixtures";
import { buyerStockUpTo } from "../supply";
import { holdSmartBuy, nameSmartBuy, notHeldForOthers, releaseSmartBuys } from "./checkout.repo";

/**
 * Issue 43: the codes a checkout buys for itself are its own until it hands them on (checkout.repo's holds).
 * Other checkouts of the merchant neither count nor take them: from the moment the purchase is about to be
 * placed (a pending hold: every code sold to the merchant since), through its naming, until its release.
 */
const t = useTestApp();

it("a checkout's pending, then named, hold keeps its codes out of the merchant's stock until released", async () => {
  const shop = await newShop(t, { codes: 10 });
  const db = t.ctx.database.db;
  const merchantId = Number(shop.purchaser.merchantId);
  const goodsId = Number(shop.cardGoodsId);
  const buy = async (quantity: number, orderNo: string) => {
    const res = await t.call<{ id: string }>("POST", "/api/card-user/orders", {
      token: shop.purchaser.token,
      body: { goodsId: String(goodsId), quantity, orderNo },
    });
    expect(res.body.code).toBe(1);
    return res.body.data.id;
  };
  const stock = async () =>
    (await buyerStockUpTo(db, merchantId, new Map([[goodsId, 100]]), notHeldForOthers(merchantId, t.clock.now()))).get(
      goodsId,
    );
  await buy(1, `OWN${Date.now()}`);
  expect(await stock()).toBe(1);

  // A pending hold: what the merchant is sold from now on may be that checkout's.
  t.clock.advance(1);
  await holdSmartBuy(db, merchantId, "HOLD-1", t.clock.now());
  const bought = await buy(2, `MALLHOLD${Date.now()}`);
  expect(await stock()).toBe(1);
  // Named: exactly that purchase's codes stay held.
  await nameSmartBuy(db, "HOLD-1", bought);
  expect(await stock()).toBe(1);
  // Released (handed on, or left over): back in the merchant's stock.
  await releaseSmartBuys(db, ["HOLD-1"]);
  expect(await stock()).toBe(3);

  // A hold whose checkout died lets go after two minutes.
  await holdSmartBuy(db, merchantId, "HOLD-2", t.clock.now());
  await nameSmartBuy(db, "HOLD-2", bought);
  expect(await stock()).toBe(1);
  t.clock.advance(121);
  expect(await stock()).toBe(3);
});
