import type { Brand } from "@tessera/contracts";
import { dock } from "../docking";
import { registerMerchant, type TestApp } from "../harness";
import { fundSup } from "../money";
import { importFile, newBrand, newGoods, newMerchant, type TestMerchant } from "./catalog-fixtures";
import { serverWorld } from "./server-world";
import { newPhone } from "./world";
import { cardCsv } from "./cards";
import { refundExpiredCodes } from "../../src/modules/mall";
import type { VoucherExpiryDeps } from "../../src/modules/purchasing";

/** Test helpers of the mall tests (not a test file itself). */

/** The voucher-expiry job's needs as the app wires them: the mall pays back the customers of expired codes. */
export function voucherExpiryDeps(t: TestApp): VoucherExpiryDeps {
  return {
    db: t.ctx.database.db,
    clock: t.clock,
    handedOn: (tx, cardIds, now, refundedTo) => refundExpiredCodes(tx, t.ctx.payments, cardIds, now, refundedTo),
  };
}

let seq = 0;
export const key = () => `mall-${Date.now().toString(36)}-${++seq}`;
const csv = (n: number, prefix: string) =>
  cardCsv(n, (i) => `${prefix}${String(i).padStart(6, "0")},SECRET-${prefix}-${i},`);
export { newPhone } from "./world";

export interface Shop {
  supplier: TestMerchant;
  brand: Brand;
  purchaser: TestMerchant;
  cardGoodsId: number;
  topupGoodsId: number;
  appId: string;
  headers: Record<string, string>;
}

/**
 * A released mall: a supplier with card-secret goods (codes imported) and a top-up goods, a purchaser
 * docked with it and funded, and the purchaser's mini-program config released (rows of the miniprogram
 * module's tables, as its release leaves them).
 */
export async function newShop(
  t: TestApp,
  opts: { codes?: number; sup?: number; theme?: 1 | 2 | 3 | 4 } = {},
): Promise<Shop> {
  const supplier = await newMerchant(t, "Mall Supplier Co");
  const brand = await newBrand(t, supplier);
  const cardGoods = await newGoods(t, supplier, brand.id, { name: `Video VIP ${++seq}`, price: 2700 });
  const prefix = `MC${String(seq).padStart(3, "0")}${Math.random().toString(36).slice(2, 5).toUpperCase()}`;
  const imported = await importFile(t, supplier.token, cardGoods.id, "cards.csv", csv(opts.codes ?? 10, prefix));
  if (imported.body.code !== 1) throw new Error(`import: ${imported.body.msg}`);
  const topup = await newGoods(t, supplier, brand.id, {
    name: `Phone top-up ${seq}`,
    businessType: "top_up",
    price: 4900,
    faceValue: 5000,
  });
  const purchaser = await registerMerchant(t, { orgName: "Mall Purchaser Co" });
  await dock(t, supplier, purchaser);
  await fundSup(t, purchaser, opts.sup ?? 1_000_000);
  const appId = `wx${Math.random().toString(16).slice(2, 14)}${seq}`;
  await releaseConfig(t, Number(purchaser.merchantId), appId, opts.theme ?? 2);
  return {
    supplier,
    brand,
    purchaser,
    cardGoodsId: cardGoods.id,
    topupGoodsId: topup.id,
    appId,
    headers: { v: "1", "x-app-id": appId, "x-seller-id": purchaser.merchantId },
  };
}

export async function releaseConfig(
  t: TestApp,
  merchantId: number,
  appId: string,
  theme: 1 | 2 | 3 | 4,
): Promise<void> {
  const db = t.ctx.database.db;
  const now = new Date();
  const tpl = await db
    .insertInto("mp_templates")
    .values({ platform: "wechat", name: "Equity mall", user_version: "1.0.0", created_at: now, updated_at: now })
    .returning("id")
    .executeTakeFirstOrThrow();
  const cfg = await db
    .insertInto("mp_configs")
    .values({
      merchant_id: merchantId,
      platform: "wechat",
      config_code: appId,
      name: "Star Mall",
      template_id: tpl.id,
      theme,
      app_id: appId,
      created_by: 0,
      created_at: now,
      updated_at: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const appearance = {
    configId: cfg.id,
    merchantId,
    platform: "wechat",
    appId,
    name: "Star Mall",
    template: "Equity mall",
    theme,
    navMenus: [
      { title: "Video", target: "goods" },
      { title: "Packs", target: "bags" },
    ],
    bottomMenus: [
      { title: "Home", target: "home" },
      { title: "Orders", target: "orders" },
    ],
    customerService: "400-800-1234",
    smsSignature: "StarMall",
    validityDays: 365,
    payOnPlatform: false,
    allowTopupAccountChange: true,
  };
  await db
    .insertInto("mp_versions")
    .values({
      config_id: cfg.id,
      merchant_id: merchantId,
      app_id: appId,
      template_id: tpl.id,
      user_version: "1.0.0",
      ext_json: "{}",
      appearance: JSON.stringify(appearance),
      state: "released",
      committed_at: now,
      released_at: now,
    })
    .execute();
}

/** A customer of the shop, logged in with an SMS code through the shop (World.customer). */
export async function login(
  t: TestApp,
  shop: Shop,
  phone = newPhone(),
): Promise<{ phone: string; headers: Record<string, string> }> {
  const customer = await serverWorld(t).customer({ phone, shop: shop.headers });
  return { phone: customer.phone, headers: customer.headers };
}

export async function stockMall(t: TestApp, shop: Shop): Promise<{ cardSelf: string; topupSelf: string; bag: string }> {
  const a = await t.call<{ id: string }>("POST", "/api/card-user/mall/selfGoods", {
    token: shop.purchaser.token,
    body: { goodsId: String(shop.cardGoodsId), price: 2990 },
  });
  if (a.body.code !== 1) throw new Error(`self: ${a.body.msg}`);
  const b = await t.call<{ id: string }>("POST", "/api/card-user/mall/selfGoods", {
    token: shop.purchaser.token,
    body: { goodsId: String(shop.topupGoodsId), price: 4990 },
  });
  if (b.body.code !== 1) throw new Error(`self: ${b.body.msg}`);
  const bag = await t.call<{ id: string }>("POST", "/api/card-user/mall/giftBags", {
    token: shop.purchaser.token,
    body: {
      name: "Video pack",
      description: "Two months of video",
      price: 5500,
      stock: 5,
      validDays: 30,
      items: [{ selfGoodsId: a.body.data.id, quantity: 2 }],
    },
  });
  if (bag.body.code !== 1) throw new Error(`bag: ${bag.body.msg}`);
  const sms = await t.call("POST", "/api/card-user/mall/sms/packages", {
    token: shop.purchaser.token,
    body: { code: "sms1000", requestKey: key() },
  });
  if (sms.body.code !== 1) throw new Error(`sms: ${sms.body.msg}`);
  return { cardSelf: a.body.data.id, topupSelf: b.body.data.id, bag: bag.body.data.id };
}
