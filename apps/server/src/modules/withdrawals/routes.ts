import {
  autoPayoutReply,
  autoPayoutReq,
  bankCard,
  bankCardReq,
  envelope,
  payoutDispatchReply,
  payoutInstructionPage,
  payoutInstructionQuery,
  withdrawal,
  withdrawalActionReq,
  withdrawalPage,
  withdrawalQuery,
  withdrawReq,
} from "@tessera/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { actorOf, type Guard } from "../../platform/auth/guard";
import { ok } from "../../platform/http/envelope";
import { idParam, routeDocs } from "../../platform/http/route";
import type { PayoutOutbox } from "./payouts.service";
import type { WithdrawalsService } from "./service";

const docs = routeDocs("withdrawals");

export interface WithdrawalsRouteDeps {
  withdrawals: WithdrawalsService;
  guard: Guard;
}

/** `GET/POST withdraws` and the withdrawal card, mounted under /api/card-brander. */
export function merchantWithdrawalRoutes({ withdrawals, guard }: WithdrawalsRouteDeps): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    const pre = guard({
      roles: ["sale", "business", "providers"],
      menu: ["sale/WithdrawalRecord", "business/WithdrawalRecordB", "providers/WithdrawalRecordP"],
    });
    app.get(
      "/withdraws/card",
      {
        schema: {
          ...docs,
          summary: "The withdrawal bank card",
          response: { 200: envelope(bankCard.nullable()) },
        },
        preHandler: pre,
      },
      async (req) => ok(await withdrawals.card(actorOf(req))),
    );
    app.post(
      "/withdraws/card",
      {
        schema: {
          ...docs,
          summary: "Add or replace the withdrawal bank card (reviewed by an operator)",
          body: bankCardReq,
          response: { 200: envelope(bankCard) },
        },
        preHandler: pre,
      },
      async (req) => ok(await withdrawals.saveCard(actorOf(req), req.body)),
    );
    app.get(
      "/withdraws",
      {
        schema: {
          ...docs,
          summary: "Withdrawal records",
          querystring: withdrawalQuery,
          response: { 200: envelope(withdrawalPage) },
        },
        preHandler: pre,
      },
      async (req) => ok(await withdrawals.list(actorOf(req), req.query, req.lang)),
    );
    app.post(
      "/withdraws",
      {
        schema: {
          ...docs,
          summary: "Request a withdrawal",
          body: withdrawReq,
          response: { 200: envelope(withdrawal) },
        },
        preHandler: pre,
      },
      async (req) => ok(await withdrawals.request(actorOf(req), req.body)),
    );
  };
}

/** Operator review and payout of withdrawals, mounted under /api/ops/withdrawals. */
export function opsWithdrawalRoutes({
  withdrawals,
  payouts,
  guard,
}: WithdrawalsRouteDeps & { payouts: PayoutOutbox }): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    const pre = guard({ kinds: ["operator"] });
    app.get(
      "/",
      {
        schema: {
          ...docs,
          summary: "Withdrawals of every merchant",
          querystring: withdrawalQuery,
          response: { 200: envelope(withdrawalPage) },
        },
        preHandler: pre,
      },
      async (req) => ok(await withdrawals.list(actorOf(req), req.query, req.lang)),
    );
    app.post(
      "/:id/action",
      {
        schema: {
          ...docs,
          summary: "First review, second review, mark paid or failed, or reject",
          params: idParam,
          body: withdrawalActionReq,
          response: { 200: envelope(withdrawal) },
        },
        preHandler: pre,
      },
      async (req) => ok(await withdrawals.act(actorOf(req), req.params.id, req.body.action, req.body.reason, req.ip)),
    );
    app.get(
      "/payouts",
      {
        schema: {
          ...docs,
          summary: "Payout instructions the bank has not acknowledged yet (pending or submitted), oldest first",
          querystring: payoutInstructionQuery,
          response: { 200: envelope(payoutInstructionPage) },
        },
        preHandler: pre,
      },
      async (req) => ok(await payouts.open(req.query)),
    );
    app.post(
      "/payouts/dispatch",
      {
        schema: {
          ...docs,
          summary: "Submit every due payout instruction now (the payout job does this every 30 s)",
          response: { 200: envelope(payoutDispatchReply) },
        },
        preHandler: pre,
      },
      async () => ok(await payouts.dispatchDue()),
    );
    app.post(
      "/autoPayout",
      {
        schema: {
          ...docs,
          summary: "Run the T+1 supplier payout for a day now (it also runs daily)",
          body: autoPayoutReq,
          response: { 200: envelope(autoPayoutReply) },
        },
        preHandler: pre,
      },
      async (req) => ok(await withdrawals.autoPayout(req.body.day)),
    );
  };
}
