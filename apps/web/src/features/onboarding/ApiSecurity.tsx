import { CodeOutlined } from "@ant-design/icons";
import { Alert, Button, Flex } from "antd";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { ApiSecurityPanel } from "./ApiSecurityPanel";

/**
 * `/sale/ApiSecurity`: API permission, app key and secret, IP allowlist and callback URL of the purchaser,
 * with the way to the developer portal (`/Developer`) where the open purchase API is explained and tried.
 */
export default function ApiSecurity() {
  const { t } = useTranslation();
  return (
    <Flex vertical gap={16}>
      <ApiSecurityPanel pageId="sale.ApiSecurity" />
      <Alert
        type="info"
        showIcon
        icon={<CodeOutlined />}
        title={t("developer.portalLink.text")}
        action={
          <Link to="/Developer" data-testid="developer-portal-link">
            <Button size="small" type="primary">
              {t("developer.portalLink.go")}
            </Button>
          </Link>
        }
      />
    </Flex>
  );
}
