import type { Brand, Goods, GoodsReq } from "@tessera/contracts";
import { registerMerchant } from "./accounts";
import type { Caller } from "./call";

/** Test helpers of the catalog and supply tests (not a test file itself), over any transport (kit/call.ts). */

export interface TestMerchant {
  token: string;
  merchantId: string;
  userId: string;
  email: string;
}

export async function newMerchant(
  t: Caller,
  orgName = "Supplier Ltd",
  version: "domestic" | "international" = "domestic",
): Promise<TestMerchant> {
  return registerMerchant(t, { orgName, version });
}

export async function newBrand(
  t: Caller,
  m: TestMerchant,
  name = `Brand ${Math.random().toString(36).slice(2, 8)}`,
): Promise<Brand> {
  const res = await t.call<Brand>("POST", "/api/card-brander/brander/update", {
    token: m.token,
    body: { name, description: "test brand" },
  });
  if (res.body.code !== 1) throw new Error(`brand: ${res.body.msg}`);
  return res.body.data;
}

let codeSeq = 0;
export function goodsBody(brandId: number, overrides: Partial<GoodsReq> = {}): Record<string, unknown> {
  codeSeq += 1;
  return {
    name: "Video VIP monthly",
    brandId,
    businessType: "card_secret",
    equityType: "video",
    faceValue: 3000,
    code: `SKU-${codeSeq}-${Math.random().toString(36).slice(2, 7)}`,
    perOrderMax: 10,
    invoiceType: "vat_6",
    price: 2700,
    settlementPrice: 2500,
    ...overrides,
  };
}

export async function newGoods(
  t: Caller,
  m: TestMerchant,
  brandId: number,
  overrides: Partial<GoodsReq> = {},
): Promise<Goods> {
  const res = await t.call<Goods>("POST", "/api/card-brander/product/add", {
    token: m.token,
    body: goodsBody(brandId, overrides),
  });
  if (res.body.code !== 1) throw new Error(`goods: ${res.body.msg}`);
  return res.body.data;
}

/** Posts an import file as the raw body, the way the web page does. */
export async function importFile(
  t: Caller,
  token: string,
  goodsId: number,
  fileName: string,
  data: Buffer | string,
  lang: "cn" | "tw" | "en" = "en",
) {
  const isCsv = fileName.endsWith(".csv");
  const res = await t.call<{ id: number; imported: number; rejected: number; totalRows: number; status: string }>(
    "POST",
    `/api/card-brander/sup/merchandises/${goodsId}/cards?fileName=${encodeURIComponent(fileName)}`,
    {
      token,
      lang,
      headers: {
        "content-type": isCsv ? "text/csv" : "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      },
      body: data,
    },
  );
  return { status: res.status, body: res.body };
}
