import type { Executor } from "../../db/tx";

/**
 * What the stores module needs of collection when a store goes (through index.ts): the stores whose
 * collection codes still have open payments, and retiring those codes with the store.
 */

/**
 * The stores (of `storeIds`) with a collection code that has a payment not yet final (NOTPAY) or a
 * refund still processing. Retired codes count too: their payments are still the store's.
 */
export async function storesWithOpenPayments(db: Executor, storeIds: number[]): Promise<number[]> {
  if (storeIds.length === 0) return [];
  const rows = await db
    .selectFrom("pay_codes as c")
    .innerJoin("pay_orders as o", "o.code_id", "c.id")
    .select("c.store_id")
    .distinct()
    .where("c.store_id", "in", storeIds)
    .where((eb) =>
      eb.or([
        eb("o.state", "=", "NOTPAY"),
        eb.exists(
          eb
            .selectFrom("pay_refunds as f")
            .select("f.id")
            .whereRef("f.order_id", "=", "o.id")
            .where("f.state", "=", "PROCESSING"),
        ),
      ]),
    )
    .execute();
  return rows.map((r) => r.store_id).filter((id): id is number => id !== null);
}

/** Retires (disables) the live collection codes bound to these stores; how many. */
export async function retireStoreCodes(db: Executor, storeIds: number[], now: Date): Promise<number> {
  if (storeIds.length === 0) return 0;
  const r = await db
    .updateTable("pay_codes")
    .set({ deleted_at: now })
    .where("store_id", "in", storeIds)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}
