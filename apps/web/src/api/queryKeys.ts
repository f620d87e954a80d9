import type { Lang, Version } from "@tessera/contracts";

/**
 * The app-wide react-query keys: the session's account (userInfo), the dictionaries and the common
 * config, which every area reads (their hooks: api/common.ts). A feature's own keys live in its
 * features/<module>/api.ts as one `<module>Keys` factory (accounts has none: it changes only userInfo;
 * announcementKeys, dockingKeys, fundsKeys, onboardingKeys, opsKeys, purchasingKeys, storeKeys, ...);
 * a mutation that touches another feature's data invalidates through that feature's factory.
 */
export const queryKeys = {
  userInfo: (version: Version, token: string | null) => ["userInfo", version, token] as const,
  userInfoAll: ["userInfo"] as const,
  commonConfig: ["commonConfig"] as const,
  dicts: (lang: Lang) => ["dicts", lang] as const,
};
