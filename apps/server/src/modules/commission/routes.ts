import {
  closeReply,
  closeReq,
  commissionRule,
  commissionRuleQuery,
  commissionRuleReq,
  commissionRulesReply,
  commissionStatement,
  commissionStatementPage,
  commissionStatementQuery,
  envelope,
  rebateChangePage,
  rebateChangeQuery,
  rebateGoodsOptionsQuery,
  rebateOptionsReply,
  rebateQuery,
  rebateRule,
  rebateRuleReq,
  rebateRulesReply,
  rebateStatementPage,
  statementDetail,
  type StatementMerchantRow,
} from "@tessera/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { actorOf, type Guard } from "../../platform/auth/guard";
import { ok } from "../../platform/http/envelope";
import { sendXlsx } from "../../platform/http/export";
import { idParam, routeDocs } from "../../platform/http/route";
import { sideLabel } from "./pdf";
import type { RebatesService } from "./rebates";
import type { CommissionService } from "./service";

const docs = routeDocs("commission");
const yuan = (minor: number) => minor / 100;

/** The provider's commission (`/api/card-servicer`): its rules, monthly statements, confirmation, exports (xlsx and PDF). */
export function commissionProviderRoutes({
  commission,
  guard,
}: {
  commission: CommissionService;
  guard: Guard;
}): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    const pre = guard({ roles: ["providers"], menu: "providers/MonthlyCommission" });
    app.get(
      "/commission/rules",
      {
        schema: {
          ...docs,
          summary: "The provider's commission rules",
          response: { 200: envelope(commissionRulesReply) },
        },
        preHandler: pre,
      },
      async (req) => ok(await commission.providerRules(actorOf(req))),
    );
    app.get(
      "/commission/statements",
      {
        schema: {
          ...docs,
          summary: "Monthly commission statements",
          querystring: commissionStatementQuery,
          response: { 200: envelope(commissionStatementPage) },
        },
        preHandler: pre,
      },
      async (req) => ok(await commission.statements(actorOf(req), req.query)),
    );
    app.get(
      "/commission/statements/:id",
      {
        schema: {
          ...docs,
          summary: "A statement per served merchant",
          params: idParam,
          response: { 200: envelope(statementDetail) },
        },
        preHandler: pre,
      },
      async (req) => ok(await commission.statement(actorOf(req), req.params.id)),
    );
    app.put(
      "/commission/statements/:id/confirm",
      {
        schema: {
          ...docs,
          summary: "Confirm a statement: its commission moves into the provider's income (fund) account",
          params: idParam,
          response: { 200: envelope(commissionStatement) },
        },
        preHandler: pre,
      },
      async (req) => ok(await commission.confirm(actorOf(req), req.params.id)),
    );
    app.get(
      "/commission/statements/:id/pdf",
      {
        schema: { ...docs, summary: "A statement as a printable PDF (the request's language)", params: idParam },
        preHandler: pre,
      },
      async (req, reply) => {
        const f = await commission.pdf(actorOf(req), req.params.id, req.lang);
        return reply
          .header("content-type", "application/pdf")
          .header("content-disposition", `attachment; filename*=UTF-8''${encodeURIComponent(f.fileName)}`)
          .header("cache-control", "private, no-store")
          .send(f.data);
      },
    );
    app.get(
      "/commission/statements/:id/export",
      {
        schema: { ...docs, summary: "A statement as .xlsx (one row per served merchant)", params: idParam },
        preHandler: pre,
      },
      async (req, reply) => {
        const s = await commission.statement(actorOf(req), req.params.id);
        const lang = req.lang;
        const side = (r: StatementMerchantRow) => sideLabel(lang, r.side);
        return sendXlsx<StatementMerchantRow>(
          reply,
          `commission-${s.period}`,
          [
            { header: lang === "en" ? "Month" : "月份", value: () => s.period },
            { header: lang === "en" ? "Merchant ID" : "商户ID", value: (r) => r.merchantId },
            { header: lang === "en" ? "Merchant" : "商户名称", width: 30, value: (r) => r.merchantName },
            { header: lang === "en" ? "Side" : "类型", value: side },
            { header: lang === "en" ? "Orders" : "订单数", value: (r) => r.orders },
            { header: lang === "en" ? "Basis" : "计佣金额", value: (r) => yuan(r.basis.amount) },
            { header: lang === "en" ? "Accrued" : "佣金", value: (r) => yuan(r.accrued.amount) },
            { header: lang === "en" ? "Clawed back" : "退款扣回", value: (r) => yuan(r.clawedBack.amount) },
            { header: lang === "en" ? "Net" : "净佣金", value: (r) => yuan(r.net.amount) },
          ],
          [s.merchants],
        );
      },
    );
  };
}

