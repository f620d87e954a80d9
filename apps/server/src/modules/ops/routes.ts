import {
  auditQuery,
  auditRow,
  envelope,
  merchantSearchQuery,
  opsMerchantRow,
  pageOf,
  QUEUE_KIND_RE,
  queueItem,
  queueItemsQuery,
  queuesReply,
  reviewRejectReq,
  PAGE_SIZES,
  providerRoleReq,
} from "@tessera/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { actorOf, type Guard } from "../../platform/auth/guard";
import { ok } from "../../platform/http/envelope";
import { sendXlsx } from "../../platform/http/export";
import { routeDocs } from "../../platform/http/route";
import { serveUserFile } from "../../platform/storage/serve";
import type { OpsService } from "./service";

const operatorOnly = { kinds: ["operator"] } as const;
const docs = routeDocs("ops");
const queueParams = z.object({ kind: z.string().regex(QUEUE_KIND_RE), id: z.string().regex(/^\d{1,18}$/) });
const nothing = envelope(z.null());

export interface OpsRouteDeps {
  ops: OpsService;
  guard: Guard;
  /** Serves a document image attached to a review item (operators see any merchant's). */
  readDocument: (id: number) => Promise<{ data: Buffer; contentType: string }>;
}

/** The operator console API, mounted under /api/ops: platform operators only. */
export function opsRoutes({ ops, guard, readDocument }: OpsRouteDeps): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    app.addHook("preHandler", guard(operatorOnly));

    app.get(
      "/queues",
      {
        schema: {
          ...docs,
          summary: "Review queues and their pending counts",
          response: { 200: envelope(queuesReply) },
        },
      },
      async () => ok(await ops.summaries()),
    );
    app.get(
      "/queues/:kind/items",
      {
        schema: {
          ...docs,
          summary: "Items of a review queue (pending ones oldest first)",
          params: z.object({ kind: z.string().regex(QUEUE_KIND_RE) }),
          querystring: queueItemsQuery,
          response: { 200: envelope(pageOf(queueItem)) },
        },
      },
      async (req) => ok(await ops.list(req.params.kind, req.query)),
    );
    app.post(
      "/queues/:kind/items/:id/approve",
      {
        schema: { ...docs, summary: "Approve a pending item", params: queueParams, response: { 200: nothing } },
      },
      async (req) => {
        await ops.decide(actorOf(req), req.params.kind, Number(req.params.id), { approve: true }, req.ip);
        return ok(null);
      },
    );
    app.post(
      "/queues/:kind/items/:id/reject",
      {
        schema: {
          ...docs,
          summary: "Reject a pending item with a reason",
          params: queueParams,
          body: reviewRejectReq,
          response: { 200: nothing },
        },
      },
      async (req) => {
        await ops.decide(
          actorOf(req),
          req.params.kind,
          Number(req.params.id),
          { approve: false, reason: req.body.reason },
          req.ip,
        );
        return ok(null);
      },
    );
    app.get(
      "/documents/:id",
      {
        schema: {
          ...docs,
          summary: "A document image of a review item",
          params: z.object({ id: z.string().regex(/^\d{1,18}$/) }),
        },
      },
      async (req, reply) => {
        const doc = await readDocument(Number(req.params.id));
        return serveUserFile(reply, { contentType: doc.contentType, cacheControl: "private, no-store" }, doc.data);
      },
    );
    app.get(
      "/merchants",
      {
        schema: {
          ...docs,
          summary: "Search merchants",
          querystring: merchantSearchQuery,
          response: { 200: envelope(pageOf(opsMerchantRow)) },
        },
      },
      async (req) => ok(await ops.merchants(req.query)),
    );
    app.post(
      "/merchants/:id/providerRole",
      {
        schema: {
          ...docs,
          summary: "Grant or withdraw the service-provider role",
          params: z.object({ id: z.string().regex(/^\d{1,18}$/) }),
          body: providerRoleReq,
          response: { 200: envelope(opsMerchantRow) },
        },
      },
      async (req) => ok(await ops.setProviderRole(actorOf(req), Number(req.params.id), req.body.grant, req.ip)),
    );
    app.get(
      "/auditLog",
      {
        schema: {
          ...docs,
          summary: "Operator actions, newest first",
          querystring: auditQuery,
          response: { 200: envelope(pageOf(auditRow)) },
        },
      },
      async (req) => ok(await ops.auditLog(req.query)),
    );
    app.get(
      "/auditLog/export",
      {
        schema: {
          ...docs,
          summary: "The filtered audit log as .xlsx (up to 1000 rows)",
          querystring: auditQuery.omit({ page: true, pageSize: true }),
        },
      },
      async (req, reply) => {
        const page = await ops.auditLog({ ...req.query, page: 1, pageSize: PAGE_SIZES[PAGE_SIZES.length - 1] ?? 1000 });
        return sendXlsx(
          reply,
          "audit-log",
          [
            { header: "time", value: (r) => r.createdAt },
            { header: "operator", value: (r) => r.operatorEmail ?? r.operatorId },
            { header: "action", value: (r) => r.action },
            { header: "subject", value: (r) => `${r.subjectType}:${r.subjectId}` },
            { header: "before", width: 40, value: (r) => JSON.stringify(r.before) },
            { header: "after", width: 40, value: (r) => JSON.stringify(r.after) },
            { header: "reason", value: (r) => r.reason },
            { header: "ip", value: (r) => r.ip },
          ],
          [page.list],
        );
      },
    );
  };
}
