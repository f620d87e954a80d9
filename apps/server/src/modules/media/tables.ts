import type { ColumnType } from "kysely";
import type { Id, Timestamp } from "../../db/columns";

/** Tables owned by the media module (migration 0047). */
export interface MediaUploadsTable {
  id: string;
  merchant_id: number;
  created_by: number;
  length: number;
  received: ColumnType<number, number | undefined, number>;
  ref_id: string | null;
  type: number;
  name: string;
  filename: string;
  zhuanma: ColumnType<boolean, boolean | undefined, boolean>;
  metadata: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  completed_at: Date | null;
}

export interface MediaVideosTable {
  id: Id;
  merchant_id: number;
  upload_id: string;
  ref_id: string | null;
  type: number;
  name: string;
  filename: string;
  bytes: number;
  kind: "video" | "audio";
  content_type: string;
  zhuanma: ColumnType<boolean, boolean | undefined, boolean>;
  storage_key: string;
  created_by: number;
  created_at: Timestamp;
}

export interface MediaLibraryTable {
  id: Id;
  merchant_id: number;
  video_id: number;
  type_id: number;
  name: string;
  size_kb: number;
  created_by: number;
  created_at: Timestamp;
}

export interface MediaTables {
  media_uploads: MediaUploadsTable;
  media_videos: MediaVideosTable;
  media_library: MediaLibraryTable;
}
