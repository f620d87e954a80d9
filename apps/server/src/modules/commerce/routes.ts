import {
  aftersale,
  aftersaleDisposeReq,
  aftersalePage,
  aftersalePagerReq,
  aftersaleQuery,
  aftersaleReq,
  aftersaleShipReq,
  cityListReq,
  commerceOrder,
  commerceOrderPage,
  commodity,
  commodityAddReq,
  commodityPage,
  commodityPagerReq,
  commoditySortReq,
  commodityStateReq,
  commodityUpdateReq,
  commodityVideoReq,
  countyListReq,
  envelope,
  expressCompanyPage,
  expressCompanyPagerReq,
  expressCreateReq,
  expressOrderPagerReq,
  expressOrderUpdateReq,
  expressQueryReq,
  orderCancelReq,
  orderPagerReq,
  commerceOrderQuery,
  commerceOrderReq,
  regionList,
  resaleReq,
  selectionQuery,
  shipment,
  shipmentPage,
  trackingPushReply,
  trackingPushReq,
} from "@tessera/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { actorOf, type Guard } from "../../platform/auth/guard";
import { ok } from "../../platform/http/envelope";
import { idParam, routeDocs } from "../../platform/http/route";
import * as regions from "../../platform/regions";
import type { CommerceService } from "./service";

export const docs = routeDocs("commerce");
/**
 * Order pages (up to 1,000 orders with their lines and shipments) and a placed order are written with
 * plain JSON.stringify: the presenters build exactly the documented shape, and re-checking every row
 * against the zod schema cost more than the query. The schema still documents the reply.
 */
const plainJson = { serializerCompiler: () => (data: unknown) => JSON.stringify(data) };

/** Brand pages the legacy calls serve. */
export const BRAND_PAGES = ["business/AddProducts", "business/ProductList", "business/OrderRelated"] as const;
/** Purchaser pages of the mall. */
export const PURCHASER_PAGES = [
  "sale/PhysicalSelection",
  "sale/VirtualGoods",
  "sale/RealGoods",
  "sale/VirtualOrders",
  "sale/RealGoodsOrders",
  "sale/OnlineRefundSheet",
] as const;

/**
 * The legacy e-commerce calls of spec 01 §7 that the brand's mall pages use, all POST, under
 * `/api/ecommerce`: commodities, their orders, express orders and tracking, express companies, the
 * region lists and after-sales.
 */
