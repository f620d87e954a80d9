import {
  checkoutReq,
  envelope,
  giftBag,
  giftBagPage,
  giftBagReq,
  MALL_APP_ID_HEADER,
  MALL_PRIVATE_CODE_HEADER,
  MALL_SELLER_ID_HEADER,
  MALL_VERSION_HEADER,
  mallMemberPage,
  mallMemberQuery,
  mallOrder,
  mallBagCode,
  mallOrderPage,
  mallOrderQuery,
  mallRefundReq,
  mallSettings,
  mallTesters,
  mallTestersReq,
  mallSettingsReq,
  mallSmsReq,
  pageQuery,
  selfCandidatePage,
  selfCandidateQuery,
  selfGoods,
  selfGoodsPage,
  selfGoodsQuery,
  selfGoodsReq,
  selfGoodsUpdateReq,
  sendCodeReply,
  smsPackageBuyReq,
  smsRecordPage,
  smsRecordQuery,
  smsSummary,
  storeCardOption,
  cardsElsewhere,
  storefront,
  storeGoods,
  storeGoodsPage,
  storeGoodsQuery,
} from "@tessera/contracts";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { actorOf, type Guard } from "../../platform/auth/guard";
import { ok } from "../../platform/http/envelope";
import { customerSecurity, idParam, routeDocs } from "../../platform/http/route";
import { CUSTOMER_TOKEN_HEADER, customerOf, type CustomersService } from "../onecard";
import type { MallCallPurpose, MallContext, MallService } from "./service";

const docs = routeDocs("mall");
const customerDocs = routeDocs("mall", customerSecurity);
export const MALL_PAGES = {
  self: ["sale/SelfSupport", "sale/EquityGiftBag", "international/sale/SelfSupport"],
  bags: ["sale/EquityGiftBag"],
  orders: ["sale/EquityOrder", "sale/MallMember", "business/ShopMember"],
  sms: ["sale/SmsSendRecord", "sale/EquityApplet", "international/sale/EquityApplet"],
  members: ["sale/MallMember", "business/ShopMember"],
  settings: ["business/PrivateCodeMall", "sale/BrandShow"],
} as const;

function header(req: FastifyRequest, name: string): string | undefined {
  const raw = req.headers[name];
  const v = Array.isArray(raw) ? raw[0] : raw;
  return v === undefined || v.length > 200 ? undefined : v;
}

/** The mall a customer call is for: `v` 1, the app id and the seller id (spec 01 §7). */
export function mallOf(
  mall: MallService,
  req: FastifyRequest,
  sellerOptional = false,
  purpose: MallCallPurpose = "shop",
): Promise<MallContext> {
  return mall.resolve(
    {
      v: header(req, MALL_VERSION_HEADER),
      appId: header(req, MALL_APP_ID_HEADER),
      sellerId: header(req, MALL_SELLER_ID_HEADER),
      version: header(req, "x-mall-version"),
      privateCode: header(req, MALL_PRIVATE_CODE_HEADER),
      // The experience version is served to the merchant's testers: who is asking, when signed in.
      customerToken: header(req, CUSTOMER_TOKEN_HEADER),
    },
    sellerOptional,
    purpose,
  );
}

