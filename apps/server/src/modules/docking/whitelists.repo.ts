import { paginate } from "../../db/paginate";
import type { Executor } from "../../db/tx";

/** SQL of the supplier whitelists. Every read names the supplier it is for. */

export async function insertWhitelist(
  tx: Executor,
  w: {
    supplierId: number;
    purchaserId: number;
    scope: "vendor" | "goods";
    goodsId: number | null;
    remark: string;
    createdBy: number;
  },
): Promise<number> {
  const row = await tx
    .insertInto("purchase_whitelists")
    .values({
      supplier_merchant_id: w.supplierId,
      purchaser_merchant_id: w.purchaserId,
      scope: w.scope,
      goods_id: w.goodsId,
      remark: w.remark,
      created_by: w.createdBy,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export function findWhitelist(db: Executor, id: number, supplierId: number) {
  return db
    .selectFrom("purchase_whitelists")
    .selectAll()
    .where("id", "=", id)
    .where("supplier_merchant_id", "=", supplierId)
    .executeTakeFirst();
}

export type WhitelistRow = NonNullable<Awaited<ReturnType<typeof findWhitelist>>>;

export async function removeWhitelist(
  tx: Executor,
  id: number,
  supplierId: number,
  by: number,
  at: Date,
): Promise<boolean> {
  const res = await tx
    .updateTable("purchase_whitelists")
    .set({ removed_at: at, removed_by: by })
    .where("id", "=", id)
    .where("supplier_merchant_id", "=", supplierId)
    .where("removed_at", "is", null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

export async function whitelistPage(
  db: Executor,
  f: {
    supplierId: number;
    scope: "vendor" | "goods";
    purchaserId?: number | undefined;
    goodsId?: number | undefined;
    active?: boolean | undefined;
    offset: number;
    limit: number;
  },
) {
  let q = db
    .selectFrom("purchase_whitelists")
    .where("supplier_merchant_id", "=", f.supplierId)
    .where("scope", "=", f.scope);
  if (f.purchaserId !== undefined) q = q.where("purchaser_merchant_id", "=", f.purchaserId);
  if (f.goodsId !== undefined) q = q.where("goods_id", "=", f.goodsId);
  if (f.active !== undefined) q = q.where("removed_at", f.active ? "is" : "is not", null);
  return paginate(q.selectAll().orderBy("id", "desc"), q, f);
}
