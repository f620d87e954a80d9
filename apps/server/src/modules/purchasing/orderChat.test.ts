import type { ChatMessageReply, OrderChat, PurchaseOrder } from "@tessera/contracts";
import { beforeAll, describe, expect, it } from "vitest";
import { dock } from "../../../test/docking";
import { registerMerchant } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { fundSup } from "../../../test/money";
import { importFile, newBrand, newGoods, newMerchant, type TestMerchant } from "../../../test/kit/catalog-fixtures";
import { cardCsv } from "../../../test/kit/cards";

const t = useTestApp();
let supplier: TestMerchant;
let buyer: Awaited<ReturnType<typeof registerMerchant>>;
let order: PurchaseOrder;

interface BrandInfo {
  branderId: string;
  branderImToken: string;
  imUser: string;
  imToken: string;
}

beforeAll(async () => {
  supplier = await newMerchant(t, "Chat Supplier Co");
  const brand = await newBrand(t, supplier, "Chatty Cards");
  const goods = await newGoods(t, supplier, brand.id, { name: "Chat card 30", price: 2700 });
  await importFile(t, supplier.token, goods.id, "cards.csv", cardCsv(["CHAT000001,SECRET1,"]));
  ({ buyer } = await dock(t, supplier));
  await fundSup(t, buyer, 10_000);
  const placed = await t.call<PurchaseOrder>("POST", "/api/card-user/orders", {
    token: buyer.token,
    body: { goodsId: String(goods.id), quantity: 1, orderNo: `CHAT${Date.now()}` },
  });
  order = placed.body.data;
});

const brandInfo = async (token: string) =>
  (await t.call<{ brandInfo: BrandInfo }>("GET", "/api/card-user/userInfo", { token })).body.data.brandInfo;
const imBase = () => `/${t.config.im.org}/${t.config.im.app}`;

/** Sends a text as an IM user through the IM REST API; returns the server's message id. */
async function sendText(token: string, to: string, msg: string): Promise<string> {
  const res = await t.app.inject({
    method: "POST",
    url: `${imBase()}/messages/users`,
    headers: { authorization: `Bearer ${token}` },
    payload: { to: [to], type: "txt", body: { msg } },
  });
  expect(res.statusCode).toBe(200);
  const id = res.json<{ data: Record<string, string> }>().data[to];
  expect(id).toMatch(/^\d+$/);
  return id!;
}

describe("GET supplyOrder/im: the orderChat record", () => {
  it("the purchaser gets the brand as target, the supplier gets the purchaser's staff member; one record per order", async () => {
    const mine = await t.call<OrderChat>("GET", `/api/card-brander/supplyOrder/im?orderId=${order.id}`, {
      token: buyer.token,
    });
    expect(mine.status).toBe(200);
    expect(mine.body.data).toMatchObject({
      orderId: order.id,
      orderNo: order.orderNo,
      goodsName: "Chat card 30",
      side: "purchaser",
      self: `u${buyer.userId}`,
      targetId: `b${supplier.merchantId}`,
      targetName: "Chat Supplier Co",
      startTime: t.clock.now().getTime(),
      messageId: null,
    });
    // A card-secret order is finished at once: the conversation window ends with it.
    expect(mine.body.data.endTime).toEqual(expect.any(Number));

    t.clock.advance(60);
    const theirs = await t.call<OrderChat>("GET", `/api/card-brander/supplyOrder/im?orderId=${order.id}`, {
      token: supplier.token,
    });
    expect(theirs.body.data).toMatchObject({
      side: "supplier",
      self: `b${supplier.merchantId}`,
      targetId: `u${buyer.userId}`,
      targetName: "Buyer Ltd",
      startTime: mine.body.data.startTime,
    });
  });

  it("tenancy: a merchant not party to the order gets 404, without a token 401", async () => {
    const stranger = await registerMerchant(t, { orgName: "Nosy Ltd" });
    const res = await t.call("GET", `/api/card-brander/supplyOrder/im?orderId=${order.id}`, {
      token: stranger.token,
      lang: "en",
    });
    expect(res.status).toBe(404);
    expect(res.body.msg).toBe("This order does not exist");
    const otherSupplier = await newMerchant(t, "Other Supplier");
    expect(
      (await t.call("GET", `/api/card-brander/supplyOrder/im?orderId=${order.id}`, { token: otherSupplier.token }))
        .status,
    ).toBe(404);
    expect((await t.call("GET", `/api/card-brander/supplyOrder/im?orderId=${order.id}`)).status).toBe(401);
    expect(
      (await t.call("GET", "/api/card-brander/supplyOrder/im?orderId=999999999", { token: buyer.token })).status,
    ).toBe(404);
  });

  it("bad input gets the validation message in every language", async () => {
    const expected = { cn: "请选择订单", tw: "請選擇訂單", en: "Please choose an order" } as const;
    for (const lang of ["cn", "tw", "en"] as const) {
      const res = await t.call("GET", "/api/card-brander/supplyOrder/im", { token: buyer.token, lang });
      expect(res.status).toBe(400);
      expect(res.body.msg).toBe(expected[lang]);
    }
    const junk = await t.call("GET", "/api/card-brander/supplyOrder/im?orderId=abc", {
      token: buyer.token,
      lang: "en",
    });
    expect(junk.status).toBe(400);
    expect(junk.body.msg).toBe("This order does not exist");
    const noMessage = await t.call("POST", "/api/card-brander/supplyOrder/im", {
      token: buyer.token,
      body: { orderId: order.id },
      lang: "tw",
    });
    expect(noMessage.status).toBe(400);
    expect(noMessage.body.msg).toBe("請指定消息");
  });
});

