import { sizeInKb, type LibraryItem, type VideoInfo } from "@tessera/contracts";
import type { LibraryRow, VideoRow } from "./repo";

/** Rows to replies: ids as strings, sizes in KB as the e-commerce calls carry them. */
export function presentVideo(v: VideoRow, url: string): VideoInfo {
  return {
    videoid: String(v.id),
    id: v.ref_id,
    type: v.type,
    name: v.name,
    filename: v.filename,
    size: sizeInKb(v.bytes),
    bytes: v.bytes,
    kind: v.kind,
    contentType: v.content_type,
    zhuanma: v.zhuanma,
    url,
    createdAt: v.created_at.toISOString(),
  };
}

export function presentLibraryItem(r: LibraryRow, url: string): LibraryItem {
  return {
    id: String(r.id),
    videoid: String(r.video_id),
    type_id: r.type_id,
    name: r.name,
    size: r.size_kb,
    filename: r.filename,
    kind: r.kind,
    contentType: r.content_type,
    url,
    createdAt: r.created_at.toISOString(),
  };
}
