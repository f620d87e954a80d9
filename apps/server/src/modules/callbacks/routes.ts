import { callbackPage, callbackQuery, envelope } from "@tessera/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { actorOf, tenantOf, type Guard } from "../../platform/auth/guard";
import { ok } from "../../platform/http/envelope";
import { routeDocs } from "../../platform/http/route";
import { CALLBACK_BACKOFF_SECONDS, type CallbackService } from "./service";

const docs = routeDocs("open API");

/** The callback delivery log and replay (ApiSecurity pages), mounted under /api/card-brander. */
export function callbackLogRoutes({
  callbacks,
  guard,
}: {
  callbacks: CallbackService;
  guard: Guard;
}): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    const pre = guard({ roles: ["sale", "business"], menu: ["sale/ApiSecurity", "business/ApiSecurityB"] });
    app.get(
      "/api/callbacks",
      {
        schema: {
          ...docs,
          summary: `Order result callbacks sent to your URL (retried after ${CALLBACK_BACKOFF_SECONDS.join(", ")} seconds until a 2xx answer)`,
          querystring: callbackQuery,
          response: { 200: envelope(callbackPage) },
        },
        preHandler: pre,
      },
      async (req) => ok(await callbacks.log(tenantOf(actorOf(req)), req.query)),
    );
    app.post(
      "/api/callbacks/:id/replay",
      {
        schema: {
          ...docs,
          summary: "Send a callback again now (same event id)",
          params: z.object({ id: z.coerce.number().int().positive() }),
          response: { 200: envelope(z.null()) },
        },
        preHandler: pre,
      },
      async (req) => {
        await callbacks.replay(tenantOf(actorOf(req)), req.params.id);
        return ok(null);
      },
    );
  };
}
