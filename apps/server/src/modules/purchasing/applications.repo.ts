import { paginate } from "../../db/paginate";
import type { Executor } from "../../db/tx";

/** SQL of purchase applications. Each read names the merchant it is for. */

export async function insertApplication(
  tx: Executor,
  a: { purchaserId: number; supplierId: number; goodsId: number; remark: string; createdBy: number },
): Promise<number> {
  const row = await tx
    .insertInto("purchase_applications")
    .values({
      purchaser_merchant_id: a.purchaserId,
      supplier_merchant_id: a.supplierId,
      goods_id: a.goodsId,
      remark: a.remark,
      created_by: a.createdBy,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export function findApplication(db: Executor, id: number) {
  return db.selectFrom("purchase_applications").selectAll().where("id", "=", id).executeTakeFirst();
}

export type ApplicationRow = NonNullable<Awaited<ReturnType<typeof findApplication>>>;

export async function decideApplication(
  tx: Executor,
  id: number,
  supplierId: number,
  d: {
    state: "rejected" | "purchasing";
    price: number | null;
    secretPrice: number | null;
    reason: string | null;
    at: Date;
  },
): Promise<boolean> {
  const res = await tx
    .updateTable("purchase_applications")
    .set({ state: d.state, price: d.price, secret_price: d.secretPrice, reject_reason: d.reason, decided_at: d.at })
    .where("id", "=", id)
    .where("supplier_merchant_id", "=", supplierId)
    .where("state", "=", "pending_review")
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

export async function applicationPage(
  db: Executor,
  f: {
    purchaserId?: number;
    supplierId?: number;
    state?: "pending_review" | "rejected" | "purchasing" | undefined;
    offset: number;
    limit: number;
  },
) {
  let q = db.selectFrom("purchase_applications");
  if (f.purchaserId !== undefined) q = q.where("purchaser_merchant_id", "=", f.purchaserId);
  if (f.supplierId !== undefined) q = q.where("supplier_merchant_id", "=", f.supplierId);
  if (f.state) q = q.where("state", "=", f.state);
  return paginate(q.selectAll().orderBy("id", "desc"), q, f);
}
