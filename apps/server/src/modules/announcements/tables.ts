import type { ColumnType } from "kysely";
import type { Id, Timestamp } from "../../db/columns";

/** Tables owned by the announcements module (migration 0105). */
export interface PlatformServiceContactTable {
  id: number;
  name: string;
  qr_url: string;
  phone: string;
  updated_by: number | null;
  updated_at: Timestamp;
}

export interface PlatformAnnouncementsTable {
  id: Id;
  title: string;
  body: string;
  audience: "all" | "sale" | "business" | "providers";
  published_by: number | null;
  published_at: Timestamp;
  withdrawn_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export interface PlatformAnnouncementReadsTable {
  announcement_id: number;
  merchant_id: number;
  read_at: Timestamp;
}

export interface AnnouncementsTables {
  platform_service_contact: PlatformServiceContactTable;
  platform_announcements: PlatformAnnouncementsTable;
  platform_announcement_reads: PlatformAnnouncementReadsTable;
}
