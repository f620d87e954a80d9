import {
  envelope,
  pageQuery,
  takeoutActionReq,
  takeoutApplet,
  takeoutCancelReq,
  takeoutItem,
  takeoutItemReq,
  takeoutMenu,
  takeoutOrder,
  takeoutOrderPage,
  takeoutOrderQuery,
  takeoutOrderReq,
  takeoutPackage,
  takeoutPackageReq,
  takeoutPayQuery,
  takeoutShop,
  takeoutShopReq,
  takeoutType,
  takeoutTypeReq,
} from "@tessera/contracts";
import type { preHandlerAsyncHookHandler } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { channelForUserAgent, type PaymentProviderName } from "../../platform/adapters/payments";
import { actorOf, tenantOf, type Guard } from "../../platform/auth/guard";
import { ok } from "../../platform/http/envelope";
import { customerSecurity, idParam, routeDocs } from "../../platform/http/route";
import { customerOf } from "../onecard";
import type { TakeoutService } from "./service";

const docs = routeDocs("takeout");
export const TAKEOUT_PAGES = [
  "business/TakeoutSet",
  "business/TakeoutType",
  "business/ItemSet",
  "business/PackageSet",
  "business/TakeoutOrder",
] as const;

/** The brand's takeout pages' calls, under /api/card-brander/takeout. */
export function brandTakeoutRoutes({
  takeout,
  guard,
}: {
  takeout: TakeoutService;
  guard: Guard;
}): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    const pre = guard({ roles: ["business"], menu: TAKEOUT_PAGES });
    app.get(
      "/takeout/shop",
      {
        schema: {
          ...docs,
          summary: "The takeout shop's settings (null before the first save)",
          response: { 200: envelope(takeoutShop.nullable()) },
        },
        preHandler: pre,
      },
      async (req) => ok(await takeout.shop.shop(actorOf(req))),
    );
    app.put(
      "/takeout/shop",
      {
        schema: {
          ...docs,
          summary: "Save the shop: hours, delivery area, fees, minimum order",
          body: takeoutShopReq,
          response: { 200: envelope(takeoutShop) },
        },
        preHandler: pre,
      },
      async (req) => ok(await takeout.shop.saveShop(actorOf(req), req.body)),
    );
    app.get(
      "/takeout/types",
      {
        schema: { ...docs, summary: "Menu categories", response: { 200: envelope(z.array(takeoutType)) } },
        preHandler: pre,
      },
      async (req) => ok(await takeout.shop.types(actorOf(req))),
    );
    app.post(
      "/takeout/types",
      {
        schema: {
          ...docs,
          summary: "Add a category",
          body: takeoutTypeReq,
          response: { 200: envelope(z.array(takeoutType)) },
        },
        preHandler: pre,
      },
      async (req) => ok(await takeout.shop.saveType(actorOf(req), null, req.body)),
    );
    app.put(
      "/takeout/types/:id",
      {
        schema: {
          ...docs,
          summary: "Change a category",
          params: idParam,
          body: takeoutTypeReq,
          response: { 200: envelope(z.array(takeoutType)) },
        },
        preHandler: pre,
      },
      async (req) => ok(await takeout.shop.saveType(actorOf(req), req.params.id, req.body)),
    );
    app.delete(
      "/takeout/types/:id",
      {
        schema: {
          ...docs,
          summary: "Delete an empty category",
          params: idParam,
          response: { 200: envelope(z.array(takeoutType)) },
        },
        preHandler: pre,
      },
      async (req) => ok(await takeout.shop.deleteType(actorOf(req), req.params.id)),
    );
    app.get(
      "/takeout/items",
      {
        schema: { ...docs, summary: "Menu items", response: { 200: envelope(z.array(takeoutItem)) } },
        preHandler: pre,
      },
      async (req) => ok(await takeout.shop.items(actorOf(req))),
    );
    app.post(
      "/takeout/items",
      {
        schema: {
          ...docs,
          summary: "Add an item with options and stock",
          body: takeoutItemReq,
          response: { 200: envelope(z.array(takeoutItem)) },
        },
        preHandler: pre,
      },
      async (req) => ok(await takeout.shop.saveItem(actorOf(req), null, req.body)),
    );
    app.put(
      "/takeout/items/:id",
      {
        schema: {
          ...docs,
          summary: "Change an item",
          params: idParam,
          body: takeoutItemReq,
          response: { 200: envelope(z.array(takeoutItem)) },
        },
        preHandler: pre,
      },
      async (req) => ok(await takeout.shop.saveItem(actorOf(req), req.params.id, req.body)),
    );
    app.get(
      "/takeout/packages",
      {
        schema: { ...docs, summary: "Combos", response: { 200: envelope(z.array(takeoutPackage)) } },
        preHandler: pre,
      },
      async (req) => ok(await takeout.shop.packages(actorOf(req))),
    );
    app.post(
      "/takeout/packages",
      {
        schema: {
          ...docs,
          summary: "Add a combo",
          body: takeoutPackageReq,
          response: { 200: envelope(z.array(takeoutPackage)) },
        },
        preHandler: pre,
      },
      async (req) => ok(await takeout.shop.savePackage(actorOf(req), null, req.body)),
    );
    app.put(
      "/takeout/packages/:id",
      {
        schema: {
          ...docs,
          summary: "Change a combo",
          params: idParam,
          body: takeoutPackageReq,
          response: { 200: envelope(z.array(takeoutPackage)) },
        },
        preHandler: pre,
      },
      async (req) => ok(await takeout.shop.savePackage(actorOf(req), req.params.id, req.body)),
    );
    app.get(
      "/takeout/orders",
      {
        schema: {
          ...docs,
          summary: "The shop's orders (afterId: only newer ones, for the live view)",
          querystring: takeoutOrderQuery,
          response: { 200: envelope(takeoutOrderPage) },
        },
        preHandler: pre,
      },
      async (req) => ok(await takeout.orders.shopOrders(actorOf(req), req.query)),
    );
    app.get(
      "/takeout/orders/:id",
      {
        schema: {
          ...docs,
          summary: "One order (the kitchen ticket)",
          params: idParam,
          response: { 200: envelope(takeoutOrder) },
        },
        preHandler: pre,
      },
      async (req) => ok(await takeout.orders.shopOrder(actorOf(req), req.params.id)),
    );
    app.post(
      "/takeout/orders/:id/action",
      {
        schema: {
          ...docs,
          summary: "Accept, deliver, complete, or cancel with a reason (refunds a paid order)",
          params: idParam,
          body: takeoutActionReq,
          response: { 200: envelope(takeoutOrder) },
        },
        preHandler: pre,
      },
      async (req) => ok(await takeout.orders.act(actorOf(req), req.params.id, req.body.action, req.body.reason)),
    );
  };
}

