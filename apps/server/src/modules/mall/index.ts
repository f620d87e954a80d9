import type { ModuleHost } from "../../platform/module";
import type { CatalogService } from "../catalog";
import type { CustomersService, OnecardService } from "../onecard";
import type { PurchasingService } from "../purchasing";
import { AppError } from "../../platform/http/errors";
import { CODE } from "@tessera/contracts";
import { cardKeys } from "../supply";
import { merchantRoutes, storeRoutes } from "./routes";
import { MallService, type MallAppearanceSource } from "./service";
export { mallStock } from "./repo";

export { MallService, type MallAppearance, type MallAppearanceSource } from "./service";
export { refundExpiredCodes } from "./expired-codes";

export interface MallNeeds {
  /** The published (or experience) mall config of an app id: the miniprogram module's `mallAppearance`. */
  appearance: MallAppearanceSource;
  customers: CustomersService;
  onecard: OnecardService;
  catalog: CatalogService;
  purchasing: PurchasingService;
}

/**
 * The customer mall and the merchant's mall back-office (issue 30 B). Mounts the merchant's calls under
 * /api/card-user/mall and /api/card-brander/mall, and the storefront's under /api/mall/shop (the customer
 * token of the one-card module, `v` 1, app id and seller id).
 */
export async function registerMall(host: ModuleHost, needs: MallNeeds): Promise<{ mall: MallService }> {
  const { ctx, db, guard } = host;
  const mall = new MallService({
    db,
    clock: ctx.clock,
    keys: cardKeys(ctx.secret),
    appearance: needs.appearance,
    catalog: {
      offers: (buyer, q) => needs.catalog.merchandisesIn(buyer, q),
      goods: (ids) => (ids.length ? needs.catalog.merchandisesByIds(ids) : Promise.resolve(new Map())),
    },
    purchasing: {
      place: (merchantId, req) => needs.purchasing.orderByApi(merchantId, req),
      find: (merchantId, orderNo) =>
        needs.purchasing.orderByNo(merchantId, orderNo).catch((err: unknown) => {
          if (err instanceof AppError && err.code === CODE.NOT_FOUND) return undefined;
          throw err;
        }),
    },
    debitCard: (tx, cardId, amount, requestKey, note) =>
      needs.onecard.debit(tx, cardId, amount, "redeem", requestKey, note),
    sendLoginCode: (phone, lang) => needs.customers.sendLoginCode(phone, lang),
    customerPhone: async (token) => (await needs.customers.authenticate(token))?.phone ?? null,
    payments: host.ctx.payments,
    log: host.app.log,
  });
  await host.mount("/api/card-user", merchantRoutes({ mall, guard }));
  await host.mount("/api/card-brander", merchantRoutes({ mall, guard }));
  await host.mount("/api/mall", storeRoutes({ mall, customers: needs.customers }));
  host.schedule({
    name: "mall-top-ups",
    everyMs: 30_000,
    run: async () => {
      const n = await mall.followUp();
      return n > 0 ? `${n} mall orders followed up` : undefined;
    },
  });
  return { mall };
}
