import { Flex, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { LogoMark } from "./LogoMark";

export { LogoMark };

export function Logo({ to, color, international }: { to: string; color: string; international?: boolean }) {
  const { t } = useTranslation();
  return (
    // Never squeezed by the header's other items: the name stays on one line.
    <Link to={to} aria-label={t("app.name")} style={{ display: "flex", flex: "none", whiteSpace: "nowrap" }}>
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
