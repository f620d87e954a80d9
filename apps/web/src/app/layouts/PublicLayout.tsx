import { Flex, Layout, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { Outlet } from "react-router";
import { AppHeader } from "./AppHeader";

/** Public pages: the header, the page and a footer. */
export function PublicLayout() {
  const { t } = useTranslation();
  return (
    <Layout style={{ minHeight: "100vh" }}>
      <AppHeader aboveDialogs />
      <Layout.Content style={{ display: "flex", flexDirection: "column" }}>
        <Outlet />
      </Layout.Content>
      <Layout.Footer style={{ background: "transparent", padding: "20px 24px" }}>
        <Flex justify="center">
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t("app.footer", { year: 2026 })}
          </Typography.Text>
        </Flex>
      </Layout.Footer>
    </Layout>
  );
}
