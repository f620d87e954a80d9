import {
  CreditCardOutlined,
  HistoryOutlined,
  LogoutOutlined,
  SearchOutlined,
  UnorderedListOutlined,
} from "@ant-design/icons";
import { App, Button, Flex, Typography } from "antd";
import { useEffect, useLayoutEffect, useRef, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link, Navigate, useLocation } from "react-router";
import { LanguageSwitch } from "../../ui/LanguageSwitch";
import { customerCall, customerSession, CUSTOMER_LOGIN_PATH, setCustomerToast } from "./customerApi";
import { hideAround } from "../../ui/hideAround";

const TABS = [
  { path: "cardBag", icon: <CreditCardOutlined />, key: "onecard.tab.cardBag" },
  { path: "equityChange", icon: <HistoryOutlined />, key: "onecard.tab.changes" },
  { path: "orderList", icon: <UnorderedListOutlined />, key: "onecard.tab.orders" },
  { path: "cardQuery", icon: <SearchOutlined />, key: "onecard.tab.query" },
] as const;

/**
 * The end customer's pages, phone first: a narrow column, a title bar and a bottom tab bar
 * (card bag, balance changes, orders, card query). `needsLogin` sends a visitor without a customer
 * token to the customer login and back.
 */
export function Shell({
  title,
  children,
  needsLogin = true,
  tabs = true,
}: {
  title: string;
  children: ReactNode;
  needsLogin?: boolean;
  tabs?: boolean;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const location = useLocation();
  useEffect(() => setCustomerToast((msg) => void message.error(msg)), [message]);
  const screen = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => hideAround(screen.current), []);
  const base = location.pathname.startsWith("/oneCard") ? "/oneCard" : "/client";
  if (needsLogin && !customerSession.token()) {
    return (
      <Navigate to={`${CUSTOMER_LOGIN_PATH}?back=${encodeURIComponent(location.pathname + location.search)}`} replace />
    );
  }
  const phone = customerSession.phone();
  return (
    // Over the public pages' desktop header and footer (hidden while it is shown): a phone screen of its own.
    <div ref={screen} style={{ position: "fixed", inset: 0, zIndex: 1001, overflowY: "auto", background: "#f5f6f8" }}>
      <div
        style={{
          maxWidth: 480,
          width: "100%",
          margin: "0 auto",
          minHeight: "100%",
          display: "flex",
          flexDirection: "column",
        }}
      >
        <Flex
          align="center"
          justify="space-between"
          style={{ padding: "12px 16px", background: "#fff", borderBottom: "1px solid #eee" }}
        >
          <Typography.Title level={4} style={{ margin: 0 }}>
            {title}
          </Typography.Title>
          <Flex gap={8} align="center">
            <LanguageSwitch />
            {phone && (
              <Button
                size="small"
                type="text"
                aria-label={t("onecard.logout")}
                icon={<LogoutOutlined />}
                onClick={() => {
                  void customerCall("PUT", "/api/mall/customer/logout", { toast: false }).then(() => {
                    customerSession.clear();
                    window.location.assign(CUSTOMER_LOGIN_PATH);
                  });
                }}
              />
            )}
          </Flex>
        </Flex>
        <main style={{ flex: 1, padding: 16, paddingBottom: tabs ? 80 : 16 }}>{children}</main>
        {tabs && (
          <nav
            style={{ position: "fixed", bottom: 0, left: 0, right: 0, background: "#fff", borderTop: "1px solid #eee" }}
          >
            <Flex justify="space-around" style={{ maxWidth: 480, margin: "0 auto", padding: "6px 0" }}>
              {TABS.map((tab) => {
                const to = tab.path === "cardQuery" && base === "/oneCard" ? "/oneCardQuery" : `${base}/${tab.path}`;
                const active = location.pathname.toLowerCase() === to.toLowerCase();
                return (
                  <Link
                    key={tab.path}
                    to={to}
                    style={{
                      color: active ? "#1677ff" : "#666",
                      textAlign: "center",
                      fontSize: 12,
                      minWidth: 64,
                      padding: "4px 0",
                    }}
                  >
                    <div style={{ fontSize: 20 }}>{tab.icon}</div>
                    {t(tab.key)}
                  </Link>
                );
              })}
            </Flex>
          </nav>
        )}
      </div>
    </div>
  );
}
