import type { Db } from "../../db/tx";
import type { Clock } from "../../platform/clock";
import type { PaymentsAdapter } from "../../platform/adapters/payments";
import { OrdersService } from "./orders.service";
import { ShopService } from "./shop.service";

export interface TakeoutDeps {
  db: Db;
  clock: Clock;
  payments: PaymentsAdapter;
}

/**
 * The takeout mini-shop: the brand's shop settings and menu (`shop`), customers' orders from the phone
 * page and the shop's order handling (`orders`). Stock of counted items is taken when the order is placed
 * and given back when it is cancelled; money moves only through the ledger, once per order and step.
 */
export class TakeoutService {
  readonly shop: ShopService;
  readonly orders: OrdersService;

  constructor(deps: TakeoutDeps) {
    this.shop = new ShopService(deps);
    this.orders = new OrdersService(deps);
  }

  /** Closes orders left unpaid (the job; see OrdersService.closeUnpaid). */
  closeUnpaid(limit = 200): Promise<number> {
    return this.orders.closeUnpaid(limit);
  }
}
