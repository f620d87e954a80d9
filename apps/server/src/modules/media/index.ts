import path from "node:path";
import type { ModuleHost } from "../../platform/module";
import { ecommerceMediaRoutes, mediaRoutes } from "./routes";
import { MediaService } from "./service";

export { MediaService, type MediaDeps } from "./service";

/** Resumable media uploads (tus) under /api/media and the video library's e-commerce calls under /api/ecommerce. */
export async function registerMedia(host: ModuleHost): Promise<{ media: MediaService }> {
  const { ctx, db, guard } = host;
  const media = new MediaService({
    db,
    clock: ctx.clock,
    storage: ctx.storage,
    secret: ctx.secret,
    uploadDir: path.join(ctx.config.dataDir, "uploads"),
  });
  await host.mount("/api/media", mediaRoutes({ media, guard }));
  await host.mount("/api/ecommerce", ecommerceMediaRoutes({ media, guard }));
  return { media };
}
