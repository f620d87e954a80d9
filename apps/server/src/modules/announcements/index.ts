import type { ModuleHost } from "../../platform/module";
import { announcementOpsRoutes, announcementUserRoutes } from "./routes";
import { AnnouncementsService } from "./service";

export { AnnouncementsService } from "./service";

/**
 * The platform's customer-service contact and announcements to merchants (spec 01 §7 Account:
 * getQwContact, textMess; issue 29). Mounts under /api/card-user (merchants) and /api/ops (operators).
 */
export async function registerAnnouncements(host: ModuleHost): Promise<{ announcements: AnnouncementsService }> {
  const announcements = new AnnouncementsService({ db: host.db });
  await host.mount("/api/card-user", announcementUserRoutes({ announcements, guard: host.guard }));
  await host.mount("/api/ops", announcementOpsRoutes({ announcements, guard: host.guard }));
  return { announcements };
}
