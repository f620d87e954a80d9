import type { Brand, BranderReply, CostReply, Goods, ImageReply, Merchandise, Page } from "@tessera/contracts";
import ExcelJS from "exceljs";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { dock } from "../../../test/docking";
import { registerMerchant, STRONG_PASSWORD, uniqueEmail } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import {
  goodsBody,
  importFile,
  newBrand,
  newGoods,
  newMerchant,
  type TestMerchant,
} from "../../../test/kit/catalog-fixtures";

const t = useTestApp();
let a: TestMerchant;
let b: TestMerchant;
let brandA: Brand;
let brandB: Brand;

beforeAll(async () => {
  a = await newMerchant(t, "Alpha Supply");
  b = await newMerchant(t, "Beta Supply");
  brandA = await newBrand(t, a, "Alpha Video");
  brandB = await newBrand(t, b, "Beta Music");
});

describe("brands", () => {
  it("brander shows the merchant and its brands; update renames; names are unique per brander", async () => {
    const res = await t.call<BranderReply>("GET", "/api/card-brander/brander", { token: a.token });
    expect(res.body).toMatchObject({
      code: 1,
      data: { merchantId: a.merchantId, name: "Alpha Supply", currency: "CNY" },
    });
    expect(res.body.data.brands.map((x) => x.name)).toEqual(["Alpha Video"]);

    const second = await newBrand(t, a, "Alpha Music");
    const renamed = await t.call<Brand>("POST", "/api/card-brander/brander/update", {
      token: a.token,
      body: { id: second.id, name: "Alpha Audio", description: "d" },
    });
    expect(renamed.body.data).toMatchObject({ id: second.id, name: "Alpha Audio", description: "d" });

    const taken = await t.call("POST", "/api/card-brander/brander/update", {
      token: a.token,
      lang: "en",
      body: { name: "alpha video" },
    });
    expect(taken.status).toBe(409);
    expect(taken.body.msg).toBe("A brand with this name already exists");
    // Another brander may use the same name.
    expect(
      (await t.call("POST", "/api/card-brander/brander/update", { token: b.token, body: { name: "Alpha Video" } })).body
        .code,
    ).toBe(1);

    const rights = await t.call<Brand[]>("GET", "/api/card-brander/brandRights", { token: a.token });
    expect(rights.body.data.map((x) => x.name).sort()).toEqual(["Alpha Audio", "Alpha Video"]);
  });

  it("refuses an empty name in three languages and someone else's brand id", async () => {
    const msgs = { cn: "品牌名称不能为空", tw: "品牌名稱不能為空", en: "Brand name cannot be empty" };
    for (const lang of ["cn", "tw", "en"] as const) {
      const res = await t.call("POST", "/api/card-brander/brander/update", {
        token: a.token,
        lang,
        body: { name: "  " },
      });
      expect(res.status).toBe(400);
      expect(res.body.msg).toBe(msgs[lang]);
    }
    const foreign = await t.call("POST", "/api/card-brander/brander/update", {
      token: a.token,
      body: { id: brandB.id, name: "Hijack" },
    });
    expect(foreign.status).toBe(404);
    const still = await t.call<BranderReply>("GET", "/api/card-brander/brander", { token: b.token });
    expect(still.body.data.brands.find((x) => x.id === brandB.id)?.name).toBe("Beta Music");
  });

  it("needs a session", async () => {
    expect((await t.call("GET", "/api/card-brander/brander")).status).toBe(401);
  });

  it("cardTypes lists business, equity and invoice types", async () => {
    const res = await t.call<{
      businessTypes: { value: string; selection: string; cardStock: boolean }[];
      invoiceTypes: string[];
    }>("GET", "/api/card-brander/cardTypes", { token: a.token });
    expect(res.body.data.businessTypes).toHaveLength(10);
    expect(res.body.data.businessTypes.find((x) => x.value === "card_secret")).toEqual({
      value: "card_secret",
      selection: "card",
      cardStock: true,
    });
    expect(res.body.data.businessTypes.find((x) => x.value === "top_up")).toEqual({
      value: "top_up",
      selection: "direct",
      cardStock: false,
    });
    expect(res.body.data.invoiceTypes).toEqual([
      "ordinary_0",
      "ordinary_1",
      "ordinary_3",
      "vat_3",
      "vat_6",
      "vat_9",
      "vat_13",
    ]);
  });
});

