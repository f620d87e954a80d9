import {
  CODE,
  envelope,
  goodsStoresReply,
  goodsStoresReq,
  redemption,
  redemptionPage,
  redemptionQuery,
  renderMessage,
  settleRunReply,
  settlePreview,
  settlePreviewQuery,
  settleRunReq,
  settlementDoc,
  settlementDocPage,
  settlementDocQuery,
  shopVerifyQuery,
  shopVerifyReply,
  writeAccountReply,
  writeOffCheckReq,
  writeOffPreview,
  writeOffReq,
  type Lang,
  type MessageKey,
  type Redemption,
  type SettlementDoc,
} from "@tessera/contracts";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { actorOf, tenantOf, type Guard } from "../../platform/auth/guard";
import { ok } from "../../platform/http/envelope";
import { AppError } from "../../platform/http/errors";
import { sendXlsx } from "../../platform/http/export";
import { idParam, pathId, routeDocs } from "../../platform/http/route";
import { settlementPdf } from "./pdf";
import type { WriteOffService } from "./writeoff.service";

const docs = routeDocs("write-off");
/** The verification page (clerks) and the brand's write-off pages. */
const VERIFY_PAGES = ["business/WriteOff"];
const BRAND_PAGES = ["business/WriteOff", "business/WriteAccount", "business/WriteFunDoc"];

const H = {
  cn: {
    id: "编号",
    time: "时间",
    store: "门店",
    brand: "品牌",
    kind: "类型",
    item: "商品",
    code: "券码/卡号",
    value: "核销价值",
    settle: "结算金额",
    clerk: "店员",
    day: "日期",
    count: "笔数",
    amount: "结算金额",
    coupon: "券码",
    onecard: "一卡通",
    order: "订单号",
    paid: "入账金额",
  },
  tw: {
    id: "編號",
    time: "時間",
    store: "門店",
    brand: "品牌",
    kind: "類型",
    item: "商品",
    code: "券碼/卡號",
    value: "核銷價值",
    settle: "結算金額",
    clerk: "店員",
    day: "日期",
    count: "筆數",
    amount: "結算金額",
    coupon: "券碼",
    onecard: "一卡通",
    order: "訂單號",
    paid: "入帳金額",
  },
  en: {
    id: "ID",
    time: "Time",
    store: "Store",
    brand: "Brand",
    kind: "Kind",
    item: "Item",
    code: "Code / card",
    value: "Value",
    settle: "Settled amount",
    clerk: "Clerk",
    day: "Day",
    count: "Count",
    amount: "Amount",
    coupon: "Code",
    onecard: "One-card",
    order: "Order",
    paid: "Paid to income",
  },
} as const;
const yuan = (m: { amount: number }) => m.amount / 100;

function redemptionColumns(lang: Lang) {
  const h = H[lang];
  return [
    { header: h.id, value: (r: Redemption) => r.id },
    { header: h.time, value: (r: Redemption) => r.createdAt },
    { header: h.store, width: 24, value: (r: Redemption) => r.storeName },
    { header: h.kind, value: (r: Redemption) => h[r.kind] },
    { header: h.item, width: 28, value: (r: Redemption) => r.itemName },
    { header: h.code, value: (r: Redemption) => r.codeMask },
    { header: h.value, value: (r: Redemption) => yuan(r.value) },
    { header: h.settle, value: (r: Redemption) => yuan(r.settleAmount) },
    { header: h.clerk, value: (r: Redemption) => r.clerkName },
    { header: h.order, value: (r: Redemption) => r.orderRef },
  ];
}
function docColumns(lang: Lang) {
  const h = H[lang];
  return [
    { header: h.id, value: (d: SettlementDoc) => d.id },
    { header: h.day, value: (d: SettlementDoc) => d.day },
    { header: h.brand, width: 24, value: (d: SettlementDoc) => d.branderName },
    { header: h.store, width: 24, value: (d: SettlementDoc) => d.storeName },
    { header: h.count, value: (d: SettlementDoc) => d.count },
    { header: h.value, value: (d: SettlementDoc) => yuan(d.value) },
    { header: h.amount, value: (d: SettlementDoc) => yuan(d.amount) },
    { header: h.paid, value: (d: SettlementDoc) => yuan(d.paid) },
  ];
}

