import { useQuery } from "@tanstack/react-query";
import { useSyncExternalStore } from "react";
import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";
import { isLang, type CommonConfigReply, type DictAll, type UserInfo, type Version } from "@tessera/contracts";
import { versionOfPath } from "./area";
import { unwrap } from "./errors";
import { http, tokens } from "./http";
import { queryKeys } from "./queryKeys";
import { setDisplayZone } from "../ui/time";

/**
 * The app-wide reads every area and the app shell use: the session of the area the user is on, its
 * account (`GET /api/card-user/userInfo`), the public config and the dictionaries. The account's own
 * calls (login, register, codes, logout) are in features/accounts/api.ts.
 */

/** The session of the area the user is on: its version and stored token, kept in sync with storage. */
export function useSession(): { version: Version; token: string | null } {
  const { pathname } = useLocation();
  const version = versionOfPath(pathname);
  const token = useSyncExternalStore(tokens.subscribe, () => tokens.getToken(version));
  return { version, token };
}

export function useUserInfo() {
  const { version, token } = useSession();
  return useQuery({
    queryKey: queryKeys.userInfo(version, token),
    queryFn: async () => {
      const info = unwrap(await http.get<UserInfo>("/api/card-user/userInfo"));
      tokens.setInfo(version, info);
      return info;
    },
    enabled: Boolean(token),
    placeholderData: () => tokens.getInfo(version) ?? undefined,
    staleTime: 30_000,
  });
}

/** Public configuration. Fetched in the background: no overlay, no toast (a failure hides dev tools). */
export function useCommonConfig() {
  return useQuery({
    queryKey: queryKeys.commonConfig,
    queryFn: async () => {
      const config = unwrap(
        await http.get<CommonConfigReply>("/api/card-user/common/config", {
          toast: false,
          overlay: false,
          auth: false,
        }),
      );
      // Every time the app shows is in the server's display zone (ui/time.ts).
      setDisplayZone(config.timeZone);
      return config;
    },
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
}

/** Every dictionary with labels in the interface language. */
export function useDicts() {
  const { i18n } = useTranslation();
  const lang = isLang(i18n.language) ? i18n.language : "cn";
  return useQuery({
    queryKey: queryKeys.dicts(lang),
    queryFn: async () => unwrap(await http.get<DictAll>("/api/card-user/dict/all", { overlay: false })),
    staleTime: 10 * 60_000,
  });
}
