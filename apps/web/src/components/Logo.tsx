import { Flex, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";

/** The Tessera mark: four tiles of a mosaic, in the theme colour. */
export function LogoMark({ size = 28, color }: { size?: number; color: string }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true">
      <rect x="2" y="2" width="13" height="13" rx="3" fill={color} />
      <rect x="17" y="2" width="13" height="13" rx="3" fill={color} opacity="0.55" />
      <rect x="2" y="17" width="13" height="13" rx="3" fill={color} opacity="0.55" />
      <rect x="17" y="17" width="13" height="13" rx="3" fill={color} opacity="0.25" />
    </svg>
  );
}

export function Logo({ to, color, international }: { to: string; color: string; international?: boolean }) {
  const { t } = useTranslation();
  return (
    <Link to={to} aria-label={t("app.name")} style={{ display: "flex" }}>
      <Flex align="center" gap={10}>
        <LogoMark color={color} />
        <Flex vertical style={{ lineHeight: 1.15 }}>
          <Typography.Text strong style={{ fontSize: 18, letterSpacing: 0.3 }}>
            {t("app.name")}
          </Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 11 }}>
            {t(international ? "app.intlTagline" : "app.shortTagline")}
          </Typography.Text>
        </Flex>
      </Flex>
    </Link>
  );
}
