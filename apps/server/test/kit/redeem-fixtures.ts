import type { Store } from "@tessera/contracts";
import ExcelJS from "exceljs";
import { dock } from "../docking";
import { STRONG_PASSWORD, uniqueEmail, type TestApp } from "../harness";
import { fundSup } from "../money";
import { newMerchant, type TestMerchant } from "./catalog-fixtures";
import { serverWorld } from "./server-world";

/** Test fixtures of the write-off tests: stores, clerks, customers and a card in a customer's bag. */
let seq = 0;
const key = () => `fx-${Date.now()}-${++seq}`;

export const cust = (token: string) => ({ "x-customer-token": token });

export async function storeOf(t: TestApp, m: TestMerchant, name: string): Promise<Store> {
  const r = await t.call<Store>("POST", "/api/card-brander/branderStores", {
    token: m.token,
    body: { name, provinceCode: "440000", cityCode: "440300", countyCode: "440305", address: "1 Science Park Road" },
  });
  if (r.body.code !== 1) throw new Error(r.body.msg);
  return r.body.data;
}

/** A sub-account with the verification page, bound to a store, logged in. */
export async function clerkOf(t: TestApp, owner: TestMerchant, storeId: string): Promise<string> {
  const email = uniqueEmail("clerk");
  const added = await t.call<{ passportId: string }>("POST", "/api/card-brander/passport/sub/add", {
    token: owner.token,
    body: { email, name: "Clerk Wu", password: STRONG_PASSWORD, menus: ["business/WriteOff"] },
  });
  if (added.body.code !== 1) throw new Error(added.body.msg);
  const bound = await t.call("POST", `/api/card-brander/branderStores/${storeId}/clerks`, {
    token: owner.token,
    body: { passportId: added.body.data.passportId },
  });
  if (bound.body.code !== 1) throw new Error(bound.body.msg);
  return (
    await t.call<{ token: string }>("POST", "/api/card-user/login", { body: { email, password: STRONG_PASSWORD } })
  ).body.data.token;
}

/** A mall customer logged in with an SMS code (World.customer); its token. */
export async function customerOf(t: TestApp, phone: string): Promise<string> {
  return (await serverWorld(t).customer({ phone })).token;
}

/** A brand with an activated face-value card (100.00) in a customer's card bag. */
export async function cardInBagOf(t: TestApp, name: string, phone: string) {
  const brand = await newMerchant(t, name);
  const product = await t.call<{ id: string }>("POST", "/api/card-brander/onecard/products", {
    token: brand.token,
    body: {
      kind: "face_value",
      name: `${name} card`,
      faceValue: 10_000,
      salePrice: 10_000,
      named: false,
      validity: { kind: "days", days: 1200 },
      rechargeAllowed: true,
      scope: "",
      terms: "",
    },
  });
  await t.call("POST", "/api/card-brander/onecard/batches", {
    token: brand.token,
    body: { productId: product.body.data.id, count: 1, requestKey: key() },
  });
  const { buyer } = await dock(t, brand);
  await fundSup(t, buyer, 100_000);
  const sale = await t.call<{ id: string }>("POST", "/api/card-user/onecard/purchase", {
    token: buyer.token,
    body: { productId: product.body.data.id, quantity: 1, requestKey: key() },
  });
  const cards = await t.call<{ list: { id: string }[] }>("GET", "/api/card-user/onecard/cards?pageSize=100", {
    token: buyer.token,
  });
  const res = await t.app.inject({
    method: "POST",
    url: "/api/card-user/onecard/extract",
    headers: { "x-auth-token": buyer.token },
    payload: { cardIds: cards.body.data.list.map((c) => c.id) },
  });
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  const [no, password] = ((wb.worksheets[0]?.getRow(2).values as unknown[] | undefined) ?? []).slice(1).map(String);
  if (!no || !password) throw new Error("no card");
  await t.call("POST", "/api/card-user/onecard/activate", {
    token: buyer.token,
    body: { saleId: sale.body.data.id, requestKey: key() },
  });
  const token = await customerOf(t, phone);
  const bag = await t.call<{ cards: { id: string }[] }>("POST", "/api/mall/onecard/bind", {
    headers: cust(token),
    body: { cardNo: no, password },
  });
  const cardId = bag.body.data.cards[0]?.id;
  if (!cardId) throw new Error(`not bound: ${JSON.stringify(bag.body)}`);
  return { brand, cardId, customer: token };
}
