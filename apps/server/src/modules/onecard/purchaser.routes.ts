import {
  envelope,
  ocActivatePreview,
  ocActivatePreviewReq,
  ocActivateReply,
  ocActivateReq,
  ocCard,
  ocCardNoField,
  ocCardPage,
  ocCardQuery,
  ocExtractionPage,
  ocExtractReq,
  ocGift,
  ocGiftPage,
  ocGiftReq,
  ocProductPage,
  ocProductQuery,
  ocPurchaseReq,
  ocSalesOrderQuery,
  ocSalesOrderPage,
  ocGiftQuery,
  ocPackagePage,
  ocPackageReq,
  ocPackage,
  ocPackageSendReq,
  ocPackageSendReply,
  ocReport,
  ocReportQuery,
  ocReturn,
  ocReturnPage,
  ocReturnPreview,
  ocReturnPreviewReq,
  ocReturnReq,
  ocSale,
  ocSalePage,
  pageQuery,
} from "@tessera/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { actorOf, type Guard } from "../../platform/auth/guard";
import { ok } from "../../platform/http/envelope";
import { sendXlsx } from "../../platform/http/export";
import { idParam } from "../../platform/http/route";
import type { GiftPackages } from "./packages.service";
import { reportColumns, salesOrderColumns, type CardSalesOrders } from "./reports.service";
import type { OnecardService } from "./service";
import { docs } from "./routes";

const SALE_PAGES = [
  "sale/OneCardMall",
  "sale/OneCardPurchase",
  "sale/BuyRecord",
  "international/sale/OneCardMall",
  "international/sale/BuyRecord",
  "sale/ActivateCard",
  "sale/OnlineCardAccount",
  "sale/CardReturnRecord",
  "sale/Tikatan",
  "sale/GiftCard",
  "sale/GiftReceiveRecord",
  "sale/GiftPackage",
  "sale/OneCardReport",
  "sale/CardSalesOrder",
  "sale/oneCardQuery",
];

const EXTRACT_HEADERS = {
  cn: ["卡号", "卡密码", "卡种", "面值", "币种"],
  tw: ["卡號", "卡密碼", "卡種", "面值", "幣種"],
  en: ["Card number", "Password", "Product", "Face value", "Currency"],
} as const;

