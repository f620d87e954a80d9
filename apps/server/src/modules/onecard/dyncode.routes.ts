import { dynamicCodeReply, envelope } from "@tessera/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { ok } from "../../platform/http/envelope";
import { idParam } from "../../platform/http/route";
import { customerOf, type CustomersService } from "./customers.service";
import type { DynamicCodes } from "./dyncode.service";
import { customerDocs } from "./routes";

/** The card bag's call (/api/mall, customer token): a fresh dynamic code for one of the customer's cards. */
export function dynamicCodeRoutes({
  codes,
  customers,
}: {
  codes: DynamicCodes;
  customers: CustomersService;
}): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    app.post(
      "/onecard/cards/:id/dynamicCode",
      {
        schema: {
          ...customerDocs,
          summary: "A dynamic code for one of the customer's cards (valid 60 s, once)",
          params: idParam,
          response: { 200: envelope(dynamicCodeReply) },
        },
        preHandler: customers.guard(),
      },
      async (req) => ok(await codes.issue(customerOf(req), req.params.id)),
    );
  };
}
