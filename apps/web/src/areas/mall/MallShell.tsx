import { CustomerServiceOutlined, GiftOutlined, HomeOutlined, LinkOutlined, ShoppingCartOutlined, UnorderedListOutlined } from "@ant-design/icons";
import { useQuery } from "@tanstack/react-query";
import { App, Button, Card, Flex, Input, Result, Spin, Typography } from "antd";
import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link, Navigate, useLocation, useParams } from "react-router";
import { MALL_THEME_COLOURS, type Storefront } from "@tessera/contracts";
import { hideAround } from "../../components/hideAround";
import { LanguageSwitch } from "../../components/LanguageSwitch";
import { customerSession, setCustomerToast } from "../client/customerApi";
import { mallCall, mallStore } from "./mallApi";
import { mallTabs } from "./tabs";

export function useAppId(): string {
  return useParams().appId ?? "";
}

/** The published mall config the pages are rendered from. */
export function useStorefront(appId: string) {
  return useQuery({
    queryKey: ["mall-storefront", appId],
    queryFn: async () => {
      const r = await mallCall<Storefront>(appId, "GET", "/storefront");
      if (!r.ok) throw new Error(r.msg);
      mallStore.setSeller(appId, r.data.sellerId);
      return r.data;
    },
    retry: false,
  });
}

const TAB_ICONS: Record<string, ReactNode> = { home: <HomeOutlined />, cart: <ShoppingCartOutlined />, orders: <UnorderedListOutlined />, goods: <GiftOutlined />, link: <LinkOutlined /> };

/**
 * The mall at phone width: the mall's name and colour theme, its bottom menu (home, cart, orders and the
 * configured entries), the customer-service entry, the private-code gate of a private mall. `needsLogin`
 * sends a visitor without a customer token to this mall's login and back.
 */
export function MallShell({ title, children, needsLogin = false }: { title?: string; children: (sf: Storefront) => ReactNode; needsLogin?: boolean }) {
  const { t } = useTranslation();
  const appId = useAppId();
  const { message } = App.useApp();
  const location = useLocation();
  const screen = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => hideAround(screen.current), []);
  useEffect(() => setCustomerToast((msg) => void message.error(msg)), [message]);
  // The beta QR opens `/mall/:appId?v=beta`: the experience version, for this visit.
  if (new URLSearchParams(location.search).get("v") === "beta") mallStore.setBeta(appId);
  const sf = useStorefront(appId);
  const [code, setCode] = useState("");
  const base = `/mall/${encodeURIComponent(appId)}`;
  if (needsLogin && !customerSession.token()) return <Navigate to={`${base}/login?back=${encodeURIComponent(location.pathname + location.search)}`} replace />;
  const colours = MALL_THEME_COLOURS[sf.data?.theme ?? 1] ?? { primary: "#1677ff", tint: "#e6f4ff" };
  const tabs = mallTabs(base, sf.data?.bottomMenus ?? [], { home: t("mall.tab.home"), cart: t("mall.tab.cart"), orders: t("mall.tab.orders") });
  return (
    <div ref={screen} data-theme={sf.data?.theme} style={{ position: "fixed", inset: 0, zIndex: 1001, overflowY: "auto", background: "#f5f6f8" }}>
      <div style={{ maxWidth: 480, width: "100%", margin: "0 auto", minHeight: "100%", display: "flex", flexDirection: "column" }}>
        <Flex align="center" justify="space-between" style={{ padding: "12px 16px", background: colours.primary, color: "#fff" }}>
          <Typography.Title level={4} style={{ margin: 0, color: "#fff" }} data-testid="mall-title">
            {title ?? sf.data?.name ?? ""}
          </Typography.Title>
          <Flex gap={8} align="center">
            {sf.data?.customerService && (
              <a href={/^[\d+\- ]+$/.test(sf.data.customerService) ? `tel:${sf.data.customerService.replace(/[^\d+]/g, "")}` : sf.data.customerService} aria-label={t("mall.service")} style={{ color: "#fff", fontSize: 18 }}>
                <CustomerServiceOutlined />
              </a>
            )}
            <LanguageSwitch />
          </Flex>
        </Flex>
        <main style={{ flex: 1, padding: 12, paddingBottom: 80 }}>
          {sf.isLoading && <Spin style={{ display: "block", margin: "48px auto" }} />}
          {sf.isError && <Result status="404" title={t("msg:mall.unknown")} />}
          {sf.data?.locked && (
            <Card title={t("mall.privateTitle")}>
              <Typography.Paragraph>{t("mall.privateHint")}</Typography.Paragraph>
              <Flex gap={8}>
                <Input value={code} onChange={(e) => setCode(e.target.value)} maxLength={16} aria-label={t("mall.privateCode")} />
                <Button
                  type="primary"
                  onClick={() => {
                    mallStore.setCode(appId, code.trim());
                    void sf.refetch();
                  }}
                >
                  {t("mall.enter")}
                </Button>
              </Flex>
            </Card>
          )}
          {sf.data && !sf.data.locked && children(sf.data)}
        </main>
        <nav style={{ position: "fixed", bottom: 0, left: 0, right: 0, background: "#fff", borderTop: "1px solid #eee" }}>
          <Flex justify="space-around" style={{ maxWidth: 480, margin: "0 auto", padding: "6px 0" }}>
            {tabs.map((tab) => {
              const active = !tab.external && location.pathname + (tab.to.includes("?") ? location.search : "") === tab.to;
              const style = { color: active ? colours.primary : "#666", textAlign: "center" as const, fontSize: 12, minWidth: 64, padding: "4px 0" };
              const body = (
                <>
                  <div style={{ fontSize: 20 }}>{TAB_ICONS[tab.icon]}</div>
                  {tab.title}
                </>
              );
              return tab.external ? (
                <a key={tab.key} href={tab.to} target="_blank" rel="noreferrer" style={style} data-testid="mall-tab">
                  {body}
                </a>
              ) : (
                <Link key={tab.key} to={tab.to} style={style} data-testid="mall-tab">
                  {body}
                </Link>
              );
            })}
          </Flex>
        </nav>
      </div>
    </div>
  );
}

export function themeOf(sf: Storefront) {
  return MALL_THEME_COLOURS[sf.theme] ?? { primary: "#1677ff", tint: "#e6f4ff" };
}