/** Purchaser side (/api/card-user): buy, list, activate, return, extract, gift and report cards. */
export function purchaserRoutes({
  onecard,
  packages,
  salesOrders,
  guard,
}: {
  onecard: OnecardService;
  packages: GiftPackages;
  salesOrders: CardSalesOrders;
  guard: Guard;
}): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    const pre = guard({ roles: ["sale"], menu: SALE_PAGES });
    app.get(
      "/onecard/mall",
      {
        schema: {
          ...docs,
          summary: "Card products on sale",
          querystring: ocProductQuery,
          response: { 200: envelope(ocProductPage) },
        },
        preHandler: pre,
      },
      async (req) => ok(await onecard.sales.mall(actorOf(req), req.query)),
    );
    app.post(
      "/onecard/purchase",
      {
        schema: {
          ...docs,
          summary: "Buy cards (paid from SUP)",
          body: ocPurchaseReq,
          response: { 200: envelope(ocSale) },
        },
        preHandler: pre,
      },
      async (req) => ok(await onecard.sales.purchase(actorOf(req), req.body)),
    );
    app.get(
      "/onecard/sales",
      {
        schema: {
          ...docs,
          summary: "Card purchases",
          querystring: pageQuery,
          response: { 200: envelope(ocSalePage) },
        },
        preHandler: pre,
      },
      async (req) => ok(await onecard.sales.sales(actorOf(req), req.query)),
    );
    app.get(
      "/onecard/cards",
      {
        schema: {
          ...docs,
          summary: "Cards the purchaser bought",
          querystring: ocCardQuery,
          response: { 200: envelope(ocCardPage) },
        },
        preHandler: pre,
      },
      async (req) => ok(await onecard.sales.cards(actorOf(req), req.query)),
    );
    app.get(
      "/onecard/lookup",
      {
        schema: {
          ...docs,
          summary: "One of the purchaser's cards by number",
          querystring: z.object({ cardNo: ocCardNoField }),
          response: { 200: envelope(ocCard) },
        },
        preHandler: pre,
      },
      async (req) => ok(await onecard.sales.lookup(actorOf(req), req.query.cardNo)),
    );
    app.post(
      "/onecard/activate",
      {
        schema: {
          ...docs,
          summary: "Activate cards (all or nothing)",
          body: ocActivateReq,
          response: { 200: envelope(ocActivateReply) },
        },
        preHandler: pre,
      },
      async (req) => ok(await onecard.issuing.activate(actorOf(req), req.body)),
    );
    app.post(
      "/onecard/activate/preview",
      {
        schema: {
          ...docs,
          summary:
            "What an activation would do (cards, price paid, face value), before it is confirmed; changes nothing",
          body: ocActivatePreviewReq,
          response: { 200: envelope(ocActivatePreview) },
        },
        preHandler: pre,
      },
      async (req) => ok(await onecard.issuing.activationPreview(actorOf(req), req.body)),
    );
    app.get(
      "/onecard/returns",
      {
        schema: {
          ...docs,
          summary: "Card returns",
          querystring: pageQuery,
          response: { 200: envelope(ocReturnPage) },
        },
        preHandler: pre,
      },
      async (req) => ok(await onecard.sales.returns(actorOf(req), req.query)),
    );
    app.post(
      "/onecard/returns",
      {
        schema: {
          ...docs,
          summary: "Return unactivated cards for a refund",
          body: ocReturnReq,
          response: { 200: envelope(ocReturn) },
        },
        preHandler: pre,
      },
      async (req) => ok(await onecard.sales.returnCards(actorOf(req), req.body)),
    );
    app.post(
      "/onecard/returns/preview",
      {
        schema: {
          ...docs,
          summary:
            "What a return would do (cards, the price paid back to SUP), before it is confirmed; changes nothing",
          body: ocReturnPreviewReq,
          response: { 200: envelope(ocReturnPreview) },
        },
        preHandler: pre,
      },
      async (req) => ok(await onecard.sales.returnPreview(actorOf(req), req.body)),
    );
    app.post(
      "/onecard/extract",
      {
        schema: {
          ...docs,
          summary: "Extract cards: numbers and passwords as xlsx (audited)",
          body: ocExtractReq,
        },
        preHandler: pre,
      },
      async (req, reply) => {
        const rows = await onecard.sales.extract(actorOf(req), req.body.cardIds);
        const h = EXTRACT_HEADERS[req.lang];
        return sendXlsx(
          reply,
          `cards-${Date.now()}`,
          [
            { header: h[0], value: (r: (typeof rows)[number]) => r.no, width: 22 },
            { header: h[1], value: (r) => r.password, width: 18 },
            { header: h[2], value: (r) => r.product, width: 24 },
            { header: h[3], value: (r) => r.faceValue / 100 },
            { header: h[4], value: (r) => r.currency },
          ],
          [rows],
        );
      },
    );
    app.get(
      "/onecard/extractions",
      {
        schema: {
          ...docs,
          summary: "Extractions (who saw which cards)",
          querystring: pageQuery,
          response: { 200: envelope(ocExtractionPage) },
        },
        preHandler: pre,
      },
      async (req) => ok(await onecard.sales.extractions(actorOf(req), req.query)),
    );
    app.get(
      "/onecard/gifts",
      {
        schema: {
          ...docs,
          summary: "Gifts sent (by package too)",
          querystring: ocGiftQuery,
          response: { 200: envelope(ocGiftPage) },
        },
        preHandler: pre,
      },
      async (req) => ok(await onecard.bag.gifts(actorOf(req), req.query)),
    );
    app.get(
      "/onecard/giftPackages",
      {
        schema: {
          ...docs,
          summary: "Gift packages",
          querystring: pageQuery,
          response: { 200: envelope(ocPackagePage) },
        },
        preHandler: pre,
      },
      async (req) => ok(await packages.list(actorOf(req), req.query)),
    );
    app.post(
      "/onecard/giftPackages",
      {
        schema: {
          ...docs,
          summary: "Define a gift package",
          body: ocPackageReq,
          response: { 200: envelope(ocPackage) },
        },
        preHandler: pre,
      },
      async (req) => ok(await packages.create(actorOf(req), req.body)),
    );
    app.delete(
      "/onecard/giftPackages/:id",
      {
        schema: {
          ...docs,
          summary: "Archive a gift package",
          params: idParam,
          response: { 200: envelope(z.null()) },
        },
        preHandler: pre,
      },
      async (req) => {
        await packages.archive(actorOf(req), req.params.id);
        return ok(null);
      },
    );
    app.post(
      "/onecard/giftPackages/:id/send",
      {
        schema: {
          ...docs,
          summary: "Send a gift package to phones and by links",
          params: idParam,
          body: ocPackageSendReq,
          response: { 200: envelope(ocPackageSendReply) },
        },
        preHandler: pre,
      },
      async (req) => ok(await packages.send(actorOf(req), req.params.id, req.body, req.lang)),
    );
    app.post(
      "/onecard/gifts",
      {
        schema: {
          ...docs,
          summary: "Give activated cards to a phone number",
          body: ocGiftReq,
          response: { 200: envelope(ocGift) },
        },
        preHandler: pre,
      },
      async (req) => ok(await onecard.bag.gift(actorOf(req), req.body, req.lang)),
    );
    app.get(
      "/onecard/report",
      {
        schema: {
          ...docs,
          summary: "Card sales report",
          querystring: ocReportQuery,
          response: { 200: envelope(ocReport) },
        },
        preHandler: pre,
      },
      async (req) => ok(await onecard.sales.report(actorOf(req), req.query)),
    );
    app.get(
      "/onecard/report/export",
      { schema: { ...docs, summary: "Card sales report as xlsx", querystring: ocReportQuery }, preHandler: pre },
      async (req, reply) => {
        const report = await onecard.sales.report(actorOf(req), req.query);
        return sendXlsx(reply, `one-card-report-${req.query.dimension}`, reportColumns(req.lang), [report.rows]);
      },
    );
    app.get(
      "/onecard/salesOrders",
      {
        schema: {
          ...docs,
          summary: "Card sales orders and what became of their cards",
          querystring: ocSalesOrderQuery,
          response: { 200: envelope(ocSalesOrderPage) },
        },
        preHandler: pre,
      },
      async (req) => ok(await salesOrders.page(actorOf(req), req.query)),
    );
    app.get(
      "/onecard/salesOrders/export",
      {
        schema: { ...docs, summary: "Card sales orders as xlsx", querystring: ocSalesOrderQuery },
        preHandler: pre,
      },
      async (req, reply) =>
        sendXlsx(reply, "card-sales-orders", salesOrderColumns(req.lang), salesOrders.pages(actorOf(req), req.query)),
    );
  };
}
