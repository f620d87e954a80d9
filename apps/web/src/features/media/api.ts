import type { LibraryItem, Page, VideoInfo } from "@tessera/contracts";
import { unwrap } from "../../api/errors";
import { currentVersion, http, tokens } from "../../api/http";
import { currentLang } from "../../i18n";

/** The upload endpoint (tus) and the e-commerce calls of the video library (spec 01 §7). */
export const TUS_ENDPOINT = "/api/media/uploads";
const ecommerce = "/api/ecommerce";

/** Headers of the tus requests: the session's token and the language of server messages. */
export function uploadHeaders(): Record<string, string> {
  const token = tokens.getToken(currentVersion());
  return { lang: currentLang(), ...(token && { "x-auth-token": token }) };
}

/** Who is uploading: part of an upload's fingerprint, so two accounts on one browser never share one. */
export function uploaderScope(): string {
  return tokens.getInfo(currentVersion())?.userId ?? "";
}

export const videoInfo = async (videoid: string) =>
  unwrap(await http.post<VideoInfo>(`${ecommerce}/course/video/info`, { videoid }, { overlay: false }));

export const addToLibrary = async (typeId: number, list: { name: string; size: number; videoid: string }[]) =>
  unwrap(
    await http.post<{ added: number; list: LibraryItem[] }>(
      `${ecommerce}/videolibrary/batchadd`,
      { type_id: typeId, list },
      { overlay: false },
    ),
  );

export interface LibraryQuery {
  page: number;
  pagesize: number;
  type_id?: number;
  name?: string;
}
export const libraryPage = async (query: LibraryQuery) =>
  unwrap(await http.post<Page<LibraryItem>>(`${ecommerce}/videolibrary/pager`, query));

export const libraryKey = (query: LibraryQuery) => ["videoLibrary", query] as const;
export const libraryKeyAll = ["videoLibrary"] as const;
