import { CheckoutService } from "./checkout.service";
import { ConfigService } from "./config.service";
import { OrdersService } from "./orders.service";
import type { MallDeps } from "./shared";
import { StorefrontService } from "./storefront.service";

export type { MallAppearance, MallAppearanceSource, MallCallPurpose, MallContext, MallDeps } from "./shared";

/**
 * The mall: the feature services under one name, as the routes and the other modules use it. The
 * storefront (what the customer browses, the testers of the experience version) is built first; the
 * back-office's configuration, the checkout and the orders after it read through it.
 */
export class MallService {
  readonly store: StorefrontService;
  readonly config: ConfigService;
  readonly shop: CheckoutService;
  readonly orderBook: OrdersService;
  constructor(deps: MallDeps) {
    this.store = new StorefrontService(deps);
    this.config = new ConfigService(deps, this.store);
    this.shop = new CheckoutService(deps, this.store);
    this.orderBook = new OrdersService(deps, this.store);
  }

  /* ---------- the storefront (storefront.service.ts) ---------- */
  resolve: StorefrontService["resolve"] = (...a) => this.store.resolve(...a);
  testers: StorefrontService["testers"] = (...a) => this.store.testers(...a);
  saveTesters: StorefrontService["saveTesters"] = (...a) => this.store.saveTesters(...a);
  unlocked: StorefrontService["unlocked"] = (...a) => this.store.unlocked(...a);
  storefront: StorefrontService["storefront"] = (...a) => this.store.storefront(...a);
  sendLoginCode: StorefrontService["sendLoginCode"] = (...a) => this.store.sendLoginCode(...a);
  storeGoods: StorefrontService["storeGoods"] = (...a) => this.store.storeGoods(...a);
  storeItem: StorefrontService["storeItem"] = (...a) => this.store.storeItem(...a);
  storeCards: StorefrontService["storeCards"] = (...a) => this.store.storeCards(...a);
  cardsElsewhere: StorefrontService["cardsElsewhere"] = (...a) => this.store.cardsElsewhere(...a);

  /* ---------- the merchant's configuration (config.service.ts) ---------- */
  candidates: ConfigService["candidates"] = (...a) => this.config.candidates(...a);
  addSelf: ConfigService["addSelf"] = (...a) => this.config.addSelf(...a);
  updateSelf: ConfigService["updateSelf"] = (...a) => this.config.updateSelf(...a);
  selfGoods: ConfigService["selfGoods"] = (...a) => this.config.selfGoods(...a);
  saveBag: ConfigService["saveBag"] = (...a) => this.config.saveBag(...a);
  bags: ConfigService["bags"] = (...a) => this.config.bags(...a);
  settings: ConfigService["settings"] = (...a) => this.config.settings(...a);
  saveSettings: ConfigService["saveSettings"] = (...a) => this.config.saveSettings(...a);
  smsSummary: ConfigService["smsSummary"] = (...a) => this.config.smsSummary(...a);
  buySms: ConfigService["buySms"] = (...a) => this.config.buySms(...a);
  smsRecords: ConfigService["smsRecords"] = (...a) => this.config.smsRecords(...a);

  /* ---------- checkout (checkout.service.ts) ---------- */
  checkout: CheckoutService["checkout"] = (...a) => this.shop.checkout(...a);
  followUp: CheckoutService["followUp"] = (...a) => this.shop.followUp(...a);
  customerOrder: CheckoutService["customerOrder"] = (...a) => this.shop.customerOrder(...a);

  /* ---------- orders after it (orders.service.ts) ---------- */
  customerCodes: OrdersService["customerCodes"] = (...a) => this.orderBook.customerCodes(...a);
  customerOrders: OrdersService["customerOrders"] = (...a) => this.orderBook.customerOrders(...a);
  orders: OrdersService["orders"] = (...a) => this.orderBook.orders(...a);
  refund: OrdersService["refund"] = (...a) => this.orderBook.refund(...a);
  members: OrdersService["members"] = (...a) => this.orderBook.members(...a);
}