export function legacyCommerceRoutes({
  commerce,
  guard,
}: {
  commerce: CommerceService;
  guard: Guard;
}): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    const brand = guard({ roles: ["business"], menu: BRAND_PAGES });
    const anyone = guard({ roles: ["business", "sale", "providers"], menu: [...BRAND_PAGES, ...PURCHASER_PAGES] });
    app.post(
      "/commodity/pager",
      {
        schema: {
          ...docs,
          summary: "The brand's commodities (page, pagesize, name, kind, onShelf)",
          body: commodityPagerReq,
          response: { 200: envelope(commodityPage) },
        },
        preHandler: brand,
      },
      async (req) => ok(await commerce.commodities.commodityPage(actorOf(req), req.body)),
    );
    app.post(
      "/commodity/add",
      {
        schema: {
          ...docs,
          summary: "Add a commodity with specification groups and one SKU per combination (price, stock)",
          body: commodityAddReq,
          response: { 200: envelope(commodity) },
        },
        preHandler: brand,
      },
      async (req) => ok(await commerce.commodities.addCommodity(actorOf(req), req.body)),
    );
    app.post(
      "/commodity/update",
      {
        schema: {
          ...docs,
          summary: "Change a commodity and its SKUs",
          body: commodityUpdateReq,
          response: { 200: envelope(commodity) },
        },
        preHandler: brand,
      },
      async (req) => ok(await commerce.commodities.updateCommodity(actorOf(req), req.body)),
    );
    app.post(
      "/commodity/state/update",
      {
        schema: {
          ...docs,
          summary: "Put a commodity on or off the shelf",
          body: commodityStateReq,
          response: { 200: envelope(commodity) },
        },
        preHandler: brand,
      },
      async (req) =>
        ok(
          await commerce.commodities.changeCommodity(actorOf(req), Number(req.body.id), { onShelf: req.body.onShelf }),
        ),
    );
    app.post(
      "/commodity/sort",
      {
        schema: {
          ...docs,
          summary: "A commodity's sort order (higher first)",
          body: commoditySortReq,
          response: { 200: envelope(commodity) },
        },
        preHandler: brand,
      },
      async (req) =>
        ok(await commerce.commodities.changeCommodity(actorOf(req), Number(req.body.id), { sort: req.body.sort })),
    );
    app.post(
      "/commodity/video/update",
      {
        schema: {
          ...docs,
          summary: "A commodity's video from the video library (null removes it)",
          body: commodityVideoReq,
          response: { 200: envelope(commodity) },
        },
        preHandler: brand,
      },
      async (req) =>
        ok(
          await commerce.commodities.changeCommodity(actorOf(req), Number(req.body.id), { videoid: req.body.videoid }),
        ),
    );
    app.post(
      "/commodity/order/pager",
      {
        schema: {
          ...docs,
          summary: "Orders of the brand's commodities",
          body: orderPagerReq,
          response: { 200: envelope(commerceOrderPage) },
        },
        ...plainJson,
        preHandler: brand,
      },
      async (req) =>
        ok(await commerce.orders.orders(actorOf(req), "brand", { ...req.body, pageSize: req.body.pagesize })),
    );
    app.post(
      "/order/express/create",
      {
        schema: {
          ...docs,
          summary: "Ship an order: the courier issues a waybill (or adopts waybillNo) and tracking starts",
          body: expressCreateReq,
          response: { 200: envelope(commerceOrder) },
        },
        preHandler: brand,
      },
      async (req) => ok(await commerce.shipping.ship(actorOf(req), req.body)),
    );
    app.post(
      "/order/express/query",
      {
        schema: {
          ...docs,
          summary: "An order's waybill and tracking events, newest first",
          body: expressQueryReq,
          response: { 200: envelope(shipment) },
        },
        preHandler: anyone,
      },
      async (req) => ok(await commerce.shipping.tracking(actorOf(req), Number(req.body.orderId))),
    );
    app.post(
      "/expressorder/pager",
      {
        schema: {
          ...docs,
          summary: "The brand's express orders",
          body: expressOrderPagerReq,
          response: { 200: envelope(shipmentPage) },
        },
        preHandler: brand,
      },
      async (req) => ok(await commerce.shipping.shipments(actorOf(req), req.body)),
    );
    app.post(
      "/expressorder/update",
      {
        schema: {
          ...docs,
          summary: "Correct an express order's company or number before pickup, or its remark",
          body: expressOrderUpdateReq,
          response: { 200: envelope(shipment) },
        },
        preHandler: brand,
      },
      async (req) => ok(await commerce.shipping.updateShipment(actorOf(req), req.body)),
    );
    app.post(
      "/express_company/pager",
      {
        schema: {
          ...docs,
          summary: "Express companies (Kuaidi100 codes)",
          body: expressCompanyPagerReq,
          response: { 200: envelope(expressCompanyPage) },
        },
        preHandler: anyone,
      },
      async (req) => ok(await commerce.shipping.companies(req.body)),
    );
    app.post(
      "/province/list",
      {
        schema: { ...docs, summary: "Provinces (GB/T 2260)", response: { 200: envelope(regionList) } },
        preHandler: anyone,
      },
      () => ok(regions.provinces()),
    );
    app.post(
      "/city/list",
      {
        schema: {
          ...docs,
          summary: "A province's cities",
          body: cityListReq,
          response: { 200: envelope(regionList) },
        },
        preHandler: anyone,
      },
      (req) => ok(regions.cities(req.body.provinceCode)),
    );
    app.post(
      "/county/list",
      {
        schema: {
          ...docs,
          summary: "A city's counties",
          body: countyListReq,
          response: { 200: envelope(regionList) },
        },
        preHandler: anyone,
      },
      (req) => ok(regions.counties(req.body.cityCode)),
    );
    app.post(
      "/afterservice/pager",
      {
        schema: {
          ...docs,
          summary: "After-sales requests of the brand's orders",
          body: aftersalePagerReq,
          response: { 200: envelope(aftersalePage) },
        },
        preHandler: brand,
      },
      async (req) =>
        ok(await commerce.aftersales.aftersales(actorOf(req), "brand", { ...req.body, pageSize: req.body.pagesize })),
    );
    app.post(
      "/afterservice/dispose",
      {
        schema: {
          ...docs,
          summary: "Agree, disagree, receive the goods back (refund) or refuse them",
          body: aftersaleDisposeReq,
          response: { 200: envelope(aftersale) },
        },
        preHandler: brand,
      },
      async (req) =>
        ok(
          await commerce.aftersales.dispose(
            actorOf(req),
            Number(req.body.id),
            req.body.action,
            req.body.reason,
            req.body.returnAddress,
          ),
        ),
    );
  };
}