/** The operator's commission calls (`/api/ops`): providers' rules and the monthly close. */
export function commissionOpsRoutes({
  commission,
  guard,
}: {
  commission: CommissionService;
  guard: Guard;
}): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    const pre = guard({ kinds: ["operator"] });
    app.get(
      "/commission/rules",
      {
        schema: {
          ...docs,
          summary: "Commission rules",
          querystring: commissionRuleQuery,
          response: { 200: envelope(commissionRulesReply) },
        },
        preHandler: pre,
      },
      async (req) =>
        ok(await commission.rules(req.query.providerId === undefined ? undefined : Number(req.query.providerId))),
    );
    app.post(
      "/commission/rules",
      {
        schema: {
          ...docs,
          summary: "Add a commission rule for a provider",
          body: commissionRuleReq,
          response: { 200: envelope(commissionRule) },
        },
        preHandler: pre,
      },
      async (req) => ok(await commission.addRule(actorOf(req), req.body)),
    );
    app.delete(
      "/commission/rules/:id",
      {
        schema: {
          ...docs,
          summary: "Remove a commission rule",
          params: idParam,
          response: { 200: envelope(z.null()) },
        },
        preHandler: pre,
      },
      async (req) => {
        await commission.removeRule(actorOf(req), req.params.id);
        return ok(null);
      },
    );
    app.post(
      "/commission/close",
      {
        schema: {
          ...docs,
          summary: "Close a month: statements from the served merchants' orders and refunds",
          body: closeReq,
          response: { 200: envelope(closeReply) },
        },
        preHandler: pre,
      },
      async (req) => ok(await commission.close(req.body.period, actorOf(req).userId)),
    );
  };
}

/** The supplier's rebate rules and statements (`/api/card-brander/rebate`). */
export function rebateSupplierRoutes({
  rebates,
  guard,
}: {
  rebates: RebatesService;
  guard: Guard;
}): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    const pre = guard({ roles: ["business"], menu: ["business/ProcurementLiaison", "business/VendorWhiteList"] });
    app.get(
      "/rebate/rules",
      {
        schema: {
          ...docs,
          summary: "The supplier's rebate rules",
          response: { 200: envelope(rebateRulesReply) },
        },
        preHandler: pre,
      },
      async (req) => ok(await rebates.rules(actorOf(req))),
    );
    // The rule dialog's pickers, under the rules' own guard: a sub-account that may set rules need not
    // also hold the goods or docking pages to choose a goods or a purchaser.
    app.get(
      "/rebate/rules/options/goods",
      {
        schema: {
          ...docs,
          summary: "The supplier's own goods a rule may name (keyword: name, code or id)",
          querystring: rebateGoodsOptionsQuery,
          response: { 200: envelope(rebateOptionsReply) },
        },
        preHandler: pre,
      },
      async (req) => ok(await rebates.goodsOptions(actorOf(req), req.query)),
    );
    app.get(
      "/rebate/rules/options/purchasers",
      {
        schema: {
          ...docs,
          summary: "The purchasers docked with the supplier, whom a rule may name",
          response: { 200: envelope(rebateOptionsReply) },
        },
        preHandler: pre,
      },
      async (req) => ok(await rebates.purchaserOptions(actorOf(req))),
    );
    app.post(
      "/rebate/rules",
      {
        schema: {
          ...docs,
          summary: "Add a rebate rule (tiers by monthly volume)",
          body: rebateRuleReq,
          response: { 200: envelope(rebateRule) },
        },
        preHandler: pre,
      },
      async (req) => ok(await rebates.addRule(actorOf(req), req.body)),
    );
    app.delete(
      "/rebate/rules/:id",
      {
        schema: {
          ...docs,
          summary: "Remove a rebate rule",
          params: idParam,
          response: { 200: envelope(z.null()) },
        },
        preHandler: pre,
      },
      async (req) => {
        await rebates.removeRule(actorOf(req), req.params.id);
        return ok(null);
      },
    );
    app.get(
      "/rebate/statements",
      {
        schema: {
          ...docs,
          summary: "Rebates the supplier granted, per purchaser and month",
          querystring: rebateQuery,
          response: { 200: envelope(rebateStatementPage) },
        },
        preHandler: pre,
      },
      async (req) => ok(await rebates.statements(actorOf(req), "supplier", req.query)),
    );
  };
}

/** The purchaser's rebates (`/api/card-user/rebate`): RebateRecord and RebateFundChange. */
export function rebatePurchaserRoutes({
  rebates,
  guard,
}: {
  rebates: RebatesService;
  guard: Guard;
}): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    const pre = guard({ roles: ["sale"], menu: ["sale/RebateRecord", "sale/RebateFundChange"] });
    app.get(
      "/rebate/records",
      {
        schema: {
          ...docs,
          summary: "Rebates earned, per supplier and month",
          querystring: rebateQuery,
          response: { 200: envelope(rebateStatementPage) },
        },
        preHandler: pre,
      },
      async (req) => ok(await rebates.statements(actorOf(req), "purchaser", req.query)),
    );
    app.get(
      "/rebate/changes",
      {
        schema: {
          ...docs,
          summary: "Changes of the rebate account",
          querystring: rebateChangeQuery,
          response: { 200: envelope(rebateChangePage) },
        },
        preHandler: pre,
      },
      async (req) => {
        const { page, currency } = await rebates.changes(actorOf(req), req.query);
        const m = (amount: number) => ({ amount, currency });
        return ok({
          list: page.rows.map((r) => ({
            id: String(r.id),
            time: new Date(r.createdAt).toISOString(),
            amount: m(r.amount),
            balance: m(r.balanceAfter),
            type: r.type,
            reason: r.reason,
          })),
          total: page.total,
          page: req.query.page,
          pageSize: req.query.pageSize,
          balance: m(page.rows[0]?.balanceAfter ?? 0),
        });
      },
    );
  };
}
