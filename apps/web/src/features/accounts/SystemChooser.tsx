import { CheckCircleFilled, ClusterOutlined, ShopOutlined, ShoppingCartOutlined } from "@ant-design/icons";
import { Button, Card, Col, Flex, Row, theme, Tooltip, Typography } from "antd";
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import type { MerchantRole, Version } from "@tessera/contracts";
import { areaPrefixOf } from "../../api/area";
import { useSession, useUserInfo } from "../../api/common";

const OPTIONS: { role: MerchantRole; icon: ReactNode }[] = [
  { role: "sale", icon: <ShoppingCartOutlined /> },
  { role: "business", icon: <ShopOutlined /> },
  { role: "providers", icon: <ClusterOutlined /> },
];

/** The name and blurb of a system; the service provider's texts live in its own locale file. */
export function systemTextKey(role: MerchantRole, part: "title" | "text"): string {
  return role === "providers" ? `providers.chooser.${part}` : `chooser.${role}.${part}`;
}

/**
 * Purchaser and supplier are always shown (greyed out without the role); the service-provider system
 * only to merchants an operator made providers, and only in the domestic version, which alone has it.
 */
function offered(role: MerchantRole, version: Version, roles: readonly MerchantRole[] | undefined): boolean {
  if (role !== "providers") return true;
  return version === "domestic" && Boolean(roles?.includes("providers"));
}

/**
 * The system chooser (spec 01 §2 marketplace screen 2): purchaser or supplier, then Enter. The same
 * component serves `/SelectUser` and the international `/international/SelectUser`.
 */
export function SystemChooser() {
  const { t } = useTranslation();
  const { token: themeToken } = theme.useToken();
  const navigate = useNavigate();
  const { version } = useSession();
  const { data: info } = useUserInfo();
  const roles = info?.merchant?.roles;
  const allowed = (role: MerchantRole) => !roles || roles.includes(role);
  const [choice, setChoice] = useState<MerchantRole | null>(null);
  const options = OPTIONS.filter((o) => offered(o.role, version, roles));
  const selected = choice ?? options.find((o) => allowed(o.role))?.role ?? null;

  return (
    <Flex vertical align="center" style={{ padding: "56px 16px", flex: 1 }}>
      <Typography.Title level={2} style={{ marginBottom: 8 }}>
        {t("chooser.title")}
      </Typography.Title>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 32 }}>
        {t(version === "international" ? "chooser.intlSubtitle" : "chooser.subtitle")}
      </Typography.Paragraph>
      <Row
        gutter={[24, 24]}
        style={{ width: "100%", maxWidth: options.length > 2 ? 1080 : 760 }}
        role="radiogroup"
        aria-label={t("chooser.title")}
      >
        {options.map(({ role, icon }) => {
          const active = selected === role;
          const disabled = !allowed(role);
          const card = (
            <Card
              hoverable={!disabled}
              role="radio"
              aria-checked={active}
              aria-disabled={disabled}
              tabIndex={disabled ? -1 : 0}
              onClick={() => !disabled && setChoice(role)}
              onKeyDown={(e) => {
                if (!disabled && (e.key === " " || e.key === "Enter")) setChoice(role);
              }}
              data-testid={`chooser-${role}`}
              style={{
                height: "100%",
                borderWidth: 2,
                borderColor: active ? themeToken.colorPrimary : themeToken.colorBorderSecondary,
                opacity: disabled ? 0.5 : 1,
                cursor: disabled ? "not-allowed" : "pointer",
              }}
            >
              <Flex vertical gap={12}>
                <Flex justify="space-between" align="center">
                  <Flex
                    align="center"
                    justify="center"
                    style={{
                      width: 48,
                      height: 48,
                      borderRadius: 12,
                      fontSize: 24,
                      color: themeToken.colorPrimary,
                      background: themeToken.colorPrimaryBg,
                    }}
                  >
                    {icon}
                  </Flex>
                  {active && <CheckCircleFilled style={{ fontSize: 22, color: themeToken.colorPrimary }} />}
                </Flex>
                <Typography.Title level={4} style={{ margin: 0 }}>
                  {t(systemTextKey(role, "title"))}
                </Typography.Title>
                <Typography.Text type="secondary">{t(systemTextKey(role, "text"))}</Typography.Text>
              </Flex>
            </Card>
          );
          return (
            <Col xs={24} sm={12} lg={24 / options.length} key={role}>
              {disabled ? <Tooltip title={t("chooser.noRole")}>{card}</Tooltip> : card}
            </Col>
          );
        })}
      </Row>
      <Button
        type="primary"
        size="large"
        disabled={!selected}
        style={{ marginTop: 32, minWidth: 200 }}
        onClick={() => selected && void navigate(`${areaPrefixOf(version)}/${selected}/Home`)}
      >
        {t("chooser.enter")}
      </Button>
    </Flex>
  );
}
