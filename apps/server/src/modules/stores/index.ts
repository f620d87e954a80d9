import { findSubAccount } from "../accounts";
import { retireStoreCodes, storesWithOpenPayments } from "../collection";
import { releasedMallApp } from "../miniprogram";
import { goodsForPurchase } from "../catalog";
import { hkdfSync } from "node:crypto";
import { DynamicCodes, dynamicCodeRoutes, type CustomersService, type OnecardService } from "../onecard";
import type { DockingService } from "../docking";
import { cardKeys } from "../supply";
import { platformDay, platformHour } from "../../platform/clock";
import { oncePer } from "../../platform/jobs";
import type { ModuleHost } from "../../platform/module";
import { storeBrandRoutes, storePublicRoutes, storeSaleRoutes, storeServicerRoutes } from "./routes";
import { StoresService } from "./service";
import { WriteOffService } from "./writeoff.service";
import { writeOffBrandRoutes, writeOffOpsRoutes, writeOffSaleRoutes, writeOffServicerRoutes } from "./writeoff.routes";
export { storeSetup } from "./repo";

export { StoresService } from "./service";
export { WriteOffService } from "./writeoff.service";

export interface StoresModule {
  stores: StoresService;
  writeoff: WriteOffService;
}

/** How often the scheduler looks whether a new platform day has begun (settlement runs once a day). */
const SETTLE_TICK_MS = 10 * 60_000;

/**
 * Brand stores and write-off (issue 27): stores, business districts, clerks and QR codes
 * (/api/card-brander, /api/card-user associatedStores, /api/card-servicer visitorStores,
 * /api/store-public for scanned codes; /api/mall for the card bag's dynamic code); redemption at stores and its daily settlement (T+1, after 01:00
 * platform time; several processes settle each document once), /api/ops/stores to run it now.
 */
export async function registerStores(
  host: ModuleHost,
  needs: {
    onecard: OnecardService;
    customers: CustomersService;
    docking: DockingService;
    serves: (providerId: number, merchantId: number) => Promise<boolean>;
  },
): Promise<StoresModule> {
  const { ctx, db, guard } = host;
  const stores = new StoresService({
    db,
    clock: ctx.clock,
    subAccountOf: (merchantId, userId) => findSubAccount(db, merchantId, userId),
    dockedSuppliers: async (actor) => {
      const page = await needs.docking.dockings(actor, { page: 1, pageSize: 1000, side: "purchaser" });
      return page.list.filter((d) => d.docked).map((d) => Number(d.counterpartId));
    },
    serves: needs.serves,
    payments: { openAt: storesWithOpenPayments, retire: retireStoreCodes },
    releasedMall: (merchantId) => releasedMallApp(db, merchantId),
  });
  const dynamic = new DynamicCodes({
    db,
    clock: ctx.clock,
    key: Buffer.from(hkdfSync("sha256", ctx.secret, Buffer.alloc(0), "tessera/onecard/dynamic-code/v1", 32)),
  });
  const writeoff = new WriteOffService({
    db,
    clock: ctx.clock,
    keys: cardKeys(ctx.secret),
    stores,
    onecard: needs.onecard,
    dynamic,
    goodsOf: goodsForPurchase,
  });
  await host.mount("/api/card-brander", storeBrandRoutes({ stores, guard }));
  await host.mount("/api/card-brander", writeOffBrandRoutes({ writeoff, guard }));
  await host.mount("/api/card-user", storeSaleRoutes({ stores, guard }));
  await host.mount("/api/card-user", writeOffSaleRoutes({ writeoff, guard }));
  await host.mount("/api/card-servicer", storeServicerRoutes({ stores, guard }));
  await host.mount("/api/card-servicer", writeOffServicerRoutes({ writeoff, guard, serves: needs.serves }));
  await host.mount("/api/store-public", storePublicRoutes({ stores }));
  await host.mount("/api/ops/stores", writeOffOpsRoutes({ writeoff, guard }));
  // The card bag's dynamic code (customer token), redeemed at the brand's stores above.
  await host.mount("/api/mall", dynamicCodeRoutes({ codes: dynamic, customers: needs.customers }));
  host.schedule({
    name: "store settlement",
    everyMs: SETTLE_TICK_MS,
    run: oncePer(
      () => (platformHour(ctx.clock.now()) < 1 ? null : platformDay(ctx.clock.now())),
      async () => {
        const r = await writeoff.settlement.settle();
        return r.documents > 0 ? `settled ${r.documents} documents of ${r.day}` : undefined;
      },
    ),
  });
  return { stores, writeoff };
}
