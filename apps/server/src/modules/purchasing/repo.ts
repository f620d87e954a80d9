import type { Executor } from "../../db/tx";
import type { DockingStatusColumn, OrderStateColumn } from "./tables";

/** SQL of the purchasing module: dockings and purchase orders. Each read names the merchant it is for. */

export async function insertDocking(tx: Executor, d: { purchaserId: number; supplierId: number; createdBy: number }): Promise<number> {
  const row = await tx
    .insertInto("dockings")
    .values({ purchaser_merchant_id: d.purchaserId, supplier_merchant_id: d.supplierId, created_by: d.createdBy })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A docking the merchant is a party of, locked for a change. */
export function lockDockingOf(tx: Executor, id: number, merchantId: number) {
  return tx
    .selectFrom("dockings")
    .selectAll()
    .where("id", "=", id)
    .where((eb) => eb.or([eb("purchaser_merchant_id", "=", merchantId), eb("supplier_merchant_id", "=", merchantId)]))
    .forUpdate()
    .executeTakeFirst();
}

export type DockingRow = NonNullable<Awaited<ReturnType<typeof lockDockingOf>>>;

export function findDocking(db: Executor, id: number) {
  return db.selectFrom("dockings").selectAll().where("id", "=", id).executeTakeFirst();
}

export async function updateDocking(
  tx: Executor,
  id: number,
  c: {
    status?: DockingStatusColumn;
    rejectReason?: string | null;
    decidedAt?: Date;
    purchaserSigned?: { at: Date; by: number; phone: string };
    supplierSigned?: { at: Date; by: number; phone: string };
  },
): Promise<void> {
  await tx
    .updateTable("dockings")
    .set({
      ...(c.status !== undefined && { status: c.status }),
      ...(c.rejectReason !== undefined && { reject_reason: c.rejectReason }),
      ...(c.decidedAt !== undefined && { decided_at: c.decidedAt }),
      ...(c.purchaserSigned && { purchaser_signed_at: c.purchaserSigned.at, purchaser_signed_by: c.purchaserSigned.by, purchaser_sign_phone: c.purchaserSigned.phone }),
      ...(c.supplierSigned && { supplier_signed_at: c.supplierSigned.at, supplier_signed_by: c.supplierSigned.by, supplier_sign_phone: c.supplierSigned.phone }),
    })
    .where("id", "=", id)
    .execute();
}

/** The docking through which a purchaser may buy from a supplier: approved and signed by both sides. */
export function dockedPair(db: Executor, purchaserId: number, supplierId: number) {
  return db
    .selectFrom("dockings")
    .select("id")
    .where("purchaser_merchant_id", "=", purchaserId)
    .where("supplier_merchant_id", "=", supplierId)
    .where("status", "=", "approved")
    .where("purchaser_signed_at", "is not", null)
    .where("supplier_signed_at", "is not", null)
    .executeTakeFirst();
}

export async function dockingPage(db: Executor, f: { merchantId: number; side?: "purchaser" | "supplier" | undefined; status?: DockingStatusColumn | undefined; offset: number; limit: number }) {
  let q = db.selectFrom("dockings");
  q =
    f.side === "purchaser"
      ? q.where("purchaser_merchant_id", "=", f.merchantId)
      : f.side === "supplier"
        ? q.where("supplier_merchant_id", "=", f.merchantId)
        : q.where((eb) => eb.or([eb("purchaser_merchant_id", "=", f.merchantId), eb("supplier_merchant_id", "=", f.merchantId)]));
  if (f.status) q = q.where("status", "=", f.status);
  const [rows, count] = await Promise.all([
    q.selectAll().orderBy("id", "desc").offset(f.offset).limit(f.limit).execute(),
    q.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

export interface NewOrder {
  orderNo: string;
  purchaserId: number;
  supplierId: number;
  goodsId: number;
  goodsName: string;
  businessType: string;
  quantity: number;
  unitPrice: number;
  amount: number;
  currency: "CNY" | "USD" | "HKD";
  state: OrderStateColumn;
  topUpAccount: string | null;
  digest: string;
  createdBy: number;
}

/** Inserts an order; null when the purchaser already used the order number. */
export async function insertOrder(tx: Executor, o: NewOrder): Promise<number | null> {
  const row = await tx
    .insertInto("purchase_orders")
    .values({
      order_no: o.orderNo,
      purchaser_merchant_id: o.purchaserId,
      supplier_merchant_id: o.supplierId,
      goods_id: o.goodsId,
      goods_name: o.goodsName,
      business_type: o.businessType,
      quantity: o.quantity,
      unit_price: o.unitPrice,
      amount: o.amount,
      currency: o.currency,
      state: o.state,
      top_up_account: o.topUpAccount,
      request_digest: o.digest,
      created_by: o.createdBy,
    })
    .onConflict((oc) => oc.columns(["purchaser_merchant_id", "order_no"]).doNothing())
    .returning("id")
    .executeTakeFirst();
  return row?.id ?? null;
}

export function findOrderByNo(db: Executor, purchaserId: number, orderNo: string) {
  return db.selectFrom("purchase_orders").selectAll().where("purchaser_merchant_id", "=", purchaserId).where("order_no", "=", orderNo).executeTakeFirst();
}

export function findOrder(db: Executor, id: number) {
  return db.selectFrom("purchase_orders").selectAll().where("id", "=", id).executeTakeFirst();
}

export function lockOrder(tx: Executor, id: number) {
  return tx.selectFrom("purchase_orders").selectAll().where("id", "=", id).forUpdate().executeTakeFirst();
}

export type OrderRow = NonNullable<Awaited<ReturnType<typeof findOrder>>>;

export async function finishOrder(
  tx: Executor,
  id: number,
  c: { state: "success" | "failure"; upstreamChannelId?: string; failReason?: string; refunded?: boolean; at: Date },
): Promise<void> {
  await tx
    .updateTable("purchase_orders")
    .set({
      state: c.state,
      finished_at: c.at,
      ...(c.upstreamChannelId !== undefined && { upstream_channel_id: c.upstreamChannelId }),
      ...(c.failReason !== undefined && { fail_reason: c.failReason }),
      ...(c.refunded !== undefined && { refunded: c.refunded }),
    })
    .where("id", "=", id)
    .execute();
}

export async function orderPage(
  db: Executor,
  f: { purchaserId?: number; supplierId?: number; state?: OrderStateColumn | undefined; orderNo?: string | undefined; goodsId?: number | undefined; offset: number; limit: number },
) {
  let q = db.selectFrom("purchase_orders");
  if (f.purchaserId !== undefined) q = q.where("purchaser_merchant_id", "=", f.purchaserId);
  if (f.supplierId !== undefined) q = q.where("supplier_merchant_id", "=", f.supplierId);
  if (f.state) q = q.where("state", "=", f.state);
  if (f.orderNo) q = q.where("order_no", "=", f.orderNo);
  if (f.goodsId !== undefined) q = q.where("goods_id", "=", f.goodsId);
  const [rows, count] = await Promise.all([
    q.selectAll().orderBy("id", "desc").offset(f.offset).limit(f.limit).execute(),
    q.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}
