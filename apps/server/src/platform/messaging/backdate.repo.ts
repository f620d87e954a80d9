import { sql, type RawBuilder } from "kysely";
import type { Executor } from "../../db/tx";

/**
 * SQL of the journeys' backdating scaffolding (dev-routes.ts, DEV_ROUTES=true only): moves a purchase order's
 * times and its refunds' times back by `shift`.
 */

export function backdateOrder(tx: Executor, orderId: number, shift: RawBuilder<Date>) {
  return tx
    .updateTable("purchase_orders")
    .set({
      created_at: sql<Date>`created_at - ${shift}`,
      finished_at: sql<Date | null>`finished_at - ${shift}`,
    })
    .where("id", "=", orderId)
    .returning(["id", "created_at", "finished_at"])
    .executeTakeFirst();
}

/** How many of the order's refunds moved. */
export async function backdateRefunds(tx: Executor, orderId: number, shift: RawBuilder<Date>): Promise<number> {
  const refunds = await tx
    .updateTable("refund_orders")
    .set({
      created_at: sql<Date>`created_at - ${shift}`,
      finished_at: sql<Date | null>`finished_at - ${shift}`,
    })
    .where("order_id", "=", orderId)
    .executeTakeFirst();
  return Number(refunds.numUpdatedRows);
}
