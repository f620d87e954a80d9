import {
  contractTransferReq,
  envelope,
  sendCodeReply,
  transfer,
  transferCheckQuery,
  transferCheckReply,
  transferContractsReply,
  transferPage,
  transferQuery,
  transferRefuseReq,
  transferReq,
  transferUpdateReq,
  transitAuthConfirmReq,
} from "@tessera/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { actorOf, type Guard } from "../../platform/auth/guard";
import { ok } from "../../platform/http/envelope";
import type { TransfersService } from "./service";

const tags = ["transfers"];
const security = [{ authToken: [] }];
const idParam = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

/** Transfer calls of spec 01 §7 (brand owner), mounted under /api/card-brander. */
export function transferRoutes({ transfers, guard }: { transfers: TransfersService; guard: Guard }): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    const pre = guard({ roles: ["business", "providers"], menu: ["business/Transfers", "business/ChangesFunds"] });
    app.get(
      "/transitAuth",
      { schema: { tags, security, summary: "Whether outgoing transfers are authorised", response: { 200: envelope(z.object({ authorised: z.boolean(), authorisedAt: z.string().nullable() })) } }, preHandler: pre },
      async (req) => ok(await transfers.authStatus(actorOf(req))),
    );
    app.put(
      "/applyTransitAuth",
      { schema: { tags, security, summary: "Send the transfer authorisation code to the user's bound phone", response: { 200: envelope(sendCodeReply.extend({ phone: z.string() })) } }, preHandler: pre },
      async (req) => ok(await transfers.applyAuth(actorOf(req), req.lang)),
    );
    app.put(
      "/confirmTransitAuth",
      { schema: { tags, security, summary: "Authorise outgoing transfers with the code", body: transitAuthConfirmReq, response: { 200: envelope(z.object({ authorised: z.literal(true) })) } }, preHandler: pre },
      async (req) => ok(await transfers.confirmAuth(actorOf(req), req.body.smsCode)),
    );
    app.get(
      "/transfer/check",
      { schema: { tags, security, summary: "Check the receiving merchant of a transfer", querystring: transferCheckQuery, response: { 200: envelope(transferCheckReply) } }, preHandler: pre },
      async (req) => ok(await transfers.check(actorOf(req), req.query.toMerchantId)),
    );
    app.get("/transfers", { schema: { tags, security, summary: "Transfers sent and received", querystring: transferQuery, response: { 200: envelope(transferPage) } }, preHandler: pre }, async (req) =>
      ok(await transfers.list(actorOf(req), req.query)),
    );
    app.post("/transfers", { schema: { tags, security, summary: "Create a transfer to another merchant", body: transferReq, response: { 200: envelope(transfer) } }, preHandler: pre }, async (req) =>
      ok(await transfers.create(actorOf(req), req.body)),
    );
    app.post(
      "/contract/transfers",
      { schema: { tags, security, summary: "Create a transfer under a contract", body: contractTransferReq, response: { 200: envelope(transfer) } }, preHandler: pre },
      async (req) => ok(await transfers.create(actorOf(req), req.body)),
    );
    app.get("/transfer/contracts", { schema: { tags, security, summary: "Contracts and their transfers", response: { 200: envelope(transferContractsReply) } }, preHandler: pre }, async (req) =>
      ok(await transfers.contracts(actorOf(req))),
    );
    app.put(
      "/transfers/:id",
      { schema: { tags, security, summary: "Change a transfer's amount or remark (sender, before it is decided)", params: idParam, body: transferUpdateReq, response: { 200: envelope(transfer) } }, preHandler: pre },
      async (req) => ok(await transfers.decide(actorOf(req), req.params.id, { kind: "update", ...req.body })),
    );
    app.put(
      "/transfers/:id/refuse",
      { schema: { tags, security, summary: "Refuse a transfer (recipient)", params: idParam, body: transferRefuseReq, response: { 200: envelope(transfer) } }, preHandler: pre },
      async (req) => ok(await transfers.decide(actorOf(req), req.params.id, { kind: "refuse", reason: req.body.reason })),
    );
    app.put(
      "/transfers/:id/accept",
      { schema: { tags, security, summary: "Accept a transfer: the money moves (recipient)", params: idParam, response: { 200: envelope(transfer) } }, preHandler: pre },
      async (req) => ok(await transfers.decide(actorOf(req), req.params.id, { kind: "accept" })),
    );
  };
}
