import type { RebateOption, RebateRule } from "@tessera/contracts";
import { describe, expect, it } from "vitest";
import { dock, markVerified } from "../../../test/docking";
import { registerMerchant } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { newBrand, newGoods } from "../../../test/kit/catalog-fixtures";
import { addSubAccount } from "../../../test/kit/onboarding-fixtures";

/**
 * The rebate rule dialog's pickers (`rebate/rules/options/*`): guarded like the rules themselves, so a
 * sub-account given only ProcurementLiaison (not the goods or docking pages) can choose a goods and a
 * purchaser and set a rule; each supplier sees only its own goods and the purchasers docked with it.
 */
const t = useTestApp();

const goodsOptions = (token: string, keyword?: string) =>
  t.call<RebateOption[]>(
    "GET",
    `/api/card-brander/rebate/rules/options/goods${keyword === undefined ? "" : `?keyword=${encodeURIComponent(keyword)}`}`,
    { token, lang: "en" },
  );
const purchaserOptions = (token: string) =>
  t.call<RebateOption[]>("GET", "/api/card-brander/rebate/rules/options/purchasers", { token, lang: "en" });
const addRule = (token: string, body: Record<string, unknown>) =>
  t.call<RebateRule>("POST", "/api/card-brander/rebate/rules", {
    token,
    lang: "en",
    body: { tiers: [{ minVolume: 0, rateBp: 150 }], validFrom: "2026-01-01", ...body },
  });

describe("rebate rule pickers (rebate/rules/options)", () => {
  it("a sub-account with only the rebate page lists its merchant's goods and docked purchasers and sets a rule; nobody else's appear", async () => {
    const supplier = await registerMerchant(t, { orgName: "Options Supplier" });
    const brand = await newBrand(t, supplier, "Options Brand");
    const monthly = await newGoods(t, supplier, brand.id, { name: "Options monthly card" });
    const yearly = await newGoods(t, supplier, brand.id, { name: "Options yearly card" });
    const { buyer } = await dock(t, supplier, await registerMerchant(t, { orgName: "Options Buyer" }));
    // A purchaser that only applied (not approved) is not yet one a rule may name.
    const applicant = await registerMerchant(t, { orgName: "Options Applicant" });
    await markVerified(t, applicant.merchantId);
    expect(
      (
        await t.call("POST", "/api/card-user/abutment/brander/apply", {
          token: applicant.token,
          body: { supplierId: supplier.merchantId },
        })
      ).body.code,
    ).toBe(1);

    // Another supplier with goods of the same words and its own docked purchaser.
    const rival = await registerMerchant(t, { orgName: "Options Rival" });
    const rivalGoods = await newGoods(t, rival, (await newBrand(t, rival, "Rival Brand")).id, {
      name: "Options monthly card",
    });
    const { buyer: rivalBuyer } = await dock(t, rival, await registerMerchant(t, { orgName: "Rival Buyer" }));

    const clerk = await addSubAccount(t, supplier.token, ["business/ProcurementLiaison"]);
    // The clerk holds no goods page: the goods search the dialog used to read is refused to it.
    expect((await t.call("GET", "/api/card-brander/product/search?pageSize=50", { token: clerk.token })).status).toBe(
      403,
    );

    const all = await goodsOptions(clerk.token);
    expect(all.status).toBe(200);
    expect(all.body.data).toEqual([
      { id: String(yearly.id), name: "Options yearly card" },
      { id: String(monthly.id), name: "Options monthly card" },
    ]);
    expect((await goodsOptions(clerk.token, "monthly")).body.data).toEqual([
      { id: String(monthly.id), name: "Options monthly card" },
    ]);
    expect((await goodsOptions(clerk.token, String(yearly.id))).body.data.map((o) => o.id)).toEqual([
      String(yearly.id),
    ]);
    // Another merchant's goods never appear, not even by its id.
    expect((await goodsOptions(clerk.token, String(rivalGoods.id))).body.data).toEqual([]);
    expect((await purchaserOptions(clerk.token)).body.data).toEqual([{ id: buyer.merchantId, name: "Options Buyer" }]);

    // The rules' other page (VendorWhiteList) reaches the pickers too, though not the docking list.
    const listClerk = await addSubAccount(t, supplier.token, ["business/VendorWhiteList"]);
    expect(
      (
        await t.call("GET", "/api/card-user/abutment/brander/apply?side=supplier&status=approved", {
          token: listClerk.token,
        })
      ).status,
    ).toBe(403);
    expect((await purchaserOptions(listClerk.token)).body.data).toEqual([
      { id: buyer.merchantId, name: "Options Buyer" },
    ]);
    expect((await goodsOptions(listClerk.token)).body.data).toHaveLength(2);

    // The rival sees its own and nothing of the supplier's.
    expect((await goodsOptions(rival.token)).body.data).toEqual([
      { id: String(rivalGoods.id), name: "Options monthly card" },
    ]);
    expect((await purchaserOptions(rival.token)).body.data).toEqual([
      { id: rivalBuyer.merchantId, name: "Rival Buyer" },
    ]);

    // The clerk sets a rule for the docked purchaser and one goods; the owner reads it.
    const rule = await addRule(clerk.token, { purchaserId: buyer.merchantId, goodsId: String(monthly.id) });
    expect(rule.body.code, rule.body.msg).toBe(1);
    // The list names them itself (goods beyond the picker's first 50 too).
    expect(rule.body.data).toMatchObject({
      supplierId: supplier.merchantId,
      purchaserId: buyer.merchantId,
      purchaserName: "Options Buyer",
      goodsId: String(monthly.id),
      goodsName: "Options monthly card",
    });
    expect(
      (await t.call<RebateRule[]>("GET", "/api/card-brander/rebate/rules", { token: supplier.token })).body.data.map(
        (r) => r.id,
      ),
    ).toEqual([rule.body.data.id]);

    // A rule may not name another merchant's goods.
    const foreign = await addRule(clerk.token, { goodsId: String(rivalGoods.id) });
    expect([foreign.status, foreign.body.msg]).toEqual([400, "The goods does not exist"]);
    expect(
      (await t.call<RebateRule[]>("GET", "/api/card-brander/rebate/rules", { token: supplier.token })).body.data,
    ).toHaveLength(1);

    // A keyword longer than the goods search takes is refused.
    expect((await goodsOptions(clerk.token, "x".repeat(101))).status).toBe(400);
  });

  it("a sub-account without the rebate page is refused the pickers and the rules", async () => {
    const supplier = await registerMerchant(t, { orgName: "Options Owner" });
    await newGoods(t, supplier, (await newBrand(t, supplier, "Owner Brand")).id, { name: "Owner card" });
    const other = await addSubAccount(t, supplier.token, ["business/BasicInfo"]);
    expect((await goodsOptions(other.token)).status).toBe(403);
    expect((await purchaserOptions(other.token)).status).toBe(403);
    expect((await addRule(other.token, {})).status).toBe(403);
    expect((await t.call("GET", "/api/card-brander/rebate/rules/options/goods")).status).toBe(401);
    expect(
      (await t.call<RebateRule[]>("GET", "/api/card-brander/rebate/rules", { token: supplier.token })).body.data,
    ).toEqual([]);
  });
});
