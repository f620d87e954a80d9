import type { RawBuilder } from "kysely";
import type { PurchaseOrder } from "@tessera/contracts";
import type { Executor } from "../../db/tx";
import type { ModuleHost } from "../../platform/module";
import type { LowStock } from "../catalog";
import { apiPurchaseRoutes } from "./api-table";
import { orderChatBranderRoutes, orderChatUserRoutes } from "./order-chat.routes";
import { OrderChatService, type StoredChatMessage } from "./order-chat.service";
import { applicationsBranderRoutes, applicationsUserRoutes } from "./applications.routes";
import { ordersBranderRoutes, ordersUserRoutes } from "./orders.routes";
import { refundsBranderRoutes, refundsUserRoutes } from "./refunds.routes";
import { statisticsBranderRoutes, statisticsUserRoutes } from "./statistics.routes";
import { PurchasingService, type OrderResult } from "./service";
import { voucherExpiryJob, type ExpiredCodesRefund } from "./voucher-expiry";

export { PurchasingService, type OrderResult, type PurchasingDeps } from "./service";
export { OrderChatService, type StoredChatMessage } from "./order-chat.service";
export { agreedPriceOf } from "./agreed-price.sql";
export { codePriceSql, heldVoucherSales } from "./code-price";
export { refundExpiredVouchers, RetryLater, type ExpiredCodesRefund, type VoucherExpiryDeps } from "./voucher-expiry";
export { takeBackHandedOnCodes } from "./handed-on-refund";
export { orderMovementsSql, spendByInvoiceType } from "./spend";
export { servedOrders, type ServedOrderFilter, type ServedOrderRow, type ServedParties } from "./provider-reads";

/** Where an order's final result is written, in the order's own transaction (the callbacks outbox). */
export interface OrderResultOutbox {
  enqueue(tx: Executor, purchaserId: number, order: () => Promise<PurchaseOrder>): Promise<void>;
  enqueueStatement(purchaserId: number, order: OrderResult, onlyIf: RawBuilder<unknown>): RawBuilder<unknown>;
}

export interface PurchasingNeeds {
  orderResults: OrderResultOutbox;
  /** Tells a supplier that a sale took a goods below its low-stock threshold. */
  notifyLowStock: (notice: LowStock) => Promise<void>;
  /** A chat message by its server id (the IM service's store): an order conversation's opening message. */
  chatMessageOf: (id: number) => Promise<StoredChatMessage | undefined>;
  /** Pays back the mall customers a purchaser handed codes on to when those codes expire unused. */
  handedOn: ExpiredCodesRefund;
}

/**
 * Purchase applications, orders and the order conversations of the brand chat. Mounts under
 * /api/card-user (purchasers) and /api/card-brander (suppliers), and runs the daily refund of store
 * vouchers that expired unredeemed.
 */
export async function registerPurchasing(
  host: ModuleHost,
  needs: PurchasingNeeds,
): Promise<{ purchasing: PurchasingService }> {
  const { app, ctx, db, guard } = host;
  const { orderResults } = needs;
  const purchasing = new PurchasingService({
    db,
    clock: ctx.clock,
    onOrderResult: (tx, purchaserId, order) => orderResults.enqueue(tx, purchaserId, order),
    orderResultStatement: (purchaserId, order, onlyIf) => orderResults.enqueueStatement(purchaserId, order, onlyIf),
    onLowStock: (notice) =>
      needs.notifyLowStock(notice).catch((err: unknown) => app.log.warn({ err }, "low-stock notice not sent")),
  });
  host.schedule(voucherExpiryJob({ db, clock: ctx.clock, handedOn: needs.handedOn }));
  const routes = { purchasing, guard };
  await host.mount(
    "/api/card-user",
    applicationsUserRoutes(routes),
    ordersUserRoutes(routes),
    statisticsUserRoutes(routes),
    refundsUserRoutes(routes),
  );
  await host.mount("/api/card-user", apiPurchaseRoutes({ db, clock: ctx.clock, guard }));
  await host.mount(
    "/api/card-brander",
    ordersBranderRoutes(routes),
    statisticsBranderRoutes(routes),
    applicationsBranderRoutes(routes),
    refundsBranderRoutes(routes),
  );
  const chat = new OrderChatService({ db, clock: ctx.clock, messageOf: needs.chatMessageOf });
  await host.mount("/api/card-brander", orderChatBranderRoutes({ chat, guard }));
  await host.mount("/api/card-user", orderChatUserRoutes({ chat, guard }));
  return { purchasing };
}