function sendDocument(reply: FastifyReply, lang: Lang, doc: { doc: SettlementDoc; lines: Redemption[] }) {
  return sendXlsx(reply, `settlement-${doc.doc.storeName}-${doc.doc.day}`, redemptionColumns(lang), [doc.lines]);
}

async function sendPdf(reply: FastifyReply, lang: Lang, d: { doc: SettlementDoc; lines: Redemption[] }) {
  const pdf = await settlementPdf(lang, d, new Date());
  return reply
    .header("content-type", "application/pdf")
    .header("content-disposition", `attachment; filename="settlement-${d.doc.id}.pdf"`)
    .send(pdf);
}

/** Write-off calls of the brand owner and its clerks (/api/card-brander). */
export function writeOffBrandRoutes({
  writeoff,
  guard,
}: {
  writeoff: WriteOffService;
  guard: Guard;
}): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    const verify = guard({ roles: ["business"], menu: VERIFY_PAGES });
    const brand = guard({ roles: ["business"], menu: BRAND_PAGES });
    app.get(
      "/writeOff/me",
      {
        schema: {
          ...docs,
          summary: "The clerk's store",
          response: {
            200: envelope(z.object({ storeId: z.string(), storeName: z.string(), branderName: z.string() }).nullable()),
          },
        },
        preHandler: verify,
      },
      async (req) => ok(await writeoff.myStore(actorOf(req))),
    );
    app.post(
      "/writeOff/check",
      {
        schema: {
          ...docs,
          summary: "What a code is worth and whether it can be redeemed here",
          body: writeOffCheckReq,
          response: { 200: envelope(writeOffPreview) },
        },
        preHandler: verify,
      },
      async (req) => ok(await writeoff.check(actorOf(req), req.body, req.ip, req.lang)),
    );
    app.post(
      "/writeOff/redeem",
      {
        schema: {
          ...docs,
          summary: "Redeem a code or take an amount off a card, once",
          body: writeOffReq,
          response: { 200: envelope(redemption) },
        },
        preHandler: verify,
      },
      async (req) => ok(await writeoff.redeem(actorOf(req), req.body, req.ip, req.lang)),
    );
    app.get(
      "/hyAccounts",
      {
        schema: {
          ...docs,
          summary: "Redemption records (核验)",
          querystring: redemptionQuery,
          response: { 200: envelope(redemptionPage) },
        },
        preHandler: brand,
      },
      async (req) => ok(await writeoff.brandRedemptions(actorOf(req), req.query)),
    );
    app.get(
      "/hyAccounts/export",
      {
        schema: {
          ...docs,
          summary: "Redemption records as xlsx",
          querystring: redemptionQuery.omit({ page: true, pageSize: true }),
        },
        preHandler: brand,
      },
      async (req, reply) => {
        const actor = actorOf(req);
        async function* pages() {
          for (let page = 1; ; page++) {
            const p = await writeoff.brandRedemptions(actor, { ...req.query, page, pageSize: 1000 });
            if (p.list.length > 0) yield p.list;
            if (p.list.length < 1000) return;
          }
        }
        return sendXlsx(reply, "redemptions", redemptionColumns(req.lang), pages());
      },
    );
    app.get(
      "/accounts",
      {
        schema: {
          ...docs,
          summary: "The brand's redemption account per store (WriteAccount)",
          querystring: redemptionQuery.pick({ from: true, to: true }),
          response: { 200: envelope(writeAccountReply) },
        },
        preHandler: brand,
      },
      async (req) => ok(await writeoff.settlement.account(actorOf(req), req.query)),
    );
    app.get(
      "/writeOff/docs",
      {
        schema: {
          ...docs,
          summary: "Settlement documents (WriteFunDoc)",
          querystring: settlementDocQuery,
          response: { 200: envelope(settlementDocPage) },
        },
        preHandler: brand,
      },
      async (req) => ok(await writeoff.settlement.brandDocuments(actorOf(req), req.query)),
    );
    app.get(
      "/writeOff/docs/export",
      {
        schema: {
          ...docs,
          summary: "Settlement documents as xlsx",
          querystring: settlementDocQuery.omit({ page: true, pageSize: true }),
        },
        preHandler: brand,
      },
      async (req, reply) => {
        const page = await writeoff.settlement.brandDocuments(actorOf(req), { ...req.query, page: 1, pageSize: 1000 });
        return sendXlsx(reply, "settlement-documents", docColumns(req.lang), [page.list]);
      },
    );
    app.get(
      "/writeOff/docs/:id",
      {
        schema: {
          ...docs,
          summary: "A settlement document with its redemptions",
          params: idParam,
          response: { 200: envelope(z.object({ doc: settlementDoc, lines: z.array(redemption) })) },
        },
        preHandler: brand,
      },
      async (req) => ok(await writeoff.settlement.document([tenantOf(actorOf(req))], req.params.id)),
    );
    app.get(
      "/writeOff/docs/:id/xlsx",
      { schema: { ...docs, summary: "A settlement document as xlsx", params: idParam }, preHandler: brand },
      async (req, reply) =>
        sendDocument(reply, req.lang, await writeoff.settlement.document([tenantOf(actorOf(req))], req.params.id)),
    );
    app.get(
      "/writeOff/docs/:id/pdf",
      {
        schema: { ...docs, summary: "A settlement document as a printable PDF", params: idParam },
        preHandler: brand,
      },
      async (req, reply) => {
        return sendPdf(reply, req.lang, await writeoff.settlement.document([tenantOf(actorOf(req))], req.params.id));
      },
    );
    const goodsParam = z.object({ goodsId: pathId });
    app.get(
      "/product/:goodsId/stores",
      {
        schema: {
          ...docs,
          summary: "Where a goods' codes are redeemable",
          params: goodsParam,
          response: { 200: envelope(goodsStoresReply) },
        },
        preHandler: brand,
      },
      async (req) => ok(await writeoff.goodsStores(actorOf(req), req.params.goodsId)),
    );
    app.put(
      "/product/:goodsId/stores",
      {
        schema: {
          ...docs,
          summary: "Limit a goods' codes to some stores, or all",
          params: goodsParam,
          body: goodsStoresReq,
          response: { 200: envelope(goodsStoresReply) },
        },
        preHandler: brand,
      },
      async (req) => ok(await writeoff.setGoodsStores(actorOf(req), req.params.goodsId, req.body)),
    );
    app.get(
      "/product/shop/verify",
      {
        schema: {
          ...docs,
          summary: "Whether a goods' codes can be redeemed at a store",
          querystring: shopVerifyQuery,
          response: { 200: envelope(shopVerifyReply) },
        },
        preHandler: brand,
      },
      async (req) => {
        const r = await writeoff.shopVerify(actorOf(req), Number(req.query.storeId), Number(req.query.goodsId));
        return ok({
          redeemable: r.redeemable,
          reason: r.reason ? renderMessage(r.reason as MessageKey, req.lang) : null,
        });
      },
    );
  };
}

