import {
  ApiOutlined,
  AuditOutlined,
  CreditCardOutlined,
  GiftOutlined,
  GlobalOutlined,
  SafetyCertificateOutlined,
  ShopOutlined,
  ThunderboltOutlined,
  WalletOutlined,
} from "@ant-design/icons";
import { Button, Card, Col, Flex, Row, Space, Steps, Tag, theme, Typography } from "antd";
import { useEffect, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import type { Version } from "@tessera/contracts";
import { chooserPathOf } from "../../api/area";
import { useSession } from "../../api/common";
import { useAuthDialogs } from "./auth/context";
import { takeRequestedDialog } from "../../login/handoff";
import { FEATURES, STEPS, TILES } from "../../login/keys";

const TILE_ICONS = [
  <ThunderboltOutlined key="topUp" />,
  <CreditCardOutlined key="cardSecret" />,
  <GiftOutlined key="coupon" />,
  <WalletOutlined key="funds" />,
];
const FEATURE_ICONS = [
  <ShopOutlined key="purchaser" />,
  <AuditOutlined key="supplier" />,
  <ApiOutlined key="api" />,
  <SafetyCertificateOutlined key="security" />,
];

function Tile({ icon, title, text, color }: { icon: ReactNode; title: string; text: string; color: string }) {
  return (
    <Card
      variant="borderless"
      style={{ height: "100%", boxShadow: "0 1px 2px rgba(16,24,40,.06), 0 1px 3px rgba(16,24,40,.1)" }}
    >
      <Flex gap={14} align="flex-start">
        <Flex
          align="center"
          justify="center"
          style={{
            width: 40,
            height: 40,
            borderRadius: 10,
            background: `${color}1a`,
            color,
            fontSize: 20,
            flex: "none",
          }}
        >
          {icon}
        </Flex>
        <div>
          <Typography.Text strong style={{ fontSize: 15 }}>
            {title}
          </Typography.Text>
          <Typography.Paragraph type="secondary" style={{ margin: "4px 0 0" }}>
            {text}
          </Typography.Paragraph>
        </div>
      </Flex>
    </Card>
  );
}

/**
 * The login landing: what Tessera is, for whom, and the way in. On arrival the login dialog opens
 * (spec 01 §2 `/login`); the international version shows its own scope and currencies.
 */
export function Landing({ version }: { version: Version }) {
  const { t } = useTranslation();
  const { token: themeToken } = theme.useToken();
  const dialogs = useAuthDialogs();
  const navigate = useNavigate();
  const { token } = useSession();
  const international = version === "international";
  const open = dialogs.open;

  useEffect(() => {
    // The light first screen (src/login) may have been asked for the register dialog before the app came.
    if (!token) open(takeRequestedDialog() ?? "login");
  }, [token, open, version]);

  const p = themeToken.colorPrimary;
  // The same cards as the light first screen (login/keys.ts), with their icons.
  const tiles = TILES.map(([title, text], i) => ({ icon: TILE_ICONS[i], title: t(title), text: t(text) }));
  const features = FEATURES.map(([title, text], i) => ({ icon: FEATURE_ICONS[i], title: t(title), text: t(text) }));

  return (
    <div>
      <div
        style={{
          background:
            `radial-gradient(1200px 400px at 85% -10%, ${themeToken.colorPrimaryBg}, transparent), ` +
            `linear-gradient(180deg, #ffffff 0%, ${themeToken.colorBgLayout} 100%)`,
          padding: "64px 24px 56px",
        }}
      >
        <Row gutter={[48, 32]} align="middle" style={{ maxWidth: 1200, margin: "0 auto" }}>
          <Col xs={24} lg={13}>
            <Space orientation="vertical" size={18}>
              <Tag
                color={p}
                icon={international ? <GlobalOutlined /> : undefined}
                style={{ fontSize: 13, padding: "2px 10px" }}
              >
                {t(international ? "landing.intlBadge" : "landing.badge")}
              </Tag>
              <Typography.Title level={1} style={{ margin: 0, fontSize: 40, lineHeight: 1.25 }}>
                {t(international ? "landing.intlTitle" : "landing.title")}
              </Typography.Title>
              <Typography.Paragraph type="secondary" style={{ fontSize: 17, margin: 0, maxWidth: 620 }}>
                {t(international ? "landing.intlSubtitle" : "landing.subtitle")}
              </Typography.Paragraph>
              {international && (
                <Flex gap={8} wrap>
                  <Tag>{t("landing.intlRegions")}</Tag>
                  <Tag>{t("landing.intlCurrencies")}</Tag>
                </Flex>
              )}
              <Space size={12} wrap>
                {token ? (
                  <Button type="primary" size="large" onClick={() => void navigate(chooserPathOf(version))}>
                    {t("landing.enterConsole")}
                  </Button>
                ) : (
                  <>
                    <Button type="primary" size="large" onClick={() => open("login")}>
                      {t("auth.login")}
                    </Button>
                    <Button size="large" onClick={() => open("register")}>
                      {t("landing.registerFree")}
                    </Button>
                  </>
                )}
              </Space>
            </Space>
          </Col>
          <Col xs={24} lg={11}>
            <Row gutter={[16, 16]}>
              {tiles.map((tile) => (
                <Col span={12} key={tile.title}>
                  <Tile {...tile} color={p} />
                </Col>
              ))}
            </Row>
          </Col>
        </Row>
      </div>
      <div style={{ maxWidth: 1200, margin: "0 auto", padding: "40px 24px 24px" }}>
        <Typography.Title level={3} style={{ textAlign: "center", marginBottom: 28 }}>
          {t("landing.featuresTitle")}
        </Typography.Title>
        <Row gutter={[20, 20]}>
          {features.map((f) => (
            <Col xs={24} md={12} xl={6} key={f.title}>
              <Tile {...f} color={p} />
            </Col>
          ))}
        </Row>
        <Card variant="borderless" style={{ marginTop: 32 }}>
          <Typography.Title level={4} style={{ marginTop: 0 }}>
            {t("landing.stepsTitle")}
          </Typography.Title>
          <Steps current={-1} items={STEPS.map(([title, text]) => ({ title: t(title), content: t(text) }))} />
        </Card>
      </div>
    </div>
  );
}
