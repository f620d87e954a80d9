import { envelope } from "@tessera/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { actorOf, type Guard } from "../../platform/auth/guard";
import { ok } from "../../platform/http/envelope";
import { idParam, routeDocs } from "../../platform/http/route";
import type { ReconciliationService } from "./service";

const docs = routeDocs("reconciliation");

const difference = z.object({
  id: z.string(),
  provider: z.string(),
  day: z.string(),
  kind: z.enum(["missing", "extra", "amount"]),
  entry: z.enum(["payment", "refund"]),
  reference: z.string(),
  paymentNo: z.string(),
  providerRef: z.string().nullable(),
  merchantId: z.string().nullable(),
  merchantName: z.string().nullable(),
  ourAmount: z.number().nullable(),
  billAmount: z.number().nullable(),
  state: z.enum(["open", "resolved"]),
  resolution: z.string().nullable(),
  resolvedAt: z.string().nullable(),
  createdAt: z.string(),
});
const page = z.object({ total: z.number(), page: z.number(), pageSize: z.number(), list: z.array(difference) });
const query = z.object({
  state: z.enum(["open", "resolved"]).optional(),
  day: z.string().optional(),
  merchantId: z.coerce.number().int().positive().optional(),
  page: z.coerce.number().int().positive().optional(),
  pageSize: z.coerce.number().int().positive().max(100).optional(),
});
const runResult = z.object({
  provider: z.string(),
  day: z.string(),
  billLines: z.number(),
  added: z.number(),
  differences: z.number(),
});

/** The operator's reconciliation (issue 41, item 5), mounted under /api/ops/reconciliation. */
export function opsReconciliationRoutes({
  reconciliation,
  guard,
}: {
  reconciliation: ReconciliationService;
  guard: Guard;
}): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    const pre = guard({ kinds: ["operator"] });
    app.get(
      "/differences",
      {
        schema: {
          ...docs,
          summary: "Differences between the providers' bills and our payments, newest first",
          querystring: query,
          response: { 200: envelope(page) },
        },
        preHandler: pre,
      },
      async (req) => ok(await reconciliation.list(req.query)),
    );
    app.post(
      "/differences/:id/resolve",
      {
        schema: {
          ...docs,
          summary: "Resolve a difference (a reason required); the merchant's last one releases its held payout",
          params: idParam,
          body: z.object({ reason: z.string().max(500) }),
          response: { 200: envelope(z.object({ released: z.number() })) },
        },
        preHandler: pre,
      },
      async (req) => ok(await reconciliation.resolve(actorOf(req), req.params.id, req.body.reason, req.ip)),
    );
    app.get(
      "/days/:day",
      {
        schema: {
          ...docs,
          summary: "Whether a day is reconciled (the T+1 payout of that day waits for it) and each provider's run",
          params: z.object({ day: z.string() }),
          response: {
            200: envelope(
              z.object({
                day: z.string(),
                reconciled: z.boolean(),
                runs: z.array(
                  z.object({ provider: z.string(), billLines: z.number(), differences: z.number(), ranAt: z.string() }),
                ),
              }),
            ),
          },
        },
        preHandler: pre,
      },
      async (req) => ok(await reconciliation.day(req.params.day)),
    );
    app.post(
      "/run",
      {
        schema: {
          ...docs,
          summary: "Reconcile a platform day (YYYY-MM-DD, already over) now; running a day again adds nothing",
          body: z.object({ day: z.string() }),
          response: { 200: envelope(z.array(runResult)) },
        },
        preHandler: pre,
      },
      async (req) => ok(await reconciliation.run(req.body.day)),
    );
  };
}
