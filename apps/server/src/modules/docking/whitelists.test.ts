import type { Brand, PurchaseOrder, WhitelistEntry } from "@tessera/contracts";
import { beforeAll, describe, expect, it } from "vitest";
import { dock, markVerified } from "../../../test/docking";
import { registerMerchant } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { fundSup } from "../../../test/money";
import { importFile, newBrand, newGoods, newMerchant, type TestMerchant } from "../../../test/kit/catalog-fixtures";
import { cardCsv } from "../../../test/kit/cards";

const t = useTestApp();
let supplier: TestMerchant;
let brand: Brand;
beforeAll(async () => {
  supplier = await newMerchant(t, "Whitelist Supplier");
  brand = await newBrand(t, supplier, "WL Cards");
});

let seq = 0;
const orderNo = () => `WL${Date.now()}${++seq}`;
const csv = (n: number, prefix: string) => cardCsv(n, (i) => `${prefix}${String(i).padStart(6, "0")},S${i},`);
type List = { list: WhitelistEntry[]; total: number };

describe("supplier whitelists (VendorWhiteList, PurchaseWhiteList)", () => {
  it("a vendor-wide entry lets an undocked purchaser buy every goods; removing it stops new orders", async () => {
    const a = await newGoods(t, supplier, brand.id, { name: "WL card A", price: 1000, settlementPrice: 900 });
    const b = await newGoods(t, supplier, brand.id, { name: "WL card B", price: 1000, settlementPrice: 900 });
    await importFile(t, supplier.token, a.id, "a.csv", csv(3, "WLA"));
    await importFile(t, supplier.token, b.id, "b.csv", csv(3, "WLB"));
    const buyer = await registerMerchant(t, { orgName: "Listed Buyer" });
    await markVerified(t, buyer.merchantId);
    await fundSup(t, buyer, 10_000);
    const buy = (goodsId: number) =>
      t.call<PurchaseOrder>("POST", "/api/card-user/orders", {
        token: buyer.token,
        body: { goodsId: String(goodsId), quantity: 1, orderNo: orderNo() },
        lang: "en",
      });

    expect((await buy(a.id)).body.msg).toBe(
      "You cannot buy this supplier's goods: you are not docked with it, authorised by its brand or on its whitelist",
    );
    const added = await t.call<WhitelistEntry>("POST", "/api/card-brander/whitelists", {
      token: supplier.token,
      body: { purchaserId: buyer.merchantId, scope: "vendor", remark: "key account" },
    });
    expect(added.body.data).toMatchObject({
      scope: "vendor",
      purchaserName: "Listed Buyer",
      goodsId: null,
      active: true,
      docked: false,
      remark: "key account",
    });
    expect((await buy(a.id)).body.data.state).toBe("success");
    expect((await buy(b.id)).body.data.state).toBe("success");

    const dup = await t.call("POST", "/api/card-brander/whitelists", {
      token: supplier.token,
      body: { purchaserId: buyer.merchantId, scope: "vendor" },
      lang: "en",
    });
    expect([dup.status, dup.body.msg]).toEqual([409, "This purchaser is already on the whitelist"]);

    const removed = await t.call<WhitelistEntry>("DELETE", `/api/card-brander/whitelists/${added.body.data.id}`, {
      token: supplier.token,
    });
    expect(removed.body.data).toMatchObject({ active: false });
    expect(removed.body.data.removedAt).not.toBeNull();
    expect((await buy(a.id)).status).toBe(409);
    // A removed entry can be added again; the history stays.
    expect(
      (
        await t.call("POST", "/api/card-brander/whitelists", {
          token: supplier.token,
          body: { purchaserId: buyer.merchantId, scope: "vendor" },
        })
      ).body.code,
    ).toBe(1);
    const history = await t.call<List>(
      "GET",
      `/api/card-brander/whitelists?scope=vendor&purchaserId=${buyer.merchantId}`,
      { token: supplier.token },
    );
    expect(history.body.data.list.map((e) => e.active)).toEqual([true, false]);
    const onlyRemoved = await t.call<List>(
      "GET",
      `/api/card-brander/whitelists?scope=vendor&purchaserId=${buyer.merchantId}&active=false`,
      { token: supplier.token },
    );
    expect(onlyRemoved.body.data.total).toBe(1);
  });

  it("a goods entry lets the purchaser buy that goods only", async () => {
    const a = await newGoods(t, supplier, brand.id, { name: "WL goods only", price: 500, settlementPrice: 400 });
    const other = await newGoods(t, supplier, brand.id, { name: "WL not listed", price: 500, settlementPrice: 400 });
    await importFile(t, supplier.token, a.id, "a.csv", csv(2, "WLG"));
    await importFile(t, supplier.token, other.id, "o.csv", csv(2, "WLO"));
    const buyer = await registerMerchant(t, { orgName: "Goods Buyer" });
    await markVerified(t, buyer.merchantId);
    await fundSup(t, buyer, 10_000);
    const noGoods = await t.call("POST", "/api/card-brander/whitelists", {
      token: supplier.token,
      body: { purchaserId: buyer.merchantId, scope: "goods" },
      lang: "en",
    });
    expect(noGoods.body.msg).toBe("Please choose the goods of the whitelist entry");
    const entry = await t.call<WhitelistEntry>("POST", "/api/card-brander/whitelists", {
      token: supplier.token,
      body: { purchaserId: buyer.merchantId, scope: "goods", goodsId: String(a.id) },
    });
    expect(entry.body.data).toMatchObject({ scope: "goods", goodsId: String(a.id), goodsName: "WL goods only" });
    const ok = await t.call<PurchaseOrder>("POST", "/api/card-user/orders", {
      token: buyer.token,
      body: { goodsId: String(a.id), quantity: 1, orderNo: orderNo() },
    });
    expect(ok.body.data.state).toBe("success");
    const refused = await t.call("POST", "/api/card-user/orders", {
      token: buyer.token,
      body: { goodsId: String(other.id), quantity: 1, orderNo: orderNo() },
    });
    expect(refused.status).toBe(409);
    const byGoods = await t.call<List>("GET", `/api/card-brander/whitelists?scope=goods&goodsId=${a.id}`, {
      token: supplier.token,
    });
    expect(byGoods.body.data.list.map((e) => e.purchaserId)).toEqual([buyer.merchantId]);
    // The vendor list does not show goods entries.
    const vendor = await t.call<List>(
      "GET",
      `/api/card-brander/whitelists?scope=vendor&purchaserId=${buyer.merchantId}`,
      { token: supplier.token },
    );
    expect(vendor.body.data.total).toBe(0);
  });

  it("validates in three languages and keeps suppliers apart", async () => {
    const other = await newMerchant(t, "Other Supplier");
    const otherBrand = await newBrand(t, other);
    const theirs = await newGoods(t, other, otherBrand.id);
    const buyer = await registerMerchant(t);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ scope: "vendor" }, "请输入采购商ID", "Please enter the purchaser ID"],
      [{ purchaserId: "", scope: "vendor" }, "请输入采购商ID", "Please enter the purchaser ID"],
      [{ purchaserId: "99999999", scope: "vendor" }, "采购商不存在", "This purchaser does not exist"],
      [{ purchaserId: supplier.merchantId, scope: "vendor" }, "不能将自己加入白名单", "You cannot whitelist yourself"],
      [
        { purchaserId: buyer.merchantId, scope: "goods", goodsId: String(theirs.id) },
        "只能为自己供应的商品设置白名单",
        "You can only whitelist purchasers for goods you supply",
      ],
    ];
    for (const [body, cn, en] of cases) {
      const zh = await t.call("POST", "/api/card-brander/whitelists", { token: supplier.token, body, lang: "cn" });
      expect([zh.status, zh.body.msg]).toEqual([400, cn]);
      expect(
        (await t.call("POST", "/api/card-brander/whitelists", { token: supplier.token, body, lang: "en" })).body.msg,
      ).toBe(en);
    }
    const tw = await t.call("POST", "/api/card-brander/whitelists", {
      token: supplier.token,
      body: { scope: "vendor" },
      lang: "tw",
    });
    expect(tw.body.msg).toBe("請輸入採購商ID");

    const mine = await t.call<WhitelistEntry>("POST", "/api/card-brander/whitelists", {
      token: supplier.token,
      body: { purchaserId: buyer.merchantId, scope: "vendor" },
    });
    // Another supplier neither sees nor removes it.
    const seen = await t.call<List>("GET", "/api/card-brander/whitelists?scope=vendor", { token: other.token });
    expect(seen.body.data.list.map((e) => e.id)).not.toContain(mine.body.data.id);
    expect(
      (await t.call("DELETE", `/api/card-brander/whitelists/${mine.body.data.id}`, { token: other.token })).status,
    ).toBe(404);
    // The whitelisted purchaser still cannot buy the other supplier's goods.
    await fundSup(t, buyer, 5_000);
    expect(
      (
        await t.call("POST", "/api/card-user/orders", {
          token: buyer.token,
          body: { goodsId: String(theirs.id), quantity: 1, orderNo: orderNo() },
        })
      ).status,
    ).toBe(409);
    expect((await t.call("GET", "/api/card-brander/whitelists")).status).toBe(401);
  });

  it("shows whether a listed purchaser is also docked", async () => {
    const { buyer } = await dock(t, supplier);
    const entry = await t.call<WhitelistEntry>("POST", "/api/card-brander/whitelists", {
      token: supplier.token,
      body: { purchaserId: buyer.merchantId, scope: "vendor" },
    });
    expect(entry.body.data.docked).toBe(true);
  });
});
