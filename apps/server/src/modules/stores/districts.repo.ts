import { sql } from "kysely";
import type { Executor } from "../../db/tx";
import { paginate } from "../../db/paginate";

/** SQL of business districts. Every call names the brand, or a district the caller found under it. */

/** A page of the brand's districts (name containing `keyword`), with how many live stores each has. */
export async function districtPage(
  db: Executor,
  branderId: number,
  q: { keyword?: string | undefined; limit: number; offset: number },
) {
  let base = db.selectFrom("store_districts as d").where("d.brander_id", "=", branderId);
  if (q.keyword) base = base.where("d.name", "like", `%${q.keyword}%`);
  return paginate(
    base
      .select(["d.id", "d.name", "d.remark", "d.created_at"])
      .select(
        sql<string>`(SELECT count(*) FROM stores s WHERE s.district_id = d.id AND s.deleted_at IS NULL)`.as("stores"),
      )
      .orderBy("d.id", "desc"),
    base,
    q,
  );
}

export async function insertDistrict(
  tx: Executor,
  branderId: number,
  v: { name: string; remark: string },
): Promise<number> {
  const row = await tx
    .insertInto("store_districts")
    .values({ brander_id: branderId, name: v.name, remark: v.remark })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Renames one of the brand's districts; whether it did. */
export async function updateDistrict(
  tx: Executor,
  branderId: number,
  id: number,
  v: { name: string; remark: string },
): Promise<boolean> {
  const r = await tx
    .updateTable("store_districts")
    .set({ name: v.name, remark: v.remark })
    .where("id", "=", id)
    .where("brander_id", "=", branderId)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** A live store in the district, if any. */
export function liveStoreIn(tx: Executor, districtId: number) {
  return tx
    .selectFrom("stores")
    .select("id")
    .where("district_id", "=", districtId)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
}

/** Deletes a district; deleted stores keep no reference to it. */
export async function deleteDistrict(tx: Executor, districtId: number): Promise<void> {
  await tx.updateTable("stores").set({ district_id: null }).where("district_id", "=", districtId).execute();
  await tx.deleteFrom("store_districts").where("id", "=", districtId).execute();
}