/** Operators (/api/ops/stores): run the day's settlement now (it also runs daily, T+1). */
export function writeOffOpsRoutes({
  writeoff,
  guard,
}: {
  writeoff: WriteOffService;
  guard: Guard;
}): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    const pre = guard({ kinds: ["operator"] });
    app.get(
      "/settle/preview",
      {
        schema: {
          ...docs,
          summary: "What settling up to a day would settle now (nothing changes)",
          querystring: settlePreviewQuery,
          response: { 200: envelope(settlePreview) },
        },
        preHandler: pre,
      },
      async (req) => ok(await writeoff.settlement.preview(req.query.day)),
    );
    app.post(
      "/settle",
      {
        schema: {
          ...docs,
          summary: "Settle the store redemptions of a past day now",
          body: settleRunReq,
          response: { 200: envelope(settleRunReply) },
        },
        preHandler: pre,
      },
      async (req) => ok(await writeoff.settlement.settle(req.body.day)),
    );
  };
}

/** WriteOrder (/api/card-user): redemptions of the codes a purchaser bought. */
export function writeOffSaleRoutes({
  writeoff,
  guard,
}: {
  writeoff: WriteOffService;
  guard: Guard;
}): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    const pre = guard({ roles: ["sale"], menu: ["sale/WriteOrder"] });
    app.get(
      "/writeOrders",
      {
        schema: {
          ...docs,
          summary: "Redemptions of the codes you bought",
          querystring: redemptionQuery,
          response: { 200: envelope(redemptionPage) },
        },
        preHandler: pre,
      },
      async (req) => ok(await writeoff.purchaserRedemptions(actorOf(req), req.query)),
    );
  };
}