/** The merchant's mall back-office: SelfSupport, EquityGiftBag, EquityOrder, SMS, members, private code, brand show. */
export function merchantRoutes({ mall, guard }: { mall: MallService; guard: Guard }): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    const roles = ["sale", "business"] as const;
    const g = (menu: readonly string[]) => guard({ roles, menu });
    app.get(
      "/mall/selfGoods/candidates",
      {
        schema: {
          ...docs,
          summary: "Goods the merchant may put in its mall (what it may buy)",
          querystring: selfCandidateQuery,
          response: { 200: envelope(selfCandidatePage) },
        },
        preHandler: g(MALL_PAGES.self),
      },
      async (req) => ok(await mall.candidates(actorOf(req), req.query)),
    );
    app.get(
      "/mall/selfGoods",
      {
        schema: {
          ...docs,
          summary: "SelfSupport: the mall's own goods",
          querystring: selfGoodsQuery,
          response: { 200: envelope(selfGoodsPage) },
        },
        preHandler: g(MALL_PAGES.self),
      },
      async (req) => ok(await mall.selfGoods(actorOf(req), req.query)),
    );
    app.post(
      "/mall/selfGoods",
      {
        schema: {
          ...docs,
          summary: "Put a goods in the mall with its selling price",
          body: selfGoodsReq,
          response: { 200: envelope(selfGoods) },
        },
        preHandler: g(MALL_PAGES.self),
      },
      async (req) => ok(await mall.addSelf(actorOf(req), req.body)),
    );
    app.put(
      "/mall/selfGoods/:id",
      {
        schema: {
          ...docs,
          summary: "Change a mall goods (price, name, on sale, order)",
          params: idParam,
          body: selfGoodsUpdateReq,
          response: { 200: envelope(selfGoods) },
        },
        preHandler: g(MALL_PAGES.self),
      },
      async (req) => ok(await mall.updateSelf(actorOf(req), req.params.id, req.body)),
    );
    app.get(
      "/mall/giftBags",
      {
        schema: {
          ...docs,
          summary: "EquityGiftBag: gift packs",
          querystring: pageQuery,
          response: { 200: envelope(giftBagPage) },
        },
        preHandler: g(MALL_PAGES.bags),
      },
      async (req) => ok(await mall.bags(actorOf(req), req.query)),
    );
    app.post(
      "/mall/giftBags",
      {
        schema: { ...docs, summary: "Add a gift pack", body: giftBagReq, response: { 200: envelope(giftBag) } },
        preHandler: g(MALL_PAGES.bags),
      },
      async (req) => ok(await mall.saveBag(actorOf(req), null, req.body)),
    );
    app.put(
      "/mall/giftBags/:id",
      {
        schema: {
          ...docs,
          summary: "Change a gift pack",
          params: idParam,
          body: giftBagReq,
          response: { 200: envelope(giftBag) },
        },
        preHandler: g(MALL_PAGES.bags),
      },
      async (req) => ok(await mall.saveBag(actorOf(req), req.params.id, req.body)),
    );
    app.get(
      "/mall/orders",
      {
        schema: {
          ...docs,
          summary: "EquityOrder: the mall's orders",
          querystring: mallOrderQuery,
          response: { 200: envelope(mallOrderPage) },
        },
        preHandler: g(MALL_PAGES.orders),
      },
      async (req) => ok(await mall.orders(actorOf(req), req.query, req.lang)),
    );
    app.post(
      "/mall/orders/:id/refund",
      {
        schema: {
          ...docs,
          summary: "Refund a mall order to the customer's payment",
          params: idParam,
          body: mallRefundReq,
          response: { 200: envelope(mallOrder) },
        },
        preHandler: g(["sale/EquityOrder"]),
      },
      async (req) => ok(await mall.refund(actorOf(req), req.params.id, req.body.reason, req.lang, req.body.requestKey)),
    );
    app.get(
      "/mall/members",
      {
        schema: {
          ...docs,
          summary: "MallMember / ShopMember: the mall's customers",
          querystring: mallMemberQuery,
          response: { 200: envelope(mallMemberPage) },
        },
        preHandler: g(MALL_PAGES.members),
      },
      async (req) => ok(await mall.members(actorOf(req), req.query)),
    );
    app.get(
      "/mall/sms",
      {
        schema: {
          ...docs,
          summary: "SMS remaining, packages and offers",
          response: { 200: envelope(smsSummary) },
        },
        preHandler: g(MALL_PAGES.sms),
      },
      async (req) => ok(await mall.smsSummary(actorOf(req))),
    );
    app.post(
      "/mall/sms/packages",
      {
        schema: {
          ...docs,
          summary: "Buy an SMS package from the fund account",
          body: smsPackageBuyReq,
          response: { 200: envelope(smsSummary) },
        },
        preHandler: g(MALL_PAGES.sms),
      },
      async (req) => ok(await mall.buySms(actorOf(req), req.body)),
    );
    app.get(
      "/mall/sms/records",
      {
        schema: {
          ...docs,
          summary: "SmsSendRecord: every SMS the mall sent",
          querystring: smsRecordQuery,
          response: { 200: envelope(smsRecordPage) },
        },
        preHandler: g(MALL_PAGES.sms),
      },
      async (req) => ok(await mall.smsRecords(actorOf(req), req.query)),
    );
    app.get(
      "/mall/testers",
      {
        schema: {
          ...docs,
          summary: "The phones that may open the mall's experience (beta) version",
          response: { 200: envelope(mallTesters) },
        },
        preHandler: g(MALL_PAGES.settings),
      },
      async (req) => ok(await mall.testers(actorOf(req))),
    );
    app.put(
      "/mall/testers",
      {
        schema: {
          ...docs,
          summary: "Name the mall's testers (at most 50 phones)",
          body: mallTestersReq,
          response: { 200: envelope(mallTesters) },
        },
        preHandler: g(MALL_PAGES.settings),
      },
      async (req) => ok(await mall.saveTesters(actorOf(req), req.body.phones)),
    );
    app.get(
      "/mall/settings",
      {
        schema: { ...docs, summary: "Private code and brand show", response: { 200: envelope(mallSettings) } },
        preHandler: g(MALL_PAGES.settings),
      },
      async (req) => ok(await mall.settings(actorOf(req))),
    );
    app.put(
      "/mall/settings",
      {
        schema: {
          ...docs,
          summary: "Save the private code and the brand show",
          body: mallSettingsReq,
          response: { 200: envelope(mallSettings) },
        },
        preHandler: g(MALL_PAGES.settings),
      },
      async (req) => ok(await mall.saveSettings(actorOf(req), req.body)),
    );
  };
}

