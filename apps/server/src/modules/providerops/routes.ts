import { DICT_LABELS, envelope, figuresQuery, figuresReply, servedBrandsReply, servedOrderPage, servedOrderQuery, settlementsQuery, settlementsReply, type BusinessType, type ServedOrder } from "@tessera/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { actorOf, type Guard } from "../../platform/auth/guard";
import { ok } from "../../platform/http/envelope";
import { sendXlsx } from "../../platform/http/export";
import type { ProviderOpsService } from "./service";

const tags = ["provider operations"];
const security = [{ authToken: [] }];
const ORDER_PAGES = ["providers/OrderManagement", "providers/BrandOrder", "providers/RechargeOrder"];

/** The provider's operations calls (`/api/card-servicer/ops`). */
export function providerOpsRoutes({ ops, guard }: { ops: ProviderOpsService; guard: Guard }): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    const orders = guard({ roles: ["providers"], menu: ORDER_PAGES });
    app.get("/ops/orders", { schema: { tags, security, summary: "Orders of the merchants the provider serves", querystring: servedOrderQuery, response: { 200: envelope(servedOrderPage) } }, preHandler: orders }, async (req) =>
      ok(await ops.orders(actorOf(req), req.query)),
    );
    app.get("/ops/orders/export", { schema: { tags, security, summary: "The same orders as .xlsx (up to 10,000 rows)", querystring: servedOrderQuery }, preHandler: orders }, async (req, reply) => {
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
      const type = (v: string) => (v in DICT_LABELS.businessType ? DICT_LABELS.businessType[v as BusinessType][lang] : v);
      return sendXlsx<ServedOrder>(
        reply,
        "served-orders",
        [
          { header: en ? "Time" : "时间", width: 22, value: (r) => new Date(r.createdAt).toLocaleString("zh-CN", { timeZone: "Asia/Shanghai" }) },
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
    });
    app.get("/ops/figures", { schema: { tags, security, summary: "Daily purchasing figures of the served merchants", querystring: figuresQuery, response: { 200: envelope(figuresReply) } }, preHandler: guard({ roles: ["providers"], menu: "providers/PurchaseInformation" }) }, async (req) =>
      ok(await ops.figures(actorOf(req), req.query)),
    );
    app.get("/ops/settlements", { schema: { tags, security, summary: "Monthly settlements per served brand", querystring: settlementsQuery, response: { 200: envelope(settlementsReply) } }, preHandler: guard({ roles: ["providers"], menu: "providers/SettlementManagement" }) }, async (req) =>
      ok(await ops.settlements(actorOf(req), req.query)),
    );
    app.get("/ops/brands", { schema: { tags, security, summary: "Brands of the served brand merchants", response: { 200: envelope(servedBrandsReply) } }, preHandler: guard({ roles: ["providers"], menu: "providers/brandManagement" }) }, async (req) =>
      ok(await ops.brands(actorOf(req))),
    );
  };
}
