import {
  DICT_LABELS,
  batchPurchasePage,
  batchPurchasePreview,
  batchPurchaseQuery,
  batchPurchaseReply,
  envelope,
  figuresQuery,
  figuresReply,
  fundSheetPage,
  fundSheetQuery,
  linkDataReply,
  pageQuery,
  renderMessage,
  servedBrandsReply,
  servedOrderPage,
  servedOrderQuery,
  settlementsQuery,
  settlementsReply,
  type BusinessType,
  type FundSheetRow,
  type Lang,
  type ServedOrder,
} from "@tessera/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { actorOf, type Guard } from "../../platform/auth/guard";
import { ok } from "../../platform/http/envelope";
import { invalid } from "../../platform/http/errors";
import { sendXlsx } from "../../platform/http/export";
import { displayTime } from "../../platform/clock";
import { idParam, routeDocs } from "../../platform/http/route";
import { batchResultFile, batchTemplate, XLSX_MIME } from "./sheets";
import type { ProviderOpsService } from "./service";

const docs = routeDocs("provider operations");
const ORDER_PAGES = ["providers/OrderManagement", "providers/BrandOrder", "providers/RechargeOrder"];
/** A BatchPurchase file: 500 lines are well under 1 MB as xlsx. */
const BATCH_LIMIT_BYTES = 4 * 1024 * 1024;
const download = (fileName: string) => `attachment; filename*=UTF-8''${encodeURIComponent(fileName)}`;

const FUND_SHEET_HEADERS: Record<Lang, string[]> = {
  cn: ["时间", "采购商", "类型", "收入", "支出", "余额", "币种", "说明"],
  tw: ["時間", "採購商", "類型", "收入", "支出", "餘額", "幣種", "說明"],
  en: ["Time", "Purchaser", "Type", "Money in", "Money out", "Balance", "Currency", "Description"],
};