/** The storefront's calls (customer token where a customer is needed), under /api/mall/shop. */
export function storeRoutes({
  mall,
  customers,
}: {
  mall: MallService;
  customers: CustomersService;
}): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    const pre = customers.guard();
    app.get(
      "/shop/storefront",
      {
        schema: {
          tags: docs.tags,
          summary: "The mall as configured: name, theme, menus, brand show",
          response: { 200: envelope(storefront) },
        },
      },
      async (req) => ok(await mall.storefront(await mallOf(mall, req, true, "storefront"))),
    );
    app.get(
      "/shop/goods",
      {
        schema: {
          tags: docs.tags,
          summary: "The mall's goods and gift packs",
          querystring: storeGoodsQuery,
          response: { 200: envelope(storeGoodsPage) },
        },
      },
      async (req) => ok(await mall.storeGoods(await mallOf(mall, req), req.query)),
    );
    app.get(
      "/shop/goods/:kind/:id",
      {
        schema: {
          tags: docs.tags,
          summary: "One goods or gift pack",
          params: z.object({ kind: z.enum(["goods", "bag"]), id: z.string().regex(/^\d{1,18}$/) }),
          response: { 200: envelope(storeGoods) },
        },
      },
      async (req) => ok(await mall.storeItem(await mallOf(mall, req), req.params.kind, req.params.id)),
    );
    app.post(
      "/shop/customer/sendSms",
      {
        schema: {
          tags: docs.tags,
          summary: "Send the customer's login code (counted against the mall's SMS)",
          body: mallSmsReq,
          response: { 200: envelope(sendCodeReply) },
        },
      },
      async (req) => ok(await mall.sendLoginCode(await mallOf(mall, req, false, "login"), req.body.phone, req.lang)),
    );
    app.get(
      "/shop/cards",
      {
        schema: {
          ...customerDocs,
          summary: "The customer's cards usable in this mall",
          response: { 200: envelope(z.array(storeCardOption)) },
        },
        preHandler: pre,
      },
      async (req) => ok(await mall.storeCards(await mallOf(mall, req), customerOf(req))),
    );
    app.get(
      "/shop/cards/elsewhere",
      {
        schema: {
          ...customerDocs,
          summary: "The customer's cards this mall cannot take, by brand (where they pay instead)",
          response: { 200: envelope(z.array(cardsElsewhere)) },
        },
        preHandler: pre,
      },
      async (req) => ok(await mall.cardsElsewhere(await mallOf(mall, req), customerOf(req))),
    );
    app.post(
      "/shop/checkout",
      {
        schema: {
          ...customerDocs,
          summary: "Pay for the cart (card or wallet) and deliver",
          body: checkoutReq,
          response: { 200: envelope(mallOrder) },
        },
        preHandler: pre,
      },
      async (req) => ok(await mall.checkout(await mallOf(mall, req), customerOf(req), req.body, req.lang)),
    );
    app.get(
      "/shop/orders",
      {
        schema: {
          ...customerDocs,
          summary: "The customer's orders in this mall",
          querystring: pageQuery,
          response: { 200: envelope(mallOrderPage) },
        },
        preHandler: pre,
      },
      async (req) => ok(await mall.customerOrders(await mallOf(mall, req), customerOf(req), req.query, req.lang)),
    );
    app.get(
      "/codes",
      {
        schema: {
          ...customerDocs,
          summary: "The codes the customer bought in any mall, for the card bag (masked)",
          response: { 200: envelope(z.object({ list: z.array(mallBagCode) })) },
        },
        preHandler: pre,
      },
      async (req) => ok({ list: await mall.customerCodes(customerOf(req)) }),
    );
    app.get(
      "/shop/orders/:id",
      {
        schema: {
          ...customerDocs,
          summary: "One order, codes in full for its buyer",
          params: idParam,
          response: { 200: envelope(mallOrder) },
        },
        preHandler: pre,
      },
      async (req) => ok(await mall.customerOrder(await mallOf(mall, req), customerOf(req), req.params.id, req.lang)),
    );
  };
}
