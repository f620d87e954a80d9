import { dynamicCodeReply, envelope } from "@tessera/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { ok } from "../../platform/http/envelope";
import { customerOf, type CustomersService } from "./customers.service";
import type { DynamicCodes } from "./dyncode.service";

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
          tags: ["onecard"],
          security: [{ customerToken: [] }],
          summary: "A dynamic code for one of the customer's cards (valid 60 s, once)",
          params: z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) }),
          response: { 200: envelope(dynamicCodeReply) },
        },
        preHandler: customers.guard(),
      },
      async (req) => ok(await codes.issue(customerOf(req), req.params.id)),
    );
  };
}