describe("goods", () => {
  it("adds a goods with every §3 field and reads it back", async () => {
    const body = goodsBody(brandA.id, {
      name: "Tencent Video VIP 1 month",
      businessType: "top_up",
      equityType: "video",
      faceValue: 2500,
      price: 2300,
      settlementPrice: 2200,
      perOrderMax: 5,
      deductionAccount: "reserve",
      invoiceType: "ordinary_3",
      salesScope: "domestic",
      weight: 12,
      description: "Monthly membership",
      topUpRestrictions: "Mainland accounts only",
      arrivalQueryMethod: "order_status",
      topUpAccountType: "mobile",
      recommendationIndex: 80,
      salesIndex: 40,
      smartPurchase: true,
      lowStockThreshold: 0,
    });
    const res = await t.call<Goods>("POST", "/api/card-brander/product/add", { token: a.token, body });
    expect(res.body.code).toBe(1);
    expect(res.body.data).toMatchObject({
      ...body,
      brandName: "Alpha Video",
      currency: "CNY",
      supplierId: a.merchantId,
      supplierName: "Alpha Supply",
      discountBp: 9200,
      platformRateBp: 0,
      state: "available",
      stock: 0,
      images: [],
    });
    const read = await t.call<Goods>("GET", `/api/card-brander/product/${res.body.data.id}`, { token: a.token });
    expect(read.body.data).toEqual(res.body.data);
  });

  const invalidCases: [string, Record<string, unknown>, string, string][] = [
    ["empty name", { name: "" }, "Goods name cannot be empty", "name"],
    ["zero face value", { faceValue: 0 }, "The face value must be an amount greater than 0", "faceValue"],
    ["fractional price", { price: 10.5 }, "The price must be an amount greater than 0", "price"],
    [
      "settlement above price",
      { price: 100, settlementPrice: 101 },
      "The settlement base price must be at least 0 and not above the price",
      "settlementPrice",
    ],
    ["per order 0", { perOrderMax: 0 }, "The quantity per order must be a whole number from 1 to 10000", "perOrderMax"],
    ["index 101", { recommendationIndex: 101 }, "An index must be a whole number from 0 to 100", "recommendationIndex"],
    ["bad code", { code: "has space" }, "The goods code must be 1-32 letters, digits, - or _", "code"],
    ["bad invoice type", { invoiceType: "vat_99" }, "Invalid parameter: invoiceType", "invoiceType"],
  ];
  for (const [name, overrides, msg, field] of invalidCases) {
    it(`refuses ${name}`, async () => {
      const before = await t.call<Page<Goods>>("GET", "/api/card-brander/product/search", { token: a.token });
      const res = await t.call("POST", "/api/card-brander/product/add", {
        token: a.token,
        lang: "en",
        body: { ...goodsBody(brandA.id), ...overrides },
      });
      expect(res.status).toBe(400);
      expect(res.body.msg).toBe(msg);
      expect(res.body.data).toEqual({ field });
      const after = await t.call<Page<Goods>>("GET", "/api/card-brander/product/search", { token: a.token });
      expect(after.body.data.total).toBe(before.body.data.total);
    });
  }

  it("refuses another brander's brand and a taken code", async () => {
    const foreign = await t.call("POST", "/api/card-brander/product/add", {
      token: a.token,
      lang: "cn",
      body: goodsBody(brandB.id),
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.msg).toBe("请选择品牌");
    const g = await newGoods(t, a, brandA.id, { code: "DUP-1" });
    const dup = await t.call("POST", "/api/card-brander/product/add", {
      token: a.token,
      lang: "tw",
      body: goodsBody(brandA.id, { code: "DUP-1" }),
    });
    expect(dup.status).toBe(409);
    expect(dup.body.msg).toBe("該商品編碼已存在");
    // A void goods frees its code.
    expect((await t.call("DELETE", `/api/card-brander/product/${g.id}`, { token: a.token })).body.code).toBe(1);
    expect(
      (
        await t.call("POST", "/api/card-brander/product/add", {
          token: a.token,
          body: goodsBody(brandA.id, { code: "DUP-1" }),
        })
      ).body.code,
    ).toBe(1);
  });

  it("searches with filters and pages; a supplier sees only its own goods", async () => {
    const brand = await newBrand(t, a, "Search Brand");
    for (let i = 0; i < 5; i++) {
      await newGoods(t, a, brand.id, {
        name: `Searchable ${i}`,
        equityType: i % 2 ? "music" : "game",
        invoiceType: "vat_13",
      });
    }
    await newGoods(t, b, brandB.id, { name: "Searchable of Beta" });
    const page1 = await t.call<Page<Goods>>(
      "GET",
      `/api/card-brander/product/search?keyword=searchable&pageSize=20&brandId=${brand.id}`,
      { token: a.token },
    );
    expect(page1.body.data.total).toBe(5);
    expect(page1.body.data.list.every((g) => g.supplierId === a.merchantId)).toBe(true);
    const music = await t.call<Page<Goods>>(
      "GET",
      `/api/card-brander/product/search?brandId=${brand.id}&equityType=music`,
      { token: a.token },
    );
    expect(music.body.data.list.map((g) => g.name).sort()).toEqual(["Searchable 1", "Searchable 3"]);
    const none = await t.call<Page<Goods>>("GET", "/api/card-brander/product/search?keyword=of%20Beta", {
      token: a.token,
    });
    expect(none.body.data.total).toBe(0);
    const exported = await t.app.inject({
      method: "GET",
      url: `/api/card-brander/product/export?brandId=${brand.id}&equityType=music`,
      headers: { "x-auth-token": a.token, lang: "en" },
    });
    expect(exported.headers["content-type"]).toContain("spreadsheetml");
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(exported.rawPayload as unknown as ArrayBuffer);
    const rows: unknown[][] = [];
    wb.worksheets[0]?.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    expect(rows[0]?.slice(0, 3)).toEqual(["Goods ID", "Name", "Code"]);
    expect(
      rows
        .slice(1)
        .map((r) => [r[1], r[5]])
        .sort(),
    ).toEqual([
      ["Searchable 1", "30.00 CNY"],
      ["Searchable 3", "30.00 CNY"],
    ]);
    const badSize = await t.call("GET", "/api/card-brander/product/search?pageSize=30", { token: a.token, lang: "en" });
    expect(badSize.status).toBe(400);
    expect(badSize.body.msg).toBe("Page size must be 20, 50, 100, 200 or 1000");
  });

  it("another supplier cannot read, update, delete or change the state of a goods", async () => {
    const g = await newGoods(t, a, brandA.id);
    expect((await t.call("GET", `/api/card-brander/product/${g.id}`, { token: b.token })).status).toBe(404);
    expect(
      (
        await t.call("POST", "/api/card-brander/product/update", {
          token: b.token,
          body: { ...goodsBody(brandB.id), id: g.id },
        })
      ).status,
    ).toBe(404);
    expect((await t.call("DELETE", `/api/card-brander/product/${g.id}`, { token: b.token })).status).toBe(404);
    expect(
      (await t.call("PUT", `/api/card-brander/product/${g.id}/state`, { token: b.token, body: { state: "disabled" } }))
        .status,
    ).toBe(404);
    expect((await t.call("GET", `/api/card-user/insupply/cost/${g.id}`, { token: b.token })).status).toBe(404);
    const still = await t.call<Goods>("GET", `/api/card-brander/product/${g.id}`, { token: a.token });
    expect(still.body.data).toMatchObject({ name: g.name, state: "available" });
  });

  it("updates, moves between states, and refuses to delete or re-price while codes are in stock", async () => {
    const g = await newGoods(t, a, brandA.id, { lowStockThreshold: 0 });
    const up = await t.call<Goods>("POST", "/api/card-brander/product/update", {
      token: a.token,
      body: { ...goodsBody(brandA.id, { code: g.code, name: "Renamed", price: 2800 }), id: g.id },
    });
    expect(up.body.data).toMatchObject({ id: g.id, name: "Renamed", price: 2800, discountBp: 9333 });

    const imp = await importFile(
      t,
      a.token,
      g.id,
      "codes.csv",
      "cardNumber,cardSecret,expiryDate\nNUM-0001,SEC-1,\nNUM-0002,SEC-2,\n",
    );
    expect(imp.body.data.imported).toBe(2);

    const del = await t.call("DELETE", `/api/card-brander/product/${g.id}`, { token: a.token, lang: "en" });
    expect(del.status).toBe(409);
    expect(del.body.msg).toBe("This goods still has 2 card secrets in stock; void the stock first");
    const reprice = await t.call("POST", "/api/card-brander/product/update", {
      token: a.token,
      lang: "en",
      body: { ...goodsBody(brandA.id, { code: g.code, faceValue: 5000 }), id: g.id },
    });
    expect(reprice.status).toBe(409);
    expect(reprice.body.msg).toBe("The face value and business type cannot change while the goods has stock");

    const disabled = await t.call<Goods>("PUT", `/api/card-brander/product/${g.id}/state`, {
      token: a.token,
      body: { state: "disabled" },
    });
    expect(disabled.body.data.state).toBe("disabled");
    const cards = await t.call<Page<{ id: number }>>("GET", `/api/card-brander/sup/merchandises/${g.id}/cards`, {
      token: a.token,
    });
    await t.call("POST", `/api/card-brander/sup/merchandises/${g.id}/cards/void`, {
      token: a.token,
      body: { ids: cards.body.data.list.map((c) => c.id) },
    });
    expect((await t.call("DELETE", `/api/card-brander/product/${g.id}`, { token: a.token })).body.code).toBe(1);
    const back = await t.call("PUT", `/api/card-brander/product/${g.id}/state`, {
      token: a.token,
      lang: "en",
      body: { state: "available" },
    });
    expect(back.status).toBe(409);
    expect(back.body.msg).toBe("The goods state cannot change from void to available");
    const edit = await t.call("POST", "/api/card-brander/product/update", {
      token: a.token,
      lang: "en",
      body: { ...goodsBody(brandA.id, { code: g.code }), id: g.id },
    });
    expect(edit.body.msg).toBe("This goods is void and can no longer be changed");
  });
});

describe("sub-accounts", () => {
  it("reach goods only through the pages they were given", async () => {
    const sub = async (menus: string[]) => {
      const email = uniqueEmail("sub");
      const added = await t.call("POST", "/api/card-brander/passport/sub/add", {
        token: a.token,
        body: { email, name: "Clerk", password: STRONG_PASSWORD, menus },
      });
      expect(added.body.code, added.body.msg).toBe(1);
      const login = await t.call<{ token: string }>("POST", "/api/card-user/login", {
        body: { email, password: STRONG_PASSWORD },
      });
      return login.body.data.token;
    };
    const goodsClerk = await sub(["business/SuppliedProducts"]);
    const fundsClerk = await sub(["business/ChangesFunds"]);
    const buyerClerk = await sub(["sale/CarmiGoodsList"]);
    const own = await t.call<Page<Goods>>("GET", "/api/card-brander/product/search", { token: goodsClerk });
    expect(own.status).toBe(200);
    expect(own.body.data.list.every((g) => g.supplierId === a.merchantId)).toBe(true);
    expect((await t.call("GET", "/api/card-brander/product/search", { token: fundsClerk })).status).toBe(403);
    expect((await t.call("GET", "/api/card-brander/sup/purchaseCardRecords", { token: fundsClerk })).status).toBe(403);
    expect((await t.call("GET", "/api/card-user/merchandises?type=card", { token: goodsClerk })).status).toBe(403);
    expect((await t.call("GET", "/api/card-user/merchandises?type=card", { token: buyerClerk })).status).toBe(200);
  });
});

describe("images", () => {
  it("uploads an image, makes a thumbnail, serves both, and accepts the key on a goods", async () => {
    const png = await sharp({ create: { width: 800, height: 600, channels: 3, background: { r: 200, g: 40, b: 40 } } })
      .png()
      .toBuffer();
    const boundary = "----tessera";
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      png,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await t.app.inject({
      method: "POST",
      url: "/api/card-brander/product/images",
      headers: { "x-auth-token": a.token, "content-type": `multipart/form-data; boundary=${boundary}` },
      payload,
    });
    const img = res.json<{ code: number; data: ImageReply }>().data;
    expect(img).toMatchObject({ width: 800, height: 600 });
    const full = await t.app.inject({ method: "GET", url: img.url });
    expect(full.statusCode).toBe(200);
    expect(full.rawPayload.equals(png)).toBe(true);
    const thumb = await t.app.inject({ method: "GET", url: img.thumbUrl });
    expect(thumb.headers["content-type"]).toBe("image/webp");
    const meta = await sharp(thumb.rawPayload).metadata();
    expect([meta.width, meta.height]).toEqual([320, 240]);

    const g = await newGoods(t, a, brandA.id, { images: [img.key] });
    expect(g.images).toEqual([{ key: img.key, url: img.url, thumbUrl: img.thumbUrl }]);
    // Another supplier cannot attach someone else's image.
    const foreign = await t.call("POST", "/api/card-brander/product/add", {
      token: b.token,
      lang: "en",
      body: goodsBody(brandB.id, { images: [img.key] }),
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.msg).toBe("The image was not found; please upload it again");
  });

  it("refuses a file that is not an image", async () => {
    const boundary = "----tessera";
    const payload = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\nnot an image\r\n--${boundary}--\r\n`;
    const res = await t.app.inject({
      method: "POST",
      url: "/api/card-brander/product/images",
      headers: { "x-auth-token": a.token, lang: "en", "content-type": `multipart/form-data; boundary=${boundary}` },
      payload,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ msg: string }>().msg).toBe("Only JPG, PNG, WebP or GIF images up to 5 MB are accepted");
  });
});

describe("in-supply merchandise", () => {
  it("updates supply terms, adds combo children and computes the cost", async () => {
    const child = await newGoods(t, a, brandA.id, { settlementPrice: 1000, price: 1200, faceValue: 1500 });
    const combo = await newGoods(t, a, brandA.id, {
      businessType: "combo",
      price: 5000,
      settlementPrice: 4000,
      faceValue: 6000,
    });
    const put = await t.call<Goods>("PUT", `/api/card-user/insupply/merchandise/${combo.id}`, {
      token: a.token,
      body: { price: 5200, weight: 7 },
    });
    expect(put.body.data).toMatchObject({ price: 5200, weight: 7 });
    const cost = await t.call<CostReply>("POST", "/api/card-user/insupply/merchandise/child", {
      token: a.token,
      body: { inSupplyMerchandiseId: combo.id, childId: child.id, quantity: 2 },
    });
    expect(cost.body.data).toMatchObject({
      price: 5200,
      settlementPrice: 4000,
      platformRateBp: 0,
      platformFee: 0,
      childrenCost: 2000,
      margin: 1200,
      children: [{ id: child.id, quantity: 2, settlementPrice: 1000, cost: 2000 }],
    });
    const notCombo = await t.call("POST", "/api/card-user/insupply/merchandise/child", {
      token: a.token,
      lang: "en",
      body: { inSupplyMerchandiseId: child.id, childId: combo.id },
    });
    expect(notCombo.body.msg).toBe("Only combo goods can have child items");
    const foreignChild = await newGoods(t, b, brandB.id);
    const foreign = await t.call("POST", "/api/card-user/insupply/merchandise/child", {
      token: a.token,
      lang: "en",
      body: { inSupplyMerchandiseId: combo.id, childId: foreignChild.id },
    });
    expect(foreign.body.msg).toBe("A child item must be another non-combo goods of your own");
    const list = await t.call<Page<Goods>>("GET", "/api/card-user/insupply/merchandises?keyword=" + combo.code, {
      token: a.token,
    });
    expect(list.body.data.list.map((g) => g.id)).toEqual([combo.id]);
    expect(
      (await t.call("DELETE", `/api/card-user/insupply/merchandise/${combo.id}`, { token: a.token })).body.code,
    ).toBe(1);
    expect(
      (await t.call<Goods>("GET", `/api/card-user/insupply/merchandise/${combo.id}`, { token: a.token })).body.data
        .state,
    ).toBe("void");
  });
});

describe("goods selection", () => {
  it("lists goods on sale by type with brand, keyword, equity, face value and invoice filters, sorted", async () => {
    const s = await newMerchant(t, "Select Supply");
    const brand = await newBrand(t, s, "Selecta");
    const g1 = await newGoods(t, s, brand.id, {
      name: "Selecta card 50",
      faceValue: 5000,
      price: 4800,
      settlementPrice: 4500,
      recommendationIndex: 10,
      salesIndex: 90,
      invoiceType: "vat_6",
    });
    const g2 = await newGoods(t, s, brand.id, {
      name: "Selecta card 100",
      faceValue: 10000,
      price: 9500,
      settlementPrice: 9000,
      recommendationIndex: 90,
      salesIndex: 10,
      invoiceType: "vat_13",
      equityType: "game",
    });
    const off = await newGoods(t, s, brand.id, { name: "Selecta card off" });
    await t.call("PUT", `/api/card-brander/product/${off.id}/state`, { token: s.token, body: { state: "disabled" } });
    await newGoods(t, s, brand.id, { name: "Selecta topup", businessType: "top_up" });
    const intl = await newGoods(t, s, brand.id, { name: "Selecta intl only", salesScope: "international" });

    const { buyer } = await dock(t, s, await registerMerchant(t, { orgName: "Buyer Co" }));
    const q = (qs: string) =>
      t.call<Page<Merchandise>>("GET", `/api/card-user/merchandises?type=card&brandId=${brand.id}${qs}`, {
        token: buyer.token,
      });
    expect((await q("")).body.data.list.map((g) => g.id)).toEqual([g2.id, g1.id]);
    expect((await q("&sort=sales")).body.data.list.map((g) => g.id)).toEqual([g1.id, g2.id]);
    expect((await q("&faceValue=5000")).body.data.list.map((g) => g.id)).toEqual([g1.id]);
    expect((await q("&invoiceType=vat_13")).body.data.list.map((g) => g.id)).toEqual([g2.id]);
    expect((await q("&equityType=game")).body.data.list.map((g) => g.id)).toEqual([g2.id]);
    expect((await q("&keyword=card%2050")).body.data.list.map((g) => g.id)).toEqual([g1.id]);
    expect((await q("")).body.data.list.some((g) => g.id === off.id || g.id === intl.id)).toBe(false);
    const direct = await t.call<Page<Merchandise>>(
      "GET",
      `/api/card-user/merchandises?type=direct&brandId=${brand.id}`,
      { token: buyer.token },
    );
    expect(direct.body.data.list.map((g) => g.name)).toEqual(["Selecta topup"]);

    const detail = await t.call<Merchandise>("GET", `/api/card-user/merchandises/${g1.id}`, { token: buyer.token });
    expect(detail.body.data).toMatchObject({
      id: g1.id,
      name: "Selecta card 50",
      brandName: "Selecta",
      supplierName: "Select Supply",
      price: 4800,
      discountBp: 9600,
    });
    expect(detail.body.data).not.toHaveProperty("settlementPrice");
    expect((await t.call("GET", `/api/card-user/merchandises/${off.id}`, { token: buyer.token })).status).toBe(404);
    expect((await t.call("GET", `/api/card-user/merchandises/${intl.id}`, { token: buyer.token })).status).toBe(404);

    const filters = await t.call<{ brands: { id: number; name: string }[]; faceValues: number[] }>(
      "GET",
      "/api/card-user/merchandises/filters?type=card",
      { token: buyer.token },
    );
    expect(filters.body.data.brands).toContainEqual({ id: brand.id, name: "Selecta" });
    expect(filters.body.data.faceValues).toEqual(expect.arrayContaining([5000, 10000]));

    const open = await t.call<Page<Merchandise>>("GET", `/api/card-api/openapi/product?type=card&brandId=${brand.id}`, {
      token: buyer.token,
    });
    expect(open.body.data.list.map((g) => g.id)).toEqual([g2.id, g1.id]);
    expect((await t.call("GET", "/api/card-api/openapi/product")).status).toBe(401);
  });
});

describe("goods selection shows a purchaser only goods it may buy", () => {
  const names = (r: { body: { data: Page<Merchandise> } }) => r.body.data.list.map((g) => g.name).sort();

  it("docked, brand-authorised or whitelisted suppliers' goods; nothing of the others, in lists, filters, detail and the open API", async () => {
    const docked = await newMerchant(t, "Docked Supply");
    const authorising = await newMerchant(t, "Authorising Brand");
    const listing = await newMerchant(t, "Listing Supply");
    const stranger = await newMerchant(t, "Stranger Supply");
    const [bd, ba, bl, bs] = await Promise.all([
      newBrand(t, docked, "MB Docked"),
      newBrand(t, authorising, "MB Auth"),
      newBrand(t, listing, "MB List"),
      newBrand(t, stranger, "MB Stranger"),
    ]);
    await newGoods(t, docked, bd.id, { name: "MB docked goods", faceValue: 1100, price: 1100, settlementPrice: 1000 });
    await newGoods(t, authorising, ba.id, {
      name: "MB authorised goods",
      faceValue: 1200,
      price: 1200,
      settlementPrice: 1000,
    });
    const listed = await newGoods(t, listing, bl.id, {
      name: "MB listed goods",
      faceValue: 1300,
      price: 1300,
      settlementPrice: 1000,
    });
    const unlisted = await newGoods(t, listing, bl.id, {
      name: "MB unlisted goods",
      faceValue: 1400,
      price: 1400,
      settlementPrice: 1000,
    });
    const hidden = await newGoods(t, stranger, bs.id, {
      name: "MB stranger goods",
      faceValue: 1500,
      price: 1500,
      settlementPrice: 1000,
    });

    const buyer = await registerMerchant(t, { orgName: "Picky Buyer" });
    const other = await registerMerchant(t, { orgName: "Other Buyer" });
    const list = (token: string) =>
      t.call<Page<Merchandise>>("GET", "/api/card-user/merchandises?type=card&keyword=MB%20&pageSize=100", { token });
    // At first the purchaser may buy nothing here: the list, the filters and the detail are empty.
    expect((await list(buyer.token)).body.data).toMatchObject({ list: [], total: 0 });

    await dock(t, docked, buyer);
    await t.call("POST", "/api/card-user/brandAuth", {
      token: authorising.token,
      body: { granteeId: buyer.merchantId, kind: "purchaser" },
    });
    const entry = await t.call<{ id: string }>("POST", "/api/card-brander/whitelists", {
      token: listing.token,
      body: { purchaserId: buyer.merchantId, scope: "goods", goodsId: String(listed.id) },
    });
    expect(entry.body.code).toBe(1);

    const seen = await list(buyer.token);
    expect(names(seen)).toEqual(["MB authorised goods", "MB docked goods", "MB listed goods"]);
    expect(seen.body.data.total).toBe(3);
    // Another purchaser sees none of it: the rights are the buyer's own.
    expect((await list(other.token)).body.data.total).toBe(0);

    const filters = (token: string) =>
      t.call<{ brands: { id: number; name: string }[]; faceValues: number[] }>(
        "GET",
        "/api/card-user/merchandises/filters?type=card",
        { token },
      );
    const mine = (await filters(buyer.token)).body.data;
    expect(mine.brands.filter((b) => b.name.startsWith("MB ")).map((b) => b.name)).toEqual([
      "MB Auth",
      "MB Docked",
      "MB List",
    ]);
    expect(mine.faceValues).toEqual(expect.arrayContaining([1100, 1200, 1300]));
    expect(mine.faceValues).not.toContain(1500);
    expect((await filters(other.token)).body.data.brands.filter((b) => b.name.startsWith("MB "))).toEqual([]);

    expect((await t.call("GET", `/api/card-user/merchandises/${listed.id}`, { token: buyer.token })).status).toBe(200);
    for (const id of [unlisted.id, hidden.id]) {
      expect((await t.call("GET", `/api/card-user/merchandises/${id}`, { token: buyer.token })).status).toBe(404);
    }
    expect((await t.call("GET", `/api/card-user/merchandises/${listed.id}`, { token: other.token })).status).toBe(404);

    const open = await t.call<Page<Merchandise>>(
      "GET",
      "/api/card-api/openapi/product?type=card&keyword=MB%20&pageSize=100",
      { token: buyer.token },
    );
    expect(names(open)).toEqual(["MB authorised goods", "MB docked goods", "MB listed goods"]);

    // Removing the whitelist entry takes the goods out of the list at once.
    await t.call("DELETE", `/api/card-brander/whitelists/${entry.body.data.id}`, { token: listing.token });
    expect(names(await list(buyer.token))).toEqual(["MB authorised goods", "MB docked goods"]);
  });
});
