import {
  bankDetails,
  creditReq,
  envelope,
  fundChangePage,
  fundChangeQuery,
  proofReply,
  rejectReq,
  reserveTransferReq,
  statementQuery,
  statementReply,
  topUpListQuery,
  topUpNotice,
  topUpPage,
  topUpReq,
  money,
  renderMessage,
  type FundAccount,
  type Lang,
  type FundChangeRow,
} from "@tessera/contracts";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { actorOf, type Guard } from "../../platform/auth/guard";
import { ok } from "../../platform/http/envelope";
import { invalid } from "../../platform/http/errors";
import { sendXlsx, type ExportColumn } from "../../platform/http/export";
import { acceptMultipart, readMultipart } from "../../platform/http/multipart";
import { idParam, pathId, routeDocs } from "../../platform/http/route";
import { serveUserFile } from "../../platform/storage/serve";
import { PROOF_MAX_BYTES, type FundsService } from "./service";

const docs = routeDocs("funds");
const merchantParam = z.object({ merchantId: pathId });
const movementReply = envelope(
  z.object({
    transactionId: z.string(),
    replayed: z.boolean(),
    balances: z.object({ reserve: money, sup: money, income: money }),
  }),
);

export interface FundsRouteDeps {
  funds: FundsService;
  guard: Guard;
}

/** The columns of a fund-change export (spec 01 §3 Fund change row). */
function exportColumns(lang: Lang): ExportColumn<FundChangeRow>[] {
  const h = EXPORT_HEADERS[lang];
  const major = (n: number) => n / 100;
  return [
    { header: h[0], width: 22, value: (r) => new Date(r.time) },
    { header: h[1], value: (r) => (r.increase ? major(r.increase) : null) },
    { header: h[2], value: (r) => (r.expense ? major(r.expense) : null) },
    { header: h[3], value: (r) => major(r.balance) },
    { header: h[4], value: (r) => r.currency },
    { header: h[5], value: (r) => renderMessage(`fundType.${r.type}`, lang) },
    { header: h[6], width: 40, value: (r) => r.reason },
  ];
}
const EXPORT_HEADERS = {
  cn: ["时间", "增加金额", "支出金额", "余额", "币种", "变动类型", "原因"],
  tw: ["時間", "增加金額", "支出金額", "餘額", "幣種", "變動類型", "原因"],
  en: ["Time", "Increase", "Expense", "Balance", "Currency", "Change type", "Reason"],
} as const;

function changeRoutes(
  app: Parameters<FastifyPluginAsyncZod>[0],
  funds: FundsService,
  pre: ReturnType<Guard>,
  paths: { list: string; export: string },
  defaultAccount: FundAccount,
): void {
  app.get(
    paths.list,
    {
      schema: {
        ...docs,
        summary: "Fund-change list of one of the merchant's accounts",
        querystring: fundChangeQuery,
        response: { 200: envelope(fundChangePage) },
      },
      preHandler: pre,
    },
    async (req) => ok(await funds.fundChangePage(actorOf(req), req.query, defaultAccount, req.lang)),
  );
  app.get(
    paths.export,
    {
      schema: { ...docs, summary: "The same list as an xlsx file", querystring: fundChangeQuery },
      preHandler: pre,
    },
    async (req, reply) =>
      sendXlsx(
        reply,
        `fund-changes-${req.query.account ?? defaultAccount}`,
        exportColumns(req.lang),
        funds.fundChangeBatches(actorOf(req), req.query, defaultAccount, req.lang),
      ),
  );
}

async function sendProof(
  funds: FundsService,
  req: FastifyRequest<{ Params: { proofId: string } }>,
  reply: FastifyReply,
) {
  const proof = await funds.openProof(actorOf(req), req.params.proofId);
  return serveUserFile(
    reply,
    { contentType: proof.contentType, size: proof.size, cacheControl: "private, max-age=3600" },
    proof.stream,
  );
}

