import { hkdfSync } from "node:crypto";
import { CODE } from "@tessera/contracts";
import { AppError } from "../../platform/http/errors";
import type { ModuleHost } from "../../platform/module";
import { consumeVerificationCode, type AccountsService } from "../accounts";
import type { CatalogService } from "../catalog";
import { activeBindings } from "../onboarding";
import type { PurchasingService } from "../purchasing";
import { cardKeys } from "../supply";
import { EquityOrders } from "./equity.service";
import { GiftPackages } from "./packages.service";
import { CardSalesOrders, ServedExtractions } from "./reports.service";
import { CustomersService } from "./customers.service";
import { brandRoutes } from "./brand.routes";
import { customerRoutes } from "./customer.routes";
import { purchaserRoutes } from "./purchaser.routes";
import { providerRoutes, publicRoutes } from "./routes";
import { OnecardService } from "./service";

export { OnecardService } from "./service";
export { CustomersService, customerOf, loginExpired, CUSTOMER_TOKEN_HEADER, type Customer } from "./customers.service";
export { creditCard } from "./cardpay.service";
export { cardOwner, customerCards, customerCardsElsewhere, customerIdByPhone, phonesOf } from "./cardpay.repo";
export { dynamicCodeRoutes } from "./dyncode.routes";
export {
  DynamicCodes,
  isDynamicCode,
  DYNAMIC_CODE_TTL_SECONDS,
  type DynamicRefusal,
  type DynamicCodeCard,
} from "./dyncode.service";

export interface OnecardModule {
  onecard: OnecardService;
  equities: EquityOrders;
  /** End customers and their token guard: the mini-program mall reuses them. */
  customers: CustomersService;
}

/**
 * Stored-value and gift cards (一卡通) and the end customer. Mounts /api/card-brander (products,
 * batches, redemption), /api/card-user (purchasers' cards), /api/card-public (balance query, charter,
 * reset password) and /api/mall (customer login and card bag, with the customer token).
 */
export interface OnecardNeeds {
  accounts: AccountsService;
  /** What a brand may buy (equities a card pays for are the brand's own purchases). */
  catalog: CatalogService;
  /** The brand's purchase orders for those equities. */
  purchasing: PurchasingService;
}

export async function registerOnecard(
  host: ModuleHost,
  { accounts, catalog, purchasing }: OnecardNeeds,
): Promise<OnecardModule> {
  const { ctx, db, guard } = host;
  host.app.decorateRequest("customer", null);
  const customers = new CustomersService({
    db,
    clock: ctx.clock,
    codes: {
      send: (phone, lang) => accounts.sendSmsCode(phone, "customerLogin", lang, null),
      check: (phone, code) => accounts.checkSmsCode(phone, "customerLogin", code),
      consume: consumeVerificationCode,
    },
  });
  const onecard = new OnecardService({
    db,
    clock: ctx.clock,
    keys: cardKeys(ctx.secret),
    pwdKey: Buffer.from(hkdfSync("sha256", ctx.secret, Buffer.alloc(0), "tessera/onecard/password/v1", 32)),
    sms: ctx.sms,
    publicUrl: ctx.config.webUrl,
    giftKey: Buffer.from(hkdfSync("sha256", ctx.secret, Buffer.alloc(0), "tessera/onecard/gift-link/v1", 32)),
    copyInserts: ctx.database.kind === "pglite",
    codes: {
      send: (phone, lang) => accounts.sendSmsCode(phone, "cardPassword", lang, null),
      check: (phone, code) => accounts.checkSmsCode(phone, "cardPassword", code),
      consume: consumeVerificationCode,
    },
  });
  await host.mount("/api/card-brander", brandRoutes({ onecard, guard }));
  const packages = new GiftPackages({ db, clock: ctx.clock, bag: onecard.bag });
  await host.mount(
    "/api/card-user",
    purchaserRoutes({ onecard, packages, salesOrders: new CardSalesOrders(db), guard }),
  );
  await host.mount("/api/card-public", publicRoutes({ onecard, customers, rateLimitDeps: accounts.rateLimitDeps }));
  const vendorsOf = async (providerId: number) =>
    (await activeBindings(db, providerId)).filter((b) => b.kind === "vendor").map((b) => b.merchant_id);
  await host.mount("/api/card-servicer", providerRoutes({ extractions: new ServedExtractions(db, vendorsOf), guard }));
  const equities = new EquityOrders({
    db,
    clock: ctx.clock,
    keys: cardKeys(ctx.secret),
    debit: (tx, cardId, amount, kind, requestKey, note) => onecard.debit(tx, cardId, amount, kind, requestKey, note),
    log: host.app.log,
    purchasing: {
      offers: (buyer, q) => catalog.merchandisesIn(buyer, q),
      goods: async (id) => (await catalog.merchandisesByIds([id])).get(id),
      place: (branderId, req) => purchasing.orderByApi(branderId, req),
      find: (branderId, orderNo) =>
        purchasing.orderByNo(branderId, orderNo).catch((err: unknown) => {
          if (err instanceof AppError && err.code === CODE.NOT_FOUND) return undefined;
          throw err;
        }),
    },
  });
  await host.mount(
    "/api/mall",
    customerRoutes({ onecard, equities, customers, rateLimitDeps: accounts.rateLimitDeps }),
  );
  host.schedule({
    name: "onecard-equity-orders",
    everyMs: 30_000,
    run: async () => {
      const n = await equities.followUp();
      return n > 0 ? `${n} equity orders finished` : undefined;
    },
  });
  host.schedule({
    name: "onecard-gift-expiry",
    everyMs: 10 * 60_000,
    run: async () => {
      const n = await onecard.expireGifts();
      return n > 0 ? `${n} unclaimed gifts expired` : undefined;
    },
  });
  return { onecard, equities, customers };
}
export { cardSetup, invariantProblems } from "./repo";
