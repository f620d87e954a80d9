import type { ModuleHost } from "../../platform/module";
import type { ReviewQueue } from "../../platform/review-queue";
import { opsRoutes } from "./routes";
import { OpsService } from "./service";

export { OpsService, type OpsDeps } from "./service";
export type { ReviewOutcome, ReviewQueue } from "../../platform/review-queue";
/** Other modules write their operators' actions (money movements, payouts) into the same audit log. */
export { insertAudit as recordOperatorAction } from "./repo";

export interface OpsNeeds {
  /** Every module's review queues (real-name, API permission, bank cards, ...). */
  queues: ReviewQueue[];
  /** Reads a real-name document an operator reviews. */
  readDocumentForReview: (id: number) => Promise<{ data: Buffer; contentType: string }>;
}

/** The operator console over the other modules' review queues, under /api/ops. */
export async function registerOps(host: ModuleHost, needs: OpsNeeds): Promise<{ ops: OpsService }> {
  const ops = new OpsService({ db: host.db, clock: host.ctx.clock });
  for (const q of needs.queues) ops.register(q);
  await host.mount("/api/ops", opsRoutes({ ops, guard: host.guard, readDocument: needs.readDocumentForReview }));
  return { ops };
}
