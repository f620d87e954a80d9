import type { ModuleHost } from "../../platform/module";
import { getMerchant } from "../merchants";
import { activeBindings } from "../onboarding";
import { BoundAccounts } from "./accounts.service";
import { accountRoutes, localPlatformRoutes, miniprogramOpsRoutes, miniprogramRoutes } from "./routes";
import { MiniprogramService, type MallAppearance } from "./service";

export { MiniprogramService, type MallAppearance } from "./service";
export { BoundAccounts } from "./accounts.service";
export { mallAppSetup, releasedMallApp } from "./repo";
export type { PlatformAdapter, PlatformPush, UnlimitedQrcodeInput } from "../../platform/adapters/miniprogram";

export interface MiniprogramModule {
  miniprogram: MiniprogramService;
  /** The released version's config, or the committed (experience) one for "beta"; null when none. */
  mallAppearance(appId: string, version: "beta" | "release"): Promise<MallAppearance | null>;
}

/**
 * Mini-program storefronts (issue 30 part A): the merchant's mall config, authorisation, templates,
 * commit, beta QR, review, release and rollback on WeChat's third-party platform and Douyin through a
 * platform adapter (MP_ADAPTER: "local" simulator by default, "http" for the real open APIs). Mounts
 * /api/card-user (miniProgram/…, tiktok/…), /api/mp-platform (the local consent page) and
 * /api/ops/miniprogram (the local platform's review queue, the template library).
 */
export async function registerMiniprogram(host: ModuleHost): Promise<MiniprogramModule> {
  const { ctx, db, guard } = host;
  const { adapters, sims } = ctx.miniprogramPlatforms;
  const miniprogram = new MiniprogramService({ db, clock: ctx.clock, adapters, storage: ctx.storage });
  await host.mount("/api/card-user", miniprogramRoutes({ mp: miniprogram, guard }));
  if (sims) await host.mount("/api/mp-platform", localPlatformRoutes({ sims }));
  await host.mount(
    "/api/ops/miniprogram",
    miniprogramOpsRoutes({ mp: miniprogram, sims, storage: ctx.storage, guard }),
  );
  // Official accounts and local-life accounts, bound through the same consent.
  const accounts = new BoundAccounts({
    db,
    clock: ctx.clock,
    adapters,
    sims,
    servedBrands: async (providerId) => {
      const ids = (await activeBindings(db, providerId)).filter((b) => b.kind === "brand").map((b) => b.merchant_id);
      const out: { id: number; name: string }[] = [];
      for (const id of [...new Set(ids)]) {
        const m = await getMerchant(db, id);
        if (m) out.push({ id, name: m.name });
      }
      return out;
    },
  });
  for (const a of Object.values(adapters)) a.onPush((push) => accounts.onPush(push));
  await host.mount("/api/card-user", accountRoutes({ accounts, guard }));
  return { miniprogram, mallAppearance: (appId, version) => miniprogram.mallAppearance(appId, version) };
}
