import type { Brand } from "@tessera/contracts";
import { beforeAll, describe, expect, it } from "vitest";
import { dock, markVerified } from "../../../test/docking";
import { registerMerchant } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { fundSup } from "../../../test/money";
import { registerOperator } from "../../../test/operators";
import { importFile, newBrand, newGoods, newMerchant, type TestMerchant } from "../../../test/kit/catalog-fixtures";
import { pngImage, submitRealName, upload, VALID_FIELDS } from "../../../test/kit/onboarding-fixtures";
import { cardCsv } from "../../../test/kit/cards";

/**
 * Issue 25 item 1: the required states of spec 01 §6 (real-name verified, the docking agreement signed)
 * and one market per docking, held by the server on docking, purchase applications and orders, for both
 * versions. Every refusal changes nothing.
 */
const t = useTestApp();
let ops: { token: string };
let supplier: TestMerchant;
let brand: Brand;
beforeAll(async () => {
  ops = await registerOperator(t);
  supplier = await newMerchant(t, "Verified Supplier Co");
  await markVerified(t, supplier.merchantId);
  brand = await newBrand(t, supplier, "Required States");
});

let seq = 0;
const orderNo = () => `RS${Date.now()}${++seq}`;
const csv = (n: number, prefix: string) => cardCsv(n, (i) => `${prefix}${String(i).padStart(6, "0")},SECRET${i},`);
const dockings = async (token: string) =>
  (await t.call<{ total: number }>("GET", "/api/card-user/abutment/brander/apply", { token })).body.data.total;
const apply = (token: string, supplierId: string, lang: "cn" | "tw" | "en" = "en") =>
  t.call<{ id: string }>("POST", "/api/card-user/abutment/brander/apply", { token, body: { supplierId }, lang });
const realNameState = async (token: string) =>
  (await t.call<{ merchant: { realNameState: string } }>("GET", "/api/card-user/userInfo", { token })).body.data
    .merchant.realNameState;
const setState = (merchantId: string, state: "verified" | "expired" | "not_verified") =>
  t.ctx.database.db
    .updateTable("merchants")
    .set({ real_name_state: state })
    .where("id", "=", Number(merchantId))
    .execute();

/** The real-name flow as an international organisation goes through it: documents, passport number, operator approval. */
async function verifyThroughReview(m: { token: string; merchantId: string }, overrides: Record<string, string>) {
  const submitted = await submitRealName(t, m.token, overrides);
  expect(submitted.body.code, submitted.body.msg).toBe(1);
  const items = await t.call<{ list: { id: string }[] }>(
    "GET",
    `/api/ops/queues/realName/items?state=pending&merchantId=${m.merchantId}`,
    { token: ops.token },
  );
  const item = items.body.data.list[0];
  if (!item) throw new Error("no pending real-name item");
  expect(
    (await t.call("POST", `/api/ops/queues/realName/items/${item.id}/approve`, { token: ops.token })).body.code,
  ).toBe(1);
}

describe("real-name verification of international organisations", () => {
  it("a Hong Kong company verifies with its registration and passport numbers, reviewed by the operator", async () => {
    const hk = await registerMerchant(t, {
      version: "international",
      country: "HK",
      currency: "HKD",
      orgName: "Harbour Lights Ltd",
    });
    expect(await realNameState(hk.token)).toBe("not_verified");
    await verifyThroughReview(hk, {
      companyName: "Harbour Lights Limited",
      licenseNumber: "2345678",
      legalName: "Chan Tai Man",
      legalIdNumber: "K123456(7)",
    });
    expect(await realNameState(hk.token)).toBe("verified");
    const info = await t.call<{ latest: { legalIdNumber: string; companyName: string } }>(
      "GET",
      "/api/card-brander/realNameInfo",
      { token: hk.token },
    );
    expect(info.body.data.latest.companyName).toBe("Harbour Lights Limited");
  });

  it("a domestic merchant still needs a mainland national ID: a passport number is refused, in three languages", async () => {
    const m = await registerMerchant(t);
    const expected = {
      cn: "请输入正确的身份证号（15或18位）",
      tw: "請輸入正確的身份證號（15或18位）",
      en: "Please enter a correct national ID number (15 or 18 digits)",
    };
    const img = await pngImage();
    const docs = {
      licenseDocumentId: await upload(t, m.token, "license", img),
      idFrontDocumentId: await upload(t, m.token, "id_front", img),
      idBackDocumentId: await upload(t, m.token, "id_back", img),
    };
    for (const lang of ["cn", "tw", "en"] as const) {
      const res = await t.call<{ field: string }>("POST", "/api/card-user/realNameAuths", {
        token: m.token,
        lang,
        body: { ...docs, ...VALID_FIELDS, legalIdNumber: "E12345678" },
      });
      expect(res.status).toBe(400);
      expect(res.body.msg).toBe(expected[lang]);
      expect(res.body.data.field).toBe("legalIdNumber");
    }
    expect(await realNameState(m.token)).toBe("not_verified");
    expect(
      (await t.call<{ latest: unknown }>("GET", "/api/card-brander/realNameInfo", { token: m.token })).body.data.latest,
    ).toBeNull();
  });
});

