import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import type { Guard } from "../../platform/auth/guard";
import type { ReviewQueue } from "./queue";
import { opsRoutes } from "./routes";
import { OpsService } from "./service";

export { OpsService, type OpsDeps } from "./service";
export { opsRoutes } from "./routes";
export type { ReviewOutcome, ReviewQueue } from "./queue";
/** Other modules write their operators' actions (money movements, payouts) into the same audit log. */
export { insertAudit as recordOperatorAction } from "./repo";

/** Builds the operator console over the given review queues and mounts it under /api/ops. */
export async function registerOps(
  app: FastifyInstance,
  ctx: AppContext,
  guard: Guard,
  providers: { queues: ReviewQueue[]; readDocumentForReview: (id: number) => Promise<{ data: Buffer; contentType: string }> },
): Promise<OpsService> {
  const ops = new OpsService({ db: ctx.database.db, clock: ctx.clock });
  for (const q of providers.queues) ops.register(q);
  await app.register(opsRoutes({ ops, guard, readDocument: providers.readDocumentForReview }), { prefix: "/api/ops" });
  return ops;
}