/** Purchaser funds calls, mounted under /api/card-user/funds. */
export function purchaserFundsRoutes({ funds, guard }: FundsRouteDeps): FastifyPluginAsyncZod {
  return async (app) => {
    await acceptMultipart(app, PROOF_MAX_BYTES + 64 * 1024);
    const topUp = guard({ roles: ["sale"], menu: ["sale/RechargeSheet", "sale/supRechargeOrder", "sale/FundRelated"] });
    const lists = guard({
      roles: ["sale", "business", "providers"],
      menu: [
        "sale/FundRelated",
        "sale/PurchaseFund",
        "sale/supRechargeOrder",
        "sale/FundsChange",
        "sale/storedValue",
        "sale/storedFund",
        "business/storedFund",
        "business/ChangesFunds",
        "business/DailyFunds",
        "business/Billing",
        "providers/ChangesFundsP",
      ],
    });

    app.get(
      "/bank",
      {
        schema: {
          ...docs,
          summary: "The platform bank account to transfer top-ups to",
          response: { 200: envelope(bankDetails) },
        },
        preHandler: topUp,
      },
      async (req) => ok(await funds.bankDetails(actorOf(req))),
    );
    app.post(
      "/proofs",
      {
        schema: {
          ...docs,
          summary: "Upload the image of a bank transfer (multipart field file)",
          response: { 200: envelope(proofReply) },
        },
        preHandler: topUp,
      },
      async (req) => {
        const file = (await readMultipart(req)).files.find((f) => f.field === "file");
        if (!file) throw invalid("funds.proofInvalid", "file");
        return ok(await funds.uploadProof(actorOf(req), file));
      },
    );
    app.get(
      "/proofs/:proofId",
      {
        schema: { ...docs, summary: "A transfer proof image", params: z.object({ proofId: z.string() }) },
        preHandler: guard({ kinds: ["merchant", "operator"] }),
      },
      (req, reply) => sendProof(funds, req, reply),
    );
    app.post(
      "/topups",
      {
        schema: {
          ...docs,
          summary: "File a top-up notice",
          body: topUpReq,
          response: { 200: envelope(topUpNotice) },
        },
        preHandler: topUp,
      },
      async (req) => ok(await funds.submitTopUp(actorOf(req), req.body)),
    );
    app.get(
      "/topups",
      {
        schema: {
          ...docs,
          summary: "The merchant's top-up notices",
          querystring: topUpListQuery,
          response: { 200: envelope(topUpPage) },
        },
        preHandler: topUp,
      },
      async (req) => ok(await funds.listTopUps(actorOf(req), req.query)),
    );
    app.post(
      "/reserveTransfer",
      {
        schema: {
          ...docs,
          summary: "Move money from the reserve account to the SUP account",
          body: reserveTransferReq,
          response: { 200: movementReply },
        },
        preHandler: topUp,
      },
      async (req) => ok(await funds.reserveTransfer(actorOf(req), req.body)),
    );
    changeRoutes(app, funds, lists, { list: "/changes", export: "/changes/export" }, "reserve");
  };
}

/** Supplier income list (`GET order/fund/search`), mounted under /api/card-brander. */
export function supplierFundsRoutes({ funds, guard }: FundsRouteDeps): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    const pre = guard({
      roles: ["business", "providers"],
      menu: ["business/ChangesFunds", "business/DailyFunds", "business/Billing", "providers/ChangesFundsP"],
    });
    changeRoutes(app, funds, pre, { list: "/order/fund/search", export: "/order/fund/export" }, "income");
    for (const [path, unit, summary] of [
      ["/statements", "day", "Daily statement of an account: opening, in, out, closing"],
      ["/settlements", "month", "Monthly settlement of an account: opening, in, out, closing"],
    ] as const) {
      app.get(
        path,
        {
          schema: { ...docs, summary, querystring: statementQuery, response: { 200: envelope(statementReply) } },
          preHandler: pre,
        },
        async (req) => ok(await funds.statement(actorOf(req), req.query, unit, "income")),
      );
    }
  };
}

/** Operator review of top-ups and manual movements, mounted under /api/ops/funds. */
export function opsFundsRoutes({ funds, guard }: FundsRouteDeps): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    const pre = guard({ kinds: ["operator"] });
    app.get(
      "/topups",
      {
        schema: {
          ...docs,
          summary: "Top-up notices of every merchant",
          querystring: topUpListQuery,
          response: { 200: envelope(topUpPage) },
        },
        preHandler: pre,
      },
      async (req) => ok(await funds.listTopUps(actorOf(req), req.query)),
    );
    app.post(
      "/topups/:id/confirm",
      {
        schema: {
          ...docs,
          summary: "Confirm a top-up: credit the reserve account",
          params: idParam,
          response: { 200: envelope(topUpNotice) },
        },
        preHandler: pre,
      },
      async (req) => ok(await funds.confirmTopUp(actorOf(req), req.params.id, req.ip)),
    );
    app.post(
      "/topups/:id/reject",
      {
        schema: {
          ...docs,
          summary: "Reject a top-up notice with a reason",
          params: idParam,
          body: rejectReq,
          response: { 200: envelope(topUpNotice) },
        },
        preHandler: pre,
      },
      async (req) => ok(await funds.rejectTopUp(actorOf(req), req.params.id, req.body.reason, req.ip)),
    );
    app.post(
      "/merchants/:merchantId/credit",
      {
        schema: {
          ...docs,
          summary: "Manual credit to a merchant's reserve account",
          params: merchantParam,
          body: creditReq,
          response: { 200: movementReply },
        },
        preHandler: pre,
      },
      async (req) => ok(await funds.manualCredit(actorOf(req), req.params.merchantId, req.body, req.ip)),
    );
    app.post(
      "/merchants/:merchantId/topUpRefund",
      {
        schema: {
          ...docs,
          summary: "Refund top-up money from a merchant's reserve account",
          params: merchantParam,
          body: creditReq,
          response: { 200: movementReply },
        },
        preHandler: pre,
      },
      async (req) => ok(await funds.topUpRefund(actorOf(req), req.params.merchantId, req.body, req.ip)),
    );
  };
}
