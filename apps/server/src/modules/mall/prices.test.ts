import type { SelfGoods } from "@tessera/contracts";
import { beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/kit/use-test-app";
import { newShop, type Shop } from "../../../test/kit/mall-fixtures";

/**
 * A mall price far above the goods' face value (more than twice) is refused until the merchant confirms
 * it, and the confirmed price is logged (issue 37: a ¥27 code repriced to ¥1,000,000 went unnoticed).
 */
const t = useTestApp();
let shop: Shop;
beforeAll(async () => {
  shop = await newShop(t, { codes: 1 });
});

const logged = async (action: string) =>
  (await t.ctx.database.db.selectFrom("audit_log").select("detail").where("action", "=", action).execute()).map(
    (r) => r.detail,
  );

describe("high prices", () => {
  it("are refused until confirmed, then logged; an ordinary price is not asked about", async () => {
    const body = { goodsId: String(shop.topupGoodsId), price: 1_000_000 };
    const refused = await t.call<null>("POST", "/api/card-user/mall/selfGoods", {
      token: shop.purchaser.token,
      body,
      lang: "en",
    });
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toBe(
      "The price ¥10,000.00 is far above the goods' face value or cost of ¥50.00: confirm it to save",
    );
    expect(refused.body.data).toEqual({ field: "confirmHighPrice" });
    expect(
      (await t.call<{ total: number }>("GET", "/api/card-user/mall/selfGoods", { token: shop.purchaser.token })).body
        .data.total,
    ).toBe(0);
    const confirmed = await t.call<SelfGoods>("POST", "/api/card-user/mall/selfGoods", {
      token: shop.purchaser.token,
      body: { ...body, confirmHighPrice: true },
    });
    expect(confirmed.body.data.price.amount).toBe(1_000_000);
    expect(await logged("mall.self.highPrice")).toContainEqual({
      goodsId: shop.topupGoodsId,
      price: 1_000_000,
      reference: 5_000,
    });

    const card = await t.call<SelfGoods>("POST", "/api/card-user/mall/selfGoods", {
      token: shop.purchaser.token,
      body: { goodsId: String(shop.cardGoodsId), price: 2_990 },
    });
    expect(card.body.code).toBe(1);
    const raise = await t.call("PUT", `/api/card-user/mall/selfGoods/${card.body.data.id}`, {
      token: shop.purchaser.token,
      body: { price: 999_900 },
    });
    expect(raise.status).toBe(409);
    expect(
      (
        await t.call("PUT", `/api/card-user/mall/selfGoods/${card.body.data.id}`, {
          token: shop.purchaser.token,
          body: { price: 999_900, confirmHighPrice: true },
        })
      ).body.code,
    ).toBe(1);
  });
});
