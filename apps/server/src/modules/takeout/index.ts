import { offeredProviders } from "../../platform/adapters/payments";
import type { ModuleHost } from "../../platform/module";
import { getMerchant } from "../merchants";
import { activeBindings } from "../onboarding";
import type { CustomersService } from "../onecard";
import { brandTakeoutRoutes, customerTakeoutRoutes, providerTakeoutRoutes } from "./routes";
import { TakeoutService } from "./service";
export { takeoutSetup } from "./shop.repo";

export { TakeoutService } from "./service";

/**
 * The takeout mini-shop: the brand's settings, menu and orders under /api/card-brander/takeout; the
 * customer's phone page under /api/mall/takeout with the customer token of the one-card module; the
 * provider's TakeoutApplet under /api/card-servicer/takeout (the brands it serves).
 */
export async function registerTakeout(
  host: ModuleHost,
  { customers }: { customers: CustomersService },
): Promise<{ takeout: TakeoutService }> {
  const takeout = new TakeoutService({ db: host.db, clock: host.ctx.clock, payments: host.ctx.payments });
  // An asynchronous provider's notification credits the order (the payments seam calls back, issue 41).
  host.ctx.paymentHandlers.register("takeout_order", {
    paid: (tx, p, now) => takeout.orders.paidByNotice(tx, p.subjectId, p.sandbox, now),
  });
  await host.mount("/api/card-brander", brandTakeoutRoutes({ takeout, guard: host.guard }));
  const payProviders = offeredProviders(host.ctx.payments);
  await host.mount(
    "/api/mall",
    customerTakeoutRoutes({
      takeout,
      customerGuard: customers.guard(),
      payProviders: () => payProviders,
      // Where a provider's cashier (Alipay's) sends the customer back: the order's page.
      orderPage: (id) => `${host.ctx.config.webUrl}/takeout/order/${id}`,
    }),
  );
  const servedBrands = async (providerId: number) => {
    const brands = [];
    for (const b of await activeBindings(host.db, providerId)) {
      if (b.kind === "brand") {
        brands.push({ merchantId: b.merchant_id, name: (await getMerchant(host.db, b.merchant_id))?.name ?? "" });
      }
    }
    return brands;
  };
  await host.mount("/api/card-servicer", providerTakeoutRoutes({ takeout, guard: host.guard, servedBrands }));
  host.schedule({
    name: "takeout-unpaid",
    everyMs: 60_000,
    run: async () => {
      const n = await takeout.closeUnpaid();
      return n > 0 ? `${n} unpaid takeout orders closed` : undefined;
    },
  });
  return { takeout };
}
