import type { Lang, OutboxQuery, Version } from "@tessera/contracts";

/** Every react-query key in one place, so invalidation after a mutation is exact. */
export const queryKeys = {
  userInfo: (version: Version, token: string | null) => ["userInfo", version, token] as const,
  userInfoAll: ["userInfo"] as const,
  commonConfig: ["commonConfig"] as const,
  dicts: (lang: Lang) => ["dicts", lang] as const,
  outbox: (query: OutboxQuery) => ["outbox", query] as const,
};
