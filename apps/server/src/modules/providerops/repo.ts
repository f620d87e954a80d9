import type { BatchPurchaseLine } from "@tessera/contracts";
import { paginate } from "../../db/paginate";
import type { Executor } from "../../db/tx";

/** SQL of the providerops module's one table: the BatchPurchase files and their line results. */

export function insertBatch(
  db: Executor,
  b: {
    providerId: number;
    fileName: string;
    lines: BatchPurchaseLine[];
    ordered: number;
    refused: number;
    createdBy: number;
  },
) {
  return db
    .insertInto("provider_batch_purchases")
    .values({
      provider_id: b.providerId,
      file_name: b.fileName,
      lines: JSON.stringify(b.lines),
      ordered: b.ordered,
      refused: b.refused,
      created_by: b.createdBy,
    })
    .returning(["id", "created_at"])
    .executeTakeFirstOrThrow();
}

export async function batchPage(db: Executor, providerId: number, page: { offset: number; limit: number }) {
  const base = db.selectFrom("provider_batch_purchases").where("provider_id", "=", providerId);
  return paginate(
    base.select(["id", "file_name", "ordered", "refused", "created_at"]).orderBy("id", "desc"),
    base,
    page,
  );
}

/** One file of this provider; another provider's is undefined. */
export function findBatch(db: Executor, providerId: number, id: number) {
  return db
    .selectFrom("provider_batch_purchases")
    .selectAll()
    .where("id", "=", id)
    .where("provider_id", "=", providerId)
    .executeTakeFirst();
}