/** The provider's operations calls (`/api/card-servicer/ops`). */
export function providerOpsRoutes({ ops, guard }: { ops: ProviderOpsService; guard: Guard }): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    const orders = guard({ roles: ["providers"], menu: ORDER_PAGES });
    app.get(
      "/ops/orders",
      {
        schema: {
          ...docs,
          summary: "Orders of the merchants the provider serves",
          querystring: servedOrderQuery,
          response: { 200: envelope(servedOrderPage) },
        },
        preHandler: orders,
      },
      async (req) => ok(await ops.orders(actorOf(req), req.query)),
    );
    app.get(
      "/ops/orders/export",
      {
        schema: {
          ...docs,
          summary: "The same orders as .xlsx (up to 10,000 rows)",
          querystring: servedOrderQuery,
        },
        preHandler: orders,
      },
      async (req, reply) => {
        const actor = actorOf(req);
        const lang = req.lang;
        async function* batches() {
          for (let page = 1; page <= 10; page++) {
            const p = await ops.orders(actor, { ...req.query, page, pageSize: 1000 });
            if (p.list.length > 0) yield p.list;
            if (p.list.length < 1000) return;
          }
        }
        const en = lang === "en";
        const type = (v: string) =>
          v in DICT_LABELS.businessType ? DICT_LABELS.businessType[v as BusinessType][lang] : v;
        return sendXlsx<ServedOrder>(
          reply,
          "served-orders",
          [
            {
              header: en ? "Time" : "时间",
              width: 22,
              value: (r) => displayTime(r.createdAt),
            },
            { header: en ? "Order no." : "订单号", width: 24, value: (r) => r.orderNo },
            { header: en ? "Purchaser" : "采购商", width: 28, value: (r) => `${r.purchaserName} (${r.purchaserId})` },
            { header: en ? "Supplier" : "供应商", width: 28, value: (r) => `${r.supplierName} (${r.supplierId})` },
            { header: en ? "Brand" : "品牌", value: (r) => r.brandName },
            { header: en ? "Goods" : "商品", width: 28, value: (r) => r.goodsName },
            { header: en ? "Business type" : "业务类型", value: (r) => type(r.businessType) },
            { header: en ? "Quantity" : "数量", value: (r) => r.quantity },
            { header: en ? "Amount" : "金额", value: (r) => r.amount.amount / 100 },
            { header: en ? "Status" : "状态", value: (r) => r.state },
          ],
          batches(),
        );
      },
    );
    const fundSheet = guard({ roles: ["providers"], menu: "providers/PurchaseFundSheet" });
    app.get(
      "/ops/fundSheet",
      {
        schema: {
          ...docs,
          summary: "Purchase fund account changes of the served purchasers",
          querystring: fundSheetQuery,
          response: { 200: envelope(fundSheetPage) },
        },
        preHandler: fundSheet,
      },
      async (req) => ok(await ops.fundSheet(actorOf(req), req.query, req.lang)),
    );
    app.get(
      "/ops/fundSheet/export",
      {
        schema: {
          ...docs,
          summary: "The same fund changes as .xlsx (up to 10,000 rows)",
          querystring: fundSheetQuery,
        },
        preHandler: fundSheet,
      },
      async (req, reply) => {
        const actor = actorOf(req);
        async function* batches() {
          for (let page = 1; page <= 10; page++) {
            const p = await ops.fundSheet(actor, { ...req.query, page, pageSize: 1000 }, req.lang);
            if (p.list.length > 0) yield p.list;
            if (p.list.length < 1000) return;
          }
        }
        const h = FUND_SHEET_HEADERS[req.lang];
        const text = (i: number) => h[i] ?? "";
        return sendXlsx<FundSheetRow>(
          reply,
          "purchase-fund-sheet",
          [
            {
              header: text(0),
              width: 22,
              value: (r) => displayTime(r.time),
            },
            { header: text(1), width: 28, value: (r) => `${r.merchantName} (${r.merchantId})` },
            // The change type in words, never its internal key.
            { header: text(2), value: (r) => renderMessage(`fundType.${r.type}`, req.lang) },
            { header: text(3), value: (r) => r.increase / 100 },
            { header: text(4), value: (r) => r.expense / 100 },
            { header: text(5), value: (r) => r.balance / 100 },
            { header: text(6), value: (r) => r.currency },
            { header: text(7), width: 40, value: (r) => r.reason },
          ],
          batches(),
        );
      },
    );
    app.get(
      "/ops/linkData",
      {
        schema: {
          ...docs,
          summary: "Daily and per-merchant orders, amounts and new dockings of the served merchants",
          querystring: figuresQuery,
          response: { 200: envelope(linkDataReply) },
        },
        preHandler: guard({ roles: ["providers"], menu: "providers/LinkData" }),
      },
      async (req) => ok(await ops.linkData(actorOf(req), req.query)),
    );

    const batch = guard({ roles: ["providers"], menu: "providers/BatchPurchase" });
    app.addContentTypeParser(
      [XLSX_MIME, "application/octet-stream"],
      { parseAs: "buffer", bodyLimit: BATCH_LIMIT_BYTES },
      (_req, body, done) => done(null, body),
    );
    app.post(
      "/ops/batchPurchases",
      {
        schema: {
          ...docs,
          summary: "Buy for served purchasers from an xlsx: the body is the file, its name in ?fileName=",
          querystring: batchPurchaseQuery,
          response: { 200: envelope(batchPurchaseReply) },
        },
        preHandler: batch,
      },
      async (req) => {
        const body: unknown = req.body;
        if (!Buffer.isBuffer(body) || !/\.xlsx$/i.test(req.query.fileName)) throw invalid("batch.fileType", "file");
        return ok(await ops.batchPurchase(actorOf(req), body, req.query.fileName, req.lang));
      },
    );
    app.post(
      "/ops/batchPurchases/preview",
      {
        schema: {
          ...docs,
          summary:
            "What an xlsx of orders would buy (each line's price or refusal, the totals), before anything is spent; orders nothing",
          querystring: batchPurchaseQuery,
          response: { 200: envelope(batchPurchasePreview) },
        },
        preHandler: batch,
      },
      async (req) => {
        const body: unknown = req.body;
        if (!Buffer.isBuffer(body) || !/\.xlsx$/i.test(req.query.fileName)) throw invalid("batch.fileType", "file");
        return ok(await ops.batchPurchasePreview(actorOf(req), body, req.query.fileName, req.lang));
      },
    );
    app.get(
      "/ops/batchPurchases/template",
      { schema: { ...docs, summary: "The BatchPurchase template (xlsx)" }, preHandler: batch },
      async (req, reply) =>
        reply
          .header("content-type", XLSX_MIME)
          .header("content-disposition", download("batch-purchase-template.xlsx"))
          .send(await batchTemplate(req.lang)),
    );
    app.get(
      "/ops/batchPurchases",
      {
        schema: {
          ...docs,
          summary: "The provider's BatchPurchase files",
          querystring: pageQuery,
          response: { 200: envelope(batchPurchasePage) },
        },
        preHandler: batch,
      },
      async (req) => ok(await ops.batchPurchases(actorOf(req), req.query)),
    );
    app.get(
      "/ops/batchPurchases/:id",
      {
        schema: {
          ...docs,
          summary: "One BatchPurchase with each line's result",
          params: idParam,
          response: { 200: envelope(batchPurchaseReply) },
        },
        preHandler: batch,
      },
      async (req) => ok(await ops.batchPurchaseOf(actorOf(req), req.params.id)),
    );
    app.get(
      "/ops/batchPurchases/:id/result",
      {
        schema: { ...docs, summary: "The result file of a BatchPurchase (xlsx)", params: idParam },
        preHandler: batch,
      },
      async (req, reply) => {
        const found = await ops.batchPurchaseOf(actorOf(req), req.params.id);
        return reply
          .header("content-type", XLSX_MIME)
          .header("content-disposition", download(`batch-purchase-result-${found.id}.xlsx`))
          .send(await batchResultFile(req.lang, found.lines));
      },
    );
    app.get(
      "/ops/figures",
      {
        schema: {
          ...docs,
          summary: "Daily purchasing figures of the served merchants",
          querystring: figuresQuery,
          response: { 200: envelope(figuresReply) },
        },
        preHandler: guard({ roles: ["providers"], menu: "providers/PurchaseInformation" }),
      },
      async (req) => ok(await ops.figures(actorOf(req), req.query)),
    );
    app.get(
      "/ops/settlements",
      {
        schema: {
          ...docs,
          summary: "Monthly settlements per served brand",
          querystring: settlementsQuery,
          response: { 200: envelope(settlementsReply) },
        },
        preHandler: guard({ roles: ["providers"], menu: "providers/SettlementManagement" }),
      },
      async (req) => ok(await ops.settlements(actorOf(req), req.query)),
    );
    app.get(
      "/ops/brands",
      {
        schema: {
          ...docs,
          summary: "Brands of the served brand merchants",
          response: { 200: envelope(servedBrandsReply) },
        },
        preHandler: guard({ roles: ["providers"], menu: "providers/brandManagement" }),
      },
      async (req) => ok(await ops.brands(actorOf(req))),
    );
  };
}