describe("docking needs both sides verified and one market", () => {
  it("an unverified purchaser is refused, in three languages, and no docking is made", async () => {
    const buyer = await registerMerchant(t, { orgName: "Unverified Buyer" });
    const expected = {
      cn: "请先完成实名认证并通过审核，再申请对接",
      tw: "請先完成實名認證並通過審核，再申請對接",
      en: "Complete your real-name verification (approved) before docking",
    };
    for (const lang of ["cn", "tw", "en"] as const) {
      const res = await apply(buyer.token, supplier.merchantId, lang);
      expect(res.status).toBe(409);
      expect(res.body.msg).toBe(expected[lang]);
    }
    expect(await dockings(buyer.token)).toBe(0);
    expect(await dockings(supplier.token)).toBe(0);
  });

  it("a verified purchaser cannot dock with an unverified supplier", async () => {
    const buyer = await registerMerchant(t, { orgName: "Verified Buyer" });
    await markVerified(t, buyer.merchantId);
    const unverified = await newMerchant(t, "Unverified Supplier");
    const res = await apply(buyer.token, unverified.merchantId);
    expect(res.status).toBe(409);
    expect(res.body.msg).toBe(
      "The other merchant has not passed real-name verification yet, so you cannot dock with it",
    );
    expect(await dockings(buyer.token)).toBe(0);
  });

  it("international (USD/HKD) and domestic (CNY) merchants never dock, either way; USD and HKD neither", async () => {
    const usd = await registerMerchant(t, {
      version: "international",
      country: "SG",
      currency: "USD",
      orgName: "Lion City Pte",
    });
    const hkd = await registerMerchant(t, {
      version: "international",
      country: "HK",
      currency: "HKD",
      orgName: "Kowloon Ltd",
    });
    const domesticBuyer = await registerMerchant(t, { orgName: "Domestic Buyer" });
    for (const m of [usd, hkd, domesticBuyer]) await markVerified(t, m.merchantId);
    const message =
      "You can only dock with merchants of your own version and settlement currency (international: USD or HKD; domestic: CNY)";
    for (const [buyer, target] of [
      [usd, supplier],
      [domesticBuyer, usd],
      [usd, hkd],
    ] as const) {
      const res = await apply(buyer.token, target.merchantId);
      expect(res.status).toBe(409);
      expect(res.body.msg).toBe(message);
    }
    const tw = await apply(usd.token, supplier.merchantId, "tw");
    expect(tw.body.msg).toBe("只能與同一版本、同一結算幣種的商戶對接（國際版：美元或港幣；國內版：人民幣）");
    for (const m of [usd, hkd, domesticBuyer, supplier]) expect(await dockings(m.token)).toBe(0);
  });

  it("two verified international merchants of one currency dock; approving and signing re-check the states", async () => {
    const buyer = await registerMerchant(t, {
      version: "international",
      country: "GB",
      currency: "USD",
      orgName: "Thames Buyer Ltd",
    });
    const seller = await registerMerchant(t, {
      version: "international",
      country: "US",
      currency: "USD",
      orgName: "Hudson Supply Inc",
    });
    for (const m of [buyer, seller]) await markVerified(t, m.merchantId);
    const applied = await apply(buyer.token, seller.merchantId);
    expect(applied.body.code).toBe(1);
    // The purchaser's verification lapses before the supplier approves: the approval is refused.
    await setState(buyer.merchantId, "expired");
    const approve = await t.call("POST", `/api/card-user/abutment/brander/review/${applied.body.data.id}`, {
      token: seller.token,
      body: { approve: true },
      lang: "en",
    });
    expect(approve.status).toBe(409);
    expect(approve.body.msg).toBe(
      "The other merchant has not passed real-name verification yet, so you cannot dock with it",
    );
    const list = await t.call<{ list: { status: string }[] }>("GET", "/api/card-user/abutment/brander/apply", {
      token: seller.token,
    });
    expect(list.body.data.list[0]?.status).toBe("pending_review");
    await setState(buyer.merchantId, "verified");
    expect(
      (
        await t.call("POST", `/api/card-user/abutment/brander/review/${applied.body.data.id}`, {
          token: seller.token,
          body: { approve: true },
        })
      ).body.code,
    ).toBe(1);
  });
});