/** The customer's phone page calls, under /api/mall/takeout: the menu is public, ordering needs the customer token. */
export function customerTakeoutRoutes({
  takeout,
  customerGuard,
  payProviders = () => [],
  orderPage,
}: {
  takeout: TakeoutService;
  customerGuard: preHandlerAsyncHookHandler;
  /** The real payment providers the customer may choose from (none: the deployment's one adapter). */
  payProviders?: () => PaymentProviderName[];
  /** The order's page on the web, where a provider's cashier sends the customer back. */
  orderPage?: (id: number) => string;
}): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    const customerDocs = routeDocs("takeout", customerSecurity);
    app.get(
      "/takeout/shops/:id",
      {
        schema: {
          tags: docs.tags,
          summary: "A shop's menu",
          params: idParam,
          response: { 200: envelope(takeoutMenu) },
        },
      },
      async (req) => {
        const providers = payProviders();
        return ok({
          ...(await takeout.shop.menu(req.params.id)),
          ...(providers.length > 0 && { payProviders: providers }),
        });
      },
    );
    app.post(
      "/takeout/orders",
      {
        schema: {
          ...customerDocs,
          summary: "Place an order",
          body: takeoutOrderReq,
          response: { 200: envelope(takeoutOrder) },
        },
        preHandler: customerGuard,
      },
      async (req) => ok(await takeout.orders.placeOrder(customerOf(req).id, req.body)),
    );
    app.get(
      "/takeout/orders",
      {
        schema: {
          ...customerDocs,
          summary: "My orders",
          querystring: pageQuery,
          response: { 200: envelope(takeoutOrderPage) },
        },
        preHandler: customerGuard,
      },
      async (req) => ok(await takeout.orders.customerOrders(customerOf(req).id, req.query)),
    );
    app.get(
      "/takeout/orders/:id",
      {
        schema: {
          ...customerDocs,
          summary: "One of my orders",
          params: idParam,
          response: { 200: envelope(takeoutOrder) },
        },
        preHandler: customerGuard,
      },
      async (req) => ok(await takeout.orders.customerOrder(customerOf(req).id, req.params.id)),
    );
    app.post(
      "/takeout/orders/:id/pay",
      {
        schema: {
          ...customerDocs,
          summary:
            "Pay: at once (local adapter), or pending with payAction to follow (WeChat Pay H5 on phones, Native on desktops; Alipay's cashier: redirect); ?provider= picks one of the menu's payProviders",
          params: idParam,
          querystring: takeoutPayQuery,
          response: { 200: envelope(takeoutOrder) },
        },
        preHandler: customerGuard,
      },
      async (req) =>
        ok(
          await takeout.orders.pay(
            customerOf(req).id,
            req.params.id,
            channelForUserAgent(req.headers["user-agent"]),
            req.ip,
            req.query.provider,
            orderPage?.(req.params.id),
          ),
        ),
    );
    app.post(
      "/takeout/orders/:id/cancel",
      {
        schema: {
          ...customerDocs,
          summary: "Cancel before the shop accepts (a paid order is refunded)",
          params: idParam,
          body: takeoutCancelReq,
          response: { 200: envelope(takeoutOrder) },
        },
        preHandler: customerGuard,
      },
      async (req) => ok(await takeout.orders.customerCancel(customerOf(req).id, req.params.id, req.body.reason)),
    );
  };
}

/** The provider's TakeoutApplet, under /api/card-servicer: the takeout shops of the brands it serves. */
export function providerTakeoutRoutes({
  takeout,
  guard,
  servedBrands,
}: {
  takeout: TakeoutService;
  guard: Guard;
  servedBrands: (providerId: number) => Promise<{ merchantId: number; name: string }[]>;
}): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    const pre = guard({ roles: ["providers"], menu: "providers/TakeoutApplet" });
    app.get(
      "/takeout/applets",
      {
        schema: {
          ...docs,
          summary: "The takeout shops of the brands the provider serves, with today's figures",
          response: { 200: envelope(z.array(takeoutApplet)) },
        },
        preHandler: pre,
      },
      async (req) => ok(await takeout.shop.applets(await servedBrands(tenantOf(actorOf(req))))),
    );
  };
}