/** Tracking pushes from the courier (Kuaidi100 form or JSON: param, sign). No token: the signature is the check. */
export function trackingPushRoutes({ commerce }: { commerce: CommerceService }): FastifyPluginAsyncZod {
  return async (app) => {
    if (!app.hasContentTypeParser("application/x-www-form-urlencoded")) {
      app.addContentTypeParser(
        "application/x-www-form-urlencoded",
        { parseAs: "string", bodyLimit: 256 * 1024 },
        (_req, body, done) => {
          done(null, Object.fromEntries(new URLSearchParams(typeof body === "string" ? body : body.toString("utf8"))));
        },
      );
    }
    await Promise.resolve();
    app.post(
      "/express/push",
      {
        schema: {
          tags: docs.tags,
          summary: "Tracking push (Kuaidi100 subscription callback)",
          body: trackingPushReq,
          response: { 200: trackingPushReply },
        },
        ...plainJson,
      },
      async (req) => commerce.shipping.ingestPush(req.body),
    );
  };
}

/** The purchaser's mall calls, under `/api/card-user/commerce`. */
export function purchaserCommerceRoutes({
  commerce,
  guard,
}: {
  commerce: CommerceService;
  guard: Guard;
}): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    const pre = guard({ roles: ["sale"], menu: PURCHASER_PAGES });
    app.get(
      "/commerce/selection",
      {
        schema: {
          ...docs,
          summary: "Brands' goods on shelf (PhysicalSelection, VirtualGoods; picked=yes: RealGoods)",
          querystring: selectionQuery,
          response: { 200: envelope(commodityPage) },
        },
        preHandler: pre,
      },
      async (req) => ok(await commerce.commodities.selection(actorOf(req), req.query)),
    );
    app.post(
      "/commerce/resales",
      {
        schema: {
          ...docs,
          summary: "Pick a commodity to resell",
          body: resaleReq,
          response: { 200: envelope(z.object({ picked: z.literal(true) })) },
        },
        preHandler: pre,
      },
      async (req) =>
        ok(await commerce.commodities.pick(actorOf(req), Number(req.body.commodityId), req.body.retailPrice ?? null)),
    );
    app.delete(
      "/commerce/resales/:id",
      {
        schema: {
          ...docs,
          summary: "Drop a resale pick (commodity id)",
          params: idParam,
          response: { 200: envelope(z.object({ picked: z.literal(false) })) },
        },
        preHandler: pre,
      },
      async (req) => ok(await commerce.commodities.unpick(actorOf(req), req.params.id)),
    );
    app.post(
      "/commerce/orders",
      {
        schema: {
          ...docs,
          summary: "Place an order (stock reserved until paid or closed)",
          body: commerceOrderReq,
          response: { 200: envelope(commerceOrder) },
        },
        ...plainJson,
        preHandler: pre,
      },
      async (req) => ok(await commerce.orders.placeOrder(actorOf(req), req.body)),
    );
    app.get(
      "/commerce/orders",
      {
        schema: {
          ...docs,
          summary: "The purchaser's orders",
          querystring: commerceOrderQuery,
          response: { 200: envelope(commerceOrderPage) },
        },
        ...plainJson,
        preHandler: pre,
      },
      async (req) => ok(await commerce.orders.orders(actorOf(req), "purchaser", req.query)),
    );
    app.get(
      "/commerce/orders/:id",
      {
        schema: {
          ...docs,
          summary: "One order with its tracking",
          params: idParam,
          response: { 200: envelope(commerceOrder) },
        },
        preHandler: pre,
      },
      async (req) => ok(await commerce.orders.order(actorOf(req), req.params.id)),
    );
    app.post(
      "/commerce/orders/:id/pay",
      {
        schema: {
          ...docs,
          summary: "Pay from the SUP account",
          params: idParam,
          response: { 200: envelope(commerceOrder) },
        },
        preHandler: pre,
      },
      async (req) => ok(await commerce.orders.pay(actorOf(req), req.params.id)),
    );
    app.post(
      "/commerce/orders/:id/cancel",
      {
        schema: {
          ...docs,
          summary: "Cancel an order not yet shipped (stock and money back)",
          params: idParam,
          body: orderCancelReq,
          response: { 200: envelope(commerceOrder) },
        },
        preHandler: pre,
      },
      async (req) => ok(await commerce.orders.cancel(actorOf(req), req.params.id, req.body.reason)),
    );
    app.post(
      "/commerce/orders/:id/confirm",
      {
        schema: {
          ...docs,
          summary: "Confirm receipt: the order completes and the brand is paid",
          params: idParam,
          response: { 200: envelope(commerceOrder) },
        },
        preHandler: pre,
      },
      async (req) => ok(await commerce.orders.confirm(actorOf(req), req.params.id)),
    );
    app.post(
      "/commerce/aftersales",
      {
        schema: {
          ...docs,
          summary: "Apply for after-sales on an order line (refund only, or return and refund)",
          body: aftersaleReq,
          response: { 200: envelope(aftersale) },
        },
        preHandler: pre,
      },
      async (req) => ok(await commerce.aftersales.applyAftersale(actorOf(req), req.body)),
    );
    app.get(
      "/commerce/aftersales",
      {
        schema: {
          ...docs,
          summary: "The purchaser's after-sales requests (OnlineRefundSheet)",
          querystring: aftersaleQuery,
          response: { 200: envelope(aftersalePage) },
        },
        preHandler: pre,
      },
      async (req) => ok(await commerce.aftersales.aftersales(actorOf(req), "purchaser", req.query)),
    );
    app.post(
      "/commerce/aftersales/:id/ship",
      {
        schema: {
          ...docs,
          summary: "Send the goods back with a waybill",
          params: idParam,
          body: aftersaleShipReq,
          response: { 200: envelope(aftersale) },
        },
        preHandler: pre,
      },
      async (req) => ok(await commerce.aftersales.shipBack(actorOf(req), req.params.id, req.body)),
    );
    app.post(
      "/commerce/aftersales/:id/cancel",
      {
        schema: {
          ...docs,
          summary: "Withdraw an after-sales request",
          params: idParam,
          response: { 200: envelope(aftersale) },
        },
        preHandler: pre,
      },
      async (req) => ok(await commerce.aftersales.cancelAftersale(actorOf(req), req.params.id)),
    );
  };
}