describe("the opening message and a chat message by messageId", () => {
  it("the purchaser records its opening message; both sides read it; a stranger and a wrong message are refused", async () => {
    const buyerIm = await brandInfo(buyer.token);
    const supplierIm = await brandInfo(supplier.token);
    const opening = await sendText(buyerIm.imToken, `b${supplier.merchantId}`, `Order ${order.orderNo}: <b>when?</b>`);

    // Only the purchaser records it, and only a message from itself to the brand.
    const bySupplier = await t.call("POST", "/api/card-brander/supplyOrder/im", {
      token: supplier.token,
      body: { orderId: order.id, messageId: opening },
      lang: "en",
    });
    expect(bySupplier.status).toBe(403);
    expect(bySupplier.body.msg).toBe("Only the purchaser opens the order's conversation");
    const foreign = await sendText(supplierIm.branderImToken, `u${buyer.userId}`, "hello from the brand");
    const wrong = await t.call("POST", "/api/card-brander/supplyOrder/im", {
      token: buyer.token,
      body: { orderId: order.id, messageId: foreign },
      lang: "en",
    });
    expect(wrong.status).toBe(404);
    expect(wrong.body.msg).toBe("This message does not exist");

    const recorded = await t.call<OrderChat>("POST", "/api/card-brander/supplyOrder/im", {
      token: buyer.token,
      body: { orderId: order.id, messageId: opening },
    });
    expect(recorded.body.data.messageId).toBe(opening);
    // Kept once: a later message does not replace it.
    const later = await sendText(buyerIm.imToken, `b${supplier.merchantId}`, "another one");
    const again = await t.call<OrderChat>("POST", "/api/card-brander/supplyOrder/im", {
      token: buyer.token,
      body: { orderId: order.id, messageId: later },
    });
    expect(again.body.data.messageId).toBe(opening);
    const seen = await t.call<OrderChat>("GET", `/api/card-brander/supplyOrder/im?orderId=${order.id}`, {
      token: supplier.token,
    });
    expect(seen.body.data.messageId).toBe(opening);

    for (const token of [buyer.token, supplier.token]) {
      const m = await t.call<ChatMessageReply>("GET", `/api/card-user/im/message?messageId=${opening}`, { token });
      expect(m.status).toBe(200);
      expect(m.body.data).toMatchObject({
        id: opening,
        from: `u${buyer.userId}`,
        to: `b${supplier.merchantId}`,
        recalled: false,
        body: { type: "txt", msg: `Order ${order.orderNo}: <b>when?</b>` },
      });
    }
    const stranger = await registerMerchant(t);
    const hidden = await t.call("GET", `/api/card-user/im/message?messageId=${opening}`, {
      token: stranger.token,
      lang: "en",
    });
    expect(hidden.status).toBe(404);
    expect(hidden.body.msg).toBe("This message does not exist");
    expect((await t.call("GET", "/api/card-user/im/message?messageId=x1", { token: buyer.token })).status).toBe(400);
    expect((await t.call("GET", "/api/card-user/im/message?messageId=999999999", { token: buyer.token })).status).toBe(
      404,
    );
  });

  it("a recalled message is reported recalled, without its content", async () => {
    const buyerIm = await brandInfo(buyer.token);
    const id = await sendText(buyerIm.imToken, `b${supplier.merchantId}`, "oops");
    // Recalls go over the websocket; the gateway calls the IM service's recall.
    await t.app.im.services.history.recall({ kind: "user", username: `u${buyer.userId}` }, Number(id));
    const m = await t.call<ChatMessageReply>("GET", `/api/card-user/im/message?messageId=${id}`, {
      token: supplier.token,
    });
    expect(m.body.data).toMatchObject({ id, recalled: true, body: null, ext: {} });
  });
});
