import { envelope, setupChecklist } from "@tessera/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { actorOf, tenantOf, type Guard } from "../../platform/auth/guard";
import { ok } from "../../platform/http/envelope";
import { routeDocs } from "../../platform/http/route";
import type { SetupService } from "./service";

const docs = routeDocs("Setup");

/** The merchant's setup checklist (/api/card-user/setup). */
export function setupRoutes({ setup, guard }: { setup: SetupService; guard: Guard }): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    app.get(
      "/setup/checklist",
      {
        schema: {
          ...docs,
          summary: "What the merchant has set up of each capability, and what comes next",
          response: { 200: envelope(setupChecklist) },
        },
        preHandler: guard({ kinds: ["merchant"] }),
      },
      async (req) => ok(await setup.checklist(tenantOf(actorOf(req)))),
    );
  };
}
