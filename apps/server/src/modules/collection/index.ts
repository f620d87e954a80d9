import { findSubAccount } from "../accounts";
import type { ReviewQueue } from "../ops";
import type { ModuleHost } from "../../platform/module";
import { collectionBrandRoutes, collectionOpsRoutes, collectionPublicRoutes, collectionServicerRoutes } from "./routes";
import { CollectionService } from "./service";
export { collectionSetup } from "./codes.repo";

export { CollectionService } from "./service";
export { retireStoreCodes, storesWithOpenPayments } from "./stores-link.repo";

/** The one thing collection asks of stores: whether a store is the merchant's (a narrow port, no import). */
export interface CollectionStoresPort {
  findStore(merchantId: number, storeId: number): Promise<unknown>;
}

export interface CollectionModule {
  collection: CollectionService;
  /** The local aggregator's application review, for the operator console. */
  queues: ReviewQueue[];
}

/** How soon the local aggregator finishes a signed application, and how often it looks. */
const SIGNING_SECONDS = 3;
const ADVANCE_TICK_MS = 5_000;

/**
 * Payment collection (issue 27): aggregated onboarding on the local payment-aggregator adapter (its
 * review in the operator console), collection codes per account, payments through them and refunds.
 * Mounts /api/card-brander, /api/card-servicer (receipt), /api/pay-public (payer page, signing link)
 * and /api/ops/collection.
 */
export async function registerCollection(
  host: ModuleHost,
  needs: { stores: CollectionStoresPort; serves: (providerId: number, merchantId: number) => Promise<boolean> },
): Promise<CollectionModule> {
  const { ctx, db, guard } = host;
  const collection = new CollectionService({
    db,
    clock: ctx.clock,
    storage: ctx.storage,
    payments: ctx.payments,
    signingSeconds: SIGNING_SECONDS,
    isSubAccount: async (merchantId, userId) => Boolean(await findSubAccount(db, merchantId, userId)),
    ownStore: async (merchantId, storeId) => Boolean(await needs.stores.findStore(merchantId, storeId)),
  });
  // An asynchronous provider's notification credits the payment (the payments seam calls back, issue 41).
  ctx.paymentHandlers.register("pay_order", {
    paid: (tx, p, now) => collection.payments.paidByNotice(tx, p.subjectId, p.sandbox, now),
    refundSettled: (tx, r, now) => collection.refunds.settled(tx, r, now),
  });
  await host.mount("/api/card-brander", collectionBrandRoutes({ collection, guard }));
  await host.mount("/api/card-servicer", collectionServicerRoutes({ collection, guard, serves: needs.serves }));
  await host.mount("/api/pay-public", collectionPublicRoutes({ collection }));
  await host.mount("/api/ops/collection", collectionOpsRoutes({ collection, guard }));
  host.schedule({
    name: "payment aggregator",
    everyMs: ADVANCE_TICK_MS,
    run: async () => {
      const n = await collection.applications.advance();
      return n > 0 ? `${n} applications finished signing` : undefined;
    },
  });
  host.schedule({
    name: "collection-unpaid",
    everyMs: 60_000,
    run: async () => {
      const n = await collection.payments.closeUnpaid();
      return n > 0 ? `${n} unpaid collection payments closed` : undefined;
    },
  });
  return { collection, queues: [collection.applications.reviewQueue()] };
}
