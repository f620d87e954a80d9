import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { isLang, type CommonConfigReply, type DictAll } from "@tessera/contracts";
import { unwrap } from "../errors";
import { http } from "../http";
import { queryKeys } from "../queryKeys";

/** Public configuration. Fetched in the background: no overlay, no toast (a failure hides dev tools). */
export function useCommonConfig() {
  return useQuery({
    queryKey: queryKeys.commonConfig,
    queryFn: async () =>
      unwrap(
        await http.get<CommonConfigReply>("/api/card-user/common/config", {
          toast: false,
          overlay: false,
          auth: false,
        }),
      ),
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
