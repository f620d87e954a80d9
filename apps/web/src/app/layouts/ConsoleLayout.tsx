import { Button, Flex, Layout, Menu, Progress, Result, Typography, theme, type MenuProps } from "antd";
import { createElement, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, Navigate, Outlet, useLocation, useNavigation } from "react-router";
import { chooserPathOf, loginPathOf } from "../../api/area";
import { useCommonConfig } from "../../api/common";
import { useSession, useUserInfo } from "../../api/common";
import { AppHeader } from "./AppHeader";
import type { AreaDef } from "../routes";
import { useMyMenus } from "../../features/onboarding/api";
import { pageAllowed } from "../../features/onboarding/menus";
import { systemTextKey } from "../../features/accounts/SystemChooser";
import { groupMenu } from "../routes/menuGroups";
import { rememberReturnTo } from "../../api/returnTo";

/** Checks the area's requirements: a session of its version, the merchant role, dev tools enabled. */
function AreaGate({ area, children }: { area: AreaDef; children: React.ReactNode }) {
  const { t } = useTranslation();
  const { token } = useSession();
  const { data: info } = useUserInfo();
  const { data: config, isPending: configPending } = useCommonConfig();
  const location = useLocation();

  if (area.version && !token) {
    rememberReturnTo(location.pathname + location.search);
    return <Navigate to={area.loginPath ?? loginPathOf(area.version)} replace />;
  }
  if (area.devOnly && !configPending && !config?.devOutbox) {
    return <Result status="info" title={t("dev.unavailableTitle")} subTitle={t("dev.unavailableBody")} />;
  }
  const roles = info?.merchant?.roles;
  if (area.version && area.role && roles && !roles.includes(area.role)) {
    return (
      <Result
        status="403"
        title={t("guard.noRoleTitle")}
        subTitle={t("guard.noRoleBody", { system: t(systemTextKey(area.role, "title")) })}
        extra={
          <Link to={chooserPathOf(area.version)}>
            <Button type="primary">{t("guard.backToChooser")}</Button>
          </Link>
        }
      />
    );
  }
  return <>{children}</>;
}

/** A back-office area: header, side menu of the area's working pages, content. */
export function ConsoleLayout({ area }: { area: AreaDef }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const navigation = useNavigation();
  const { token: themeToken } = theme.useToken();
  const [collapsed, setCollapsed] = useState(false);
  // A sub-account sees only the pages it was given (the server refuses the others too).
  const { data: menus } = useMyMenus();
  const allowed = area.pages.filter((p) => p.menuKey && pageAllowed(menus, area, p));
  const entry = (p: (typeof allowed)[number]) => {
    const to = `${area.base}/${p.path}`;
    return {
      key: to.toLowerCase(),
      icon: p.icon ? createElement(p.icon) : undefined,
      label: <Link to={to}>{t(p.menuKey ?? "")}</Link>,
    };
  };
  // A long menu in sections (issue 25 item 4): headed groups, every entry still one click away; a section
  // a sub-account sees one page of stays a plain entry.
  const menuItems: NonNullable<MenuProps["items"]> = groupMenu(area.id, allowed).flatMap(
    (g): NonNullable<MenuProps["items"]> =>
      g.group === null || g.items.length === 1
        ? g.items.map(entry)
        : [{ type: "group", key: `group:${g.group}`, label: t(g.group), children: g.items.map(entry) }],
  );

  return (
    <Layout style={{ minHeight: "100vh" }}>
      <AppHeader />
      <Layout>
        <Layout.Sider
          width={220}
          theme="light"
          breakpoint="lg"
          collapsible
          collapsed={collapsed}
          onCollapse={setCollapsed}
          style={{ borderRight: `1px solid ${themeToken.colorBorderSecondary}` }}
        >
          {!collapsed && (
            <Typography.Text
              type="secondary"
              style={{ display: "block", padding: "18px 24px 6px", fontSize: 12, letterSpacing: 0.5 }}
            >
              {t(area.nameKey)}
            </Typography.Text>
          )}
          <Menu
            mode="inline"
            selectedKeys={[pathname.toLowerCase()]}
            items={menuItems}
            style={{ borderInlineEnd: 0 }}
          />
        </Layout.Sider>
        <Layout.Content style={{ padding: 24, minWidth: 0 }}>
          {navigation.state === "loading" && (
            <Progress
              percent={100}
              status="active"
              showInfo={false}
              size="small"
              style={{ position: "absolute", top: 60, left: 0, right: 0, margin: 0 }}
            />
          )}
          <AreaGate area={area}>
            <Flex vertical gap={16} style={{ maxWidth: 1280, margin: "0 auto" }}>
              <Outlet />
            </Flex>
          </AreaGate>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
