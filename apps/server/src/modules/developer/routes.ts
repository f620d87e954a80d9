import { callbackTestReply, developerExamplesReply, envelope } from "@tessera/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { actorOf, type Guard } from "../../platform/auth/guard";
import { ok } from "../../platform/http/envelope";
import { routeDocs } from "../../platform/http/route";
import type { DeveloperService } from "./service";

const docs = routeDocs("developer portal");

/** Public: the signing examples (`/api/card-public/developer/examples`). */
export function developerPublicRoutes({ developer }: { developer: DeveloperService }): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    app.get(
      "/developer/examples",
      {
        schema: {
          tags: docs.tags,
          summary: "Signing examples of the open API in several languages, with the worked example",
          response: { 200: envelope(developerExamplesReply) },
        },
      },
      async () => ok(await developer.examples()),
    );
  };
}

/** The purchaser's callback tester (`/api/card-user/developer/callbackTest`). */
export function developerUserRoutes({
  developer,
  guard,
}: {
  developer: DeveloperService;
  guard: Guard;
}): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    const pre = guard({ roles: ["sale"], menu: "sale/ApiSecurity" });
    app.post(
      "/developer/callbackTest",
      {
        schema: {
          ...docs,
          summary: "Send a signed sample order-result callback to the merchant's callback URL and show the reply",
          response: { 200: envelope(callbackTestReply) },
        },
        preHandler: pre,
      },
      async (req) => ok(await developer.callbackTest(actorOf(req))),
    );
  };
}
