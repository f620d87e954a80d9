import type { Money, OrderReq, PurchaseOrder } from "@tessera/contracts";
import type { RawBuilder } from "kysely";
import type { Db, Tx } from "../../db/tx";
import type { Clock } from "../../platform/clock";
import type { LowStock } from "../catalog";
import { ApplicationsService } from "./applications.service";
import { OrdersService } from "./orders.service";
import { RefundsService } from "./refunds.service";
import { StatisticsService } from "./statistics";

export interface PurchasingDeps {
  db: Db;
  clock: Clock;
  /**
   * Called in the order's transaction when it reaches its result (the open API's callback outbox). The
   * order is read only if the hook asks for it, so orders of purchasers without a callback URL cost nothing.
   */
  onOrderResult?: (tx: Tx, purchaserId: number, order: () => Promise<PurchaseOrder>) => Promise<void>;
  /**
   * The same hook for an order final as it is inserted (codes from stock): a statement that the order's
   * one statement runs with it, writing the result when `onlyIf` (a query) returns a row. Such orders
   * are announced only through it.
   */
  orderResultStatement?: (purchaserId: number, order: OrderResult, onlyIf: RawBuilder<unknown>) => RawBuilder<unknown>;
  /** Called after an order's transaction when a sale took a goods below its low-stock threshold. */
  onLowStock: (notice: LowStock) => Promise<void>;
}

/** What an order-result hook is told about an order. */
export type OrderResult = Pick<
  PurchaseOrder,
  | "id"
  | "orderNo"
  | "goodsId"
  | "quantity"
  | "amount"
  | "state"
  | "upstreamChannelId"
  | "failReason"
  | "refunded"
  | "finishedAt"
>;

/**
 * Purchase orders (docking, the purchaser's agreement with a supplier, is the docking module's). An order is one transaction: the order row, the ledger movement and, for
 * goods sold from stock, the allocation of exactly the ordered codes. Goods fulfilled by the supplier
 * (direct top-ups) keep the purchaser's money in escrow until the supplier reports success (paid to the
 * supplier) or failure (returned to the purchaser), once.
 *
 * Orders (`orders`), purchase applications (`applications`), refunds (`refunds`) and the statistics pages
 * (`statistics`); the orders other modules place (open API, mall, one-card, providers) stay callable here.
 */
export class PurchasingService {
  /** Statistics and settlement pages: queries over orders and the ledger. */
  readonly statistics: StatisticsService;
  readonly orders: OrdersService;
  readonly applications: ApplicationsService;
  readonly refunds: RefundsService;

  constructor(deps: PurchasingDeps) {
    this.statistics = new StatisticsService({ db: deps.db });
    this.orders = new OrdersService(deps);
    this.applications = new ApplicationsService(deps);
    this.refunds = new RefundsService(deps);
  }

  /** An order through the open API (see OrdersService.orderByApi). */
  orderByApi(purchaserId: number, req: OrderReq): Promise<PurchaseOrder> {
    return this.orders.orderByApi(purchaserId, req);
  }

  /** An order placed for a purchaser by someone acting on its behalf (see OrdersService.orderOnBehalf). */
  orderOnBehalf(purchaserId: number, userId: number, req: OrderReq): Promise<PurchaseOrder> {
    return this.orders.orderOnBehalf(purchaserId, userId, req);
  }

  /** The purchaser's order by its own order number (the open API's order query). */
  orderByNo(purchaserId: number, orderNo: string): Promise<PurchaseOrder> {
    return this.orders.orderByNo(purchaserId, orderNo);
  }

  /** What an order on behalf of a purchaser would cost, without placing it (see OrdersService.quoteOnBehalf). */
  quoteOnBehalf(purchaserId: number, req: OrderReq): Promise<{ amount: Money; replay: boolean }> {
    return this.orders.quoteOnBehalf(purchaserId, req);
  }
}
