import { QueryClientProvider, useQueryClient } from "@tanstack/react-query";
import { App as AntApp, ConfigProvider, theme as antdTheme } from "antd";
import type { Locale } from "antd/es/locale";
import enUS from "antd/locale/en_US";
import zhCN from "antd/locale/zh_CN";
import zhTW from "antd/locale/zh_TW";
import dayjs from "dayjs";
import "dayjs/locale/zh-cn";
import "dayjs/locale/zh-tw";
import { useEffect, useMemo, useState, useSyncExternalStore, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { isLang, type ColorTheme, type Lang } from "@tessera/contracts";
import { configureHttp, loading } from "../api/http";
import { queryKeys } from "../api/queryKeys";
import { ColorThemeContext } from "./colorTheme";
import { queryClient } from "./queryClient";
import { usePrefersReducedMotion } from "./reducedMotion";
import { colorThemeCookie, parseColorTheme, PRIMARY_COLORS } from "./theme";

const ANTD_LOCALES: Record<Lang, Locale> = { cn: zhCN, tw: zhTW, en: enUS };
const DAYJS_LOCALES: Record<Lang, string> = { cn: "zh-cn", tw: "zh-tw", en: "en" };

/** Connects the HTTP layer to antd's message API and the query cache, and renders the loading bar. */
function HttpBridge() {
  const { message } = AntApp.useApp();
  const client = useQueryClient();
  useEffect(() => {
    configureHttp({
      toastError: (msg) => void message.error(msg),
      afterUnauthorized: () => client.removeQueries({ queryKey: queryKeys.userInfoAll }),
    });
  }, [message, client]);
  const visible = useSyncExternalStore(loading.subscribe, loading.isVisible);
  // A thin bar along the top: it neither darkens nor blocks the page (pointer-events: none).
  return visible ? (
    <div className="tessera-loading-bar" role="progressbar" aria-label="loading" aria-busy="true" />
  ) : null;
}

/** Query cache, antd locale and colour theme, dayjs locale, the message API and the loading overlay. */
export function AppProviders({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  const lang: Lang = isLang(i18n.language) ? i18n.language : "cn";
  const [colorTheme, setColorTheme] = useState<ColorTheme>(() => parseColorTheme(document.cookie));
  const reducedMotion = usePrefersReducedMotion();

  useEffect(() => {
    dayjs.locale(DAYJS_LOCALES[lang]);
  }, [lang]);

  const themeState = useMemo(
    () => ({
      theme: colorTheme,
      setTheme(next: ColorTheme) {
        document.cookie = colorThemeCookie(next);
        setColorTheme(next);
      },
    }),
    [colorTheme],
  );

  const antdThemeConfig = useMemo(
    () => ({
      algorithm: antdTheme.defaultAlgorithm,
      token: {
        colorPrimary: PRIMARY_COLORS[colorTheme],
        colorInfo: PRIMARY_COLORS[colorTheme],
        borderRadius: 6,
        motion: !reducedMotion,
        colorBgLayout: "#f4f6fa",
        fontFamily:
          "-apple-system, BlinkMacSystemFont, 'Segoe UI', 'PingFang SC', 'PingFang TC', 'Hiragino Sans GB', 'Microsoft YaHei', 'Noto Sans CJK SC', 'Noto Sans CJK TC', 'Helvetica Neue', Arial, sans-serif",
      },
      components: {
        Layout: { headerBg: "#ffffff", siderBg: "#ffffff", headerPadding: "0 24px", headerHeight: 60 },
      },
    }),
    [colorTheme, reducedMotion],
  );

  return (
    <QueryClientProvider client={queryClient}>
      <ColorThemeContext.Provider value={themeState}>
        <ConfigProvider locale={ANTD_LOCALES[lang]} theme={antdThemeConfig}>
          <AntApp>
            <HttpBridge />
            {children}
          </AntApp>
        </ConfigProvider>
      </ColorThemeContext.Provider>
    </QueryClientProvider>
  );
}
