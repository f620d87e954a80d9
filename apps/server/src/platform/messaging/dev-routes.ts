import { sql } from "kysely";
import { envelope, outboxItem, outboxQuery, pageOf } from "@tessera/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { withTx, type Db } from "../../db/tx";
import type { Guard } from "../auth/guard";
import { ok } from "../http/envelope";
import { notFound } from "../http/errors";
import { fromLoopback } from "../http/health";
import { sendXlsx } from "../http/export";
import { listOutbox, type OutboxRow } from "./outbox.repo";
import { backdateOrder, backdateRefunds } from "./backdate.repo";

function present(row: OutboxRow) {
  return {
    id: String(row.id),
    channel: row.channel,
    to: row.recipient,
    subject: row.subject,
    body: row.body,
    createdAt: row.created_at.toISOString(),
  };
}

/**
 * The local mail/SMS adapter's outbox, for developers and browser tests to read the codes that were
 * "sent". Registered only with DEV_ROUTES=true (which needs the local adapters), and served only to a
 * direct client on this machine (loopback with no proxy header of any kind, health.ts fromLoopback) or to
 * a signed-in operator: the codes in it sign people up.
 */
export function devOutboxRoutes(db: Db, guard: Guard): FastifyPluginAsyncZod {
  const operator = guard({ kinds: ["operator"] });
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    app.addHook("preHandler", async (req, reply) => {
      if (!fromLoopback(req)) await operator.call(app, req, reply);
    });
    app.get(
      "/outbox",
      {
        schema: {
          tags: ["dev"],
          summary: "Mail and SMS kept by the local adapters, newest first",
          querystring: outboxQuery,
          response: { 200: envelope(pageOf(outboxItem)) },
        },
      },
      async (req) => {
        const { rows, total } = await listOutbox(db, req.query);
        return ok({ list: rows.map(present), total, page: req.query.page, pageSize: req.query.pageSize });
      },
    );
    app.get(
      "/outbox/export",
      {
        schema: {
          tags: ["dev"],
          summary: "The outbox as an .xlsx file (same filters)",
          querystring: outboxQuery.omit({ page: true, pageSize: true }),
        },
      },
      async (req, reply) => {
        async function* pages() {
          for (let page = 1; ; page++) {
            const { rows } = await listOutbox(db, { ...req.query, page, pageSize: 1000 });
            yield rows.map(present);
            if (rows.length < 1000) return;
          }
        }
        return sendXlsx(
          reply,
          "outbox",
          [
            { header: "createdAt", value: (r) => r.createdAt },
            { header: "channel", width: 8, value: (r) => r.channel },
            { header: "to", width: 30, value: (r) => r.to },
            { header: "subject", width: 30, value: (r) => r.subject },
            { header: "body", width: 60, value: (r) => r.body },
          ],
          pages(),
        );
      },
    );
  };
}

const backdateParams = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
const backdateBody = z.strictObject({ days: z.number().int().min(1).max(400) });
const backdateReply = z.object({
  id: z.string(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  refunds: z.number().int(),
});

/**
 * Test scaffolding, not a feature: browser journeys run against a server on the real clock, and a
 * month's commission close only closes months that have ended. `POST /api/dev/purchaseOrders/:id/backdate`
 * {days} moves one purchase order's times (created_at, finished_at) and those of its refunds `days`
 * earlier, so a journey's order can fall into last month. Its ledger entries keep their times. Registered
 * only with DEV_ROUTES=true (like the outbox), and served only to a signed-in operator.
 */
export function devBackdateRoutes(db: Db, guard: Guard): FastifyPluginAsyncZod {
  const operator = guard({ kinds: ["operator"] });
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    app.post(
      "/purchaseOrders/:id/backdate",
      {
        schema: {
          tags: ["dev"],
          summary: "Test scaffolding: move a purchase order and its refunds back in time",
          params: backdateParams,
          body: backdateBody,
          response: { 200: envelope(backdateReply) },
        },
        preHandler: operator,
      },
      async (req) => {
        const shift = sql<Date>`make_interval(days => ${req.body.days})`;
        return ok(
          await withTx(db, async (tx) => {
            const order = await backdateOrder(tx, req.params.id, shift);
            if (!order) throw notFound();
            const refunds = await backdateRefunds(tx, req.params.id, shift);
            return {
              id: String(order.id),
              createdAt: new Date(order.created_at).toISOString(),
              finishedAt: order.finished_at ? new Date(order.finished_at).toISOString() : null,
              refunds,
            };
          }),
        );
      },
    );
  };
}
