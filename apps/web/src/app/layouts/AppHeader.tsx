import { LogoutOutlined, MailOutlined, SwapOutlined, UserOutlined } from "@ant-design/icons";
import { Button, Divider, Flex, Grid, Layout, Space, theme, Tooltip, Typography } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate } from "react-router";
import { chooserPathOf, loginPathOf } from "../../api/area";
import { useCommonConfig } from "../../api/common";
import { useLogout } from "../../features/accounts/api";
import { useSession, useUserInfo } from "../../api/common";
import { MessageBell, ServiceContactButton } from "../../features/announcements/MessageBell";
import { RealNameTag } from "../../features/accounts/RealNameTag";
import { useAuthDialogs } from "../../features/accounts/auth/context";
import { LanguageSwitch } from "../../ui/LanguageSwitch";
import { Logo } from "../../ui/Logo";
import { ThemeSwitch } from "./ThemeSwitch";

/** Who is logged in: account, real-name state, system switch and logout. */
function SessionActions() {
  const { t } = useTranslation();
  const { version } = useSession();
  const { data: info } = useUserInfo();
  const logout = useLogout();
  const navigate = useNavigate();
  const account = info?.loginAccount ?? info?.email ?? "";
  return (
    <Space size={8} wrap={false}>
      {/* The platform's announcements and customer-service contact, for merchant staff (spec 01 §7). */}
      {info?.kind === "merchant" && <ServiceContactButton />}
      {info?.kind === "merchant" && <MessageBell />}
      <Flex align="center" gap={6}>
        <UserOutlined />
        <Typography.Text strong ellipsis style={{ maxWidth: 220 }} data-testid="header-account">
          {account}
        </Typography.Text>
      </Flex>
      {info?.merchant && <RealNameTag state={info.merchant.realNameState} />}
      {/* An operator has no merchant systems to switch to (the chooser led into an empty back-office). */}
      {info?.kind !== "operator" && (
        <Tooltip title={t("header.switchSystem")}>
          <Button
            type="text"
            icon={<SwapOutlined />}
            onClick={() => void navigate(chooserPathOf(version))}
            aria-label={t("header.switchSystem")}
          />
        </Tooltip>
      )}
      <Button
        icon={<LogoutOutlined />}
        loading={logout.isPending}
        onClick={() => void logout.mutateAsync().then(() => navigate(loginPathOf(version)))}
      >
        {t("header.logout")}
      </Button>
    </Space>
  );
}

/** The header of every page: logo, dev mailbox link, language, colour theme and the session. */
export function AppHeader({ left, aboveDialogs = false }: { left?: ReactNode; aboveDialogs?: boolean }) {
  const { t } = useTranslation();
  const { token: themeToken } = theme.useToken();
  const { version, token } = useSession();
  const dialogs = useAuthDialogs();
  const { data: config } = useCommonConfig();
  const { data: info } = useUserInfo();
  const international = version === "international";
  // On a phone (a public page such as the 404 or the card charter) the header keeps the logo, the language
  // and logging in; the developer portal, the dev mailbox and the colour theme wait for a wider screen.
  const narrow = Grid.useBreakpoint().sm === false;
  // The logo leads home: the operator's is the console, a merchant's the system chooser.
  const home = !token ? loginPathOf(version) : info?.kind === "operator" ? "/ops/Reviews" : chooserPathOf(version);
  return (
    <Layout.Header
      style={{
        display: "flex",
        alignItems: "center",
        gap: 16,
        borderBottom: `1px solid ${themeToken.colorBorderSecondary}`,
        position: "sticky",
        top: 0,
        // On public pages, above dialog masks: the language switch stays available while the login dialog
        // is open. In the back-office, below them: a drawer's title and close button must not be covered.
        zIndex: aboveDialogs ? 1001 : 100,
        ...(narrow && { paddingInline: 12, gap: 8 }),
      }}
    >
      {left}
      <Logo to={home} color={themeToken.colorPrimary} international={international} />
      <div style={{ flex: 1 }} />
      {config?.devOutbox && !narrow && (
        <Link to="/dev/mailbox">
          <Button type="text" icon={<MailOutlined />}>
            {t("header.devMailbox")}
          </Button>
        </Link>
      )}
      {!token && !narrow && (
        <Link to="/Developer" data-testid="header-developer">
          <Button type="text">{t("header.developer")}</Button>
        </Link>
      )}
      <LanguageSwitch />
      {!narrow && <ThemeSwitch />}
      {!narrow && <Divider orientation="vertical" />}
      {token ? (
        <SessionActions />
      ) : (
        <Space size={8}>
          <Button onClick={() => dialogs.open("login")}>{t("auth.login")}</Button>
          {!narrow && (
            <Button type="primary" onClick={() => dialogs.open("register")}>
              {t("auth.register")}
            </Button>
          )}
        </Space>
      )}
    </Layout.Header>
  );
}