describe("purchase applications and orders need the purchaser verified", () => {
  it("an unverified purchaser cannot apply for purchase; nothing is made", async () => {
    const goods = await newGoods(t, supplier, brand.id, {
      name: "Application goods",
      price: 900,
      settlementPrice: 800,
    });
    const buyer = await registerMerchant(t, { orgName: "Applying Buyer" });
    const res = await t.call("POST", "/api/card-user/purchaseApplications", {
      token: buyer.token,
      body: { goodsId: String(goods.id) },
      lang: "en",
    });
    expect(res.status).toBe(409);
    expect(res.body.msg).toBe("Complete your real-name verification (approved) before purchasing");
    const mine = await t.call<{ total: number }>("GET", "/api/card-user/purchaseApplications", { token: buyer.token });
    expect(mine.body.data.total).toBe(0);
  });

  it("an international purchaser cannot apply for a domestic supplier's goods (another currency)", async () => {
    const goods = await newGoods(t, supplier, brand.id, { name: "CNY goods", price: 900, settlementPrice: 800 });
    const intl = await registerMerchant(t, {
      version: "international",
      country: "FR",
      currency: "USD",
      orgName: "Seine SARL",
    });
    await markVerified(t, intl.merchantId);
    const res = await t.call("POST", "/api/card-user/purchaseApplications", {
      token: intl.token,
      body: { goodsId: String(goods.id) },
      lang: "en",
    });
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe("The goods is priced in another currency than yours");
  });

  it("a docked purchaser whose verification expired cannot order: no order, no money moved, no code taken", async () => {
    const goods = await newGoods(t, supplier, brand.id, { name: "Expiry goods", price: 500, settlementPrice: 450 });
    await importFile(t, supplier.token, goods.id, "cards.csv", csv(2, "RSX"));
    const { buyer } = await dock(t, supplier);
    await fundSup(t, buyer, 5_000);
    await setState(buyer.merchantId, "expired");
    const body = { goodsId: String(goods.id), quantity: 1, orderNo: orderNo() };
    const refused = await t.call("POST", "/api/card-user/orders", { token: buyer.token, body, lang: "en" });
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toBe("Complete your real-name verification (approved) before purchasing");
    const balances = await t.call<{ balances: { sup: { amount: number } } }>("GET", "/api/card-user/userInfo", {
      token: buyer.token,
    });
    expect(balances.body.data.balances.sup.amount).toBe(5_000);
    expect(
      (await t.call<{ total: number }>("GET", "/api/card-user/orders", { token: buyer.token })).body.data.total,
    ).toBe(0);
    // Verified again: the same order goes through.
    await setState(buyer.merchantId, "verified");
    expect((await t.call("POST", "/api/card-user/orders", { token: buyer.token, body })).body.code).toBe(1);
  });
});
