import type { ModuleHost } from "../../platform/module";
import type { AccountsService } from "../accounts";
import type { CatalogService } from "../catalog";
import type { MediaService } from "../media";
import type { MiniprogramService } from "../miniprogram";
import { courierSimulatorJob, orderTimersJob } from "./jobs";
import { acceptLegacyHeader, fcardRoutes, legacyShopRoutes, LegacyTokens } from "./legacy";
import { legacyCommerceRoutes, purchaserCommerceRoutes, trackingPushRoutes } from "./routes";
import { CommerceService } from "./service";

export { CommerceService } from "./service";

/**
 * Physical and virtual goods e-commerce and the legacy e-commerce host: its calls under /api/ecommerce
 * (beside the video library's), with the `token` header of the legacy session (`POST /api/login/fcard`);
 * the purchaser's mall under /api/card-user/commerce; tracking pushes at /api/ecommerce/express/push.
 * The courier is the local simulator unless Kuaidi100 is configured.
 */
export async function registerCommerce(
  host: ModuleHost,
  {
    media,
    catalog,
    accounts,
    miniprogram,
  }: { media: MediaService; catalog: CatalogService; accounts: AccountsService; miniprogram: MiniprogramService },
): Promise<{ commerce: CommerceService }> {
  const { ctx, db, guard } = host;
  const cfg = ctx.config.commerce;
  const { adapter: courier, pushSalt } = ctx.courier;
  const commerce = new CommerceService({
    db,
    clock: ctx.clock,
    courier,
    config: { autoConfirmDays: cfg.autoConfirmDays, courierStepSeconds: cfg.courierStepSeconds, pushSalt },
    checkVideo: (actor, videoId) => media.videoInfo(actor, videoId),
  });

  const tokens = new LegacyTokens(ctx.secret, ctx.clock);
  host.authenticateWith(async (token) => {
    const session = tokens.open(token);
    return session ? accounts.authenticate(session) : null;
  });
  // validatetoken (accounts) answers for the legacy token as for the session inside it.
  accounts.acceptSealedTokens((token) => tokens.inspect(token));
  acceptLegacyHeader(host.app);
  await host.mount(
    "/api/login",
    fcardRoutes({ tokens, sessions: { validate: (t) => accounts.validateToken(t) }, clock: ctx.clock }),
  );
  await host.mount(
    "/api/ecommerce",
    legacyCommerceRoutes({ commerce, guard }),
    trackingPushRoutes({ commerce }),
    legacyShopRoutes({
      commerce,
      guard,
      tokens,
      clock: ctx.clock,
      wxacode: (merchantId, input) => miniprogram.unlimitedQrcode(merchantId, input),
      uploadImage: (actor, data) => catalog.uploadImage(actor, data),
    }),
  );
  await host.mount("/api/card-user", purchaserCommerceRoutes({ commerce, guard }));
  if (courier.kind === "local") {
    host.schedule(courierSimulatorJob(commerce, Math.max(500, Math.min(60_000, cfg.courierStepSeconds * 250))));
  }
  host.schedule(orderTimersJob(commerce));
  return { commerce };
}