/** WriteFund (/api/card-servicer): settlement documents of a brand the provider serves. */
export function writeOffServicerRoutes({
  writeoff,
  guard,
  serves,
}: {
  writeoff: WriteOffService;
  guard: Guard;
  serves: (providerId: number, merchantId: number) => Promise<boolean>;
}): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    const pre = guard({ roles: ["providers"], menu: ["providers/WriteFund"] });
    /** The brand asked for, if the provider serves it. */
    const servedBrand = async (req: FastifyRequest, branderId: string | undefined): Promise<number> => {
      const me = tenantOf(actorOf(req));
      if (!branderId) throw new AppError(CODE.INVALID_PARAMETER, "stores.brandRequired", {}, "branderId");
      if (!(await serves(me, Number(branderId)))) throw new AppError(CODE.FORBIDDEN, "stores.providerNotServing");
      return Number(branderId);
    };
    const brandQuery = settlementDocQuery.pick({ branderId: true });
    app.get(
      "/writeFund",
      {
        schema: {
          ...docs,
          summary: "Settlement documents of a brand you serve",
          querystring: settlementDocQuery,
          response: { 200: envelope(settlementDocPage) },
        },
        preHandler: pre,
      },
      async (req) => ok(await writeoff.settlement.documents([await servedBrand(req, req.query.branderId)], req.query)),
    );
    // A document of a served brand: the same detail, xlsx and PDF as the brand's WriteFunDoc.
    app.get(
      "/writeFund/:id",
      {
        schema: {
          ...docs,
          summary: "A settlement document of a brand you serve, with its redemptions",
          params: idParam,
          querystring: brandQuery,
          response: { 200: envelope(z.object({ doc: settlementDoc, lines: z.array(redemption) })) },
        },
        preHandler: pre,
      },
      async (req) =>
        ok(await writeoff.settlement.document([await servedBrand(req, req.query.branderId)], req.params.id)),
    );
    app.get(
      "/writeFund/:id/xlsx",
      {
        schema: {
          ...docs,
          summary: "A settlement document of a brand you serve as xlsx",
          params: idParam,
          querystring: brandQuery,
        },
        preHandler: pre,
      },
      async (req, reply) =>
        sendDocument(
          reply,
          req.lang,
          await writeoff.settlement.document([await servedBrand(req, req.query.branderId)], req.params.id),
        ),
    );
    app.get(
      "/writeFund/:id/pdf",
      {
        schema: {
          ...docs,
          summary: "A settlement document of a brand you serve as a printable PDF",
          params: idParam,
          querystring: brandQuery,
        },
        preHandler: pre,
      },
      async (req, reply) => {
        const d = await writeoff.settlement.document([await servedBrand(req, req.query.branderId)], req.params.id);
        return sendPdf(reply, req.lang, d);
      },
    );
  };
}
