import type { Executor } from "../../db/tx";

/**
 * The purchasers a supplier approved a docking with, as id and name (by name, then id), for another
 * module's purchaser picker (the rebate rule dialog): the same set the supplier's approved docking list
 * shows, each purchaser once.
 */
export function approvedPurchasers(db: Executor, supplierId: number, limit: number): Promise<{ id: number; name: string }[]> {
  return db
    .selectFrom("dockings as d")
    .innerJoin("merchants as m", "m.id", "d.purchaser_merchant_id")
    .select(["m.id", "m.name"])
    .distinct()
    .where("d.supplier_merchant_id", "=", supplierId)
    .where("d.status", "=", "approved")
    .orderBy("m.name")
    .orderBy("m.id")
    .limit(limit)
    .execute();
}
