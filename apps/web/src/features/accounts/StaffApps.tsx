import { MobileOutlined, QrcodeOutlined } from "@ant-design/icons";
import { Button, Card, Col, Flex, QRCode, Row, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { Link, useLocation } from "react-router";
import { useAreas } from "../../ui/areas";

/**
 * The supplier home's links to the apps its staff use on their phones (spec 01 marketplace screen 6):
 * the clerks' verification page (`/verify`, public, for every supplier), as a QR code to scan and a
 * link, and the brand's app: its mall codes (the QR codes that open its mall), in the domestic and the
 * international supplier's areas alike.
 */
export function StaffApps() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const areas = useAreas();
  const area = areas.filter((a) => pathname.startsWith(`${a.base}/`)).sort((a, b) => b.base.length - a.base.length)[0];
  const has = (path: string) => area?.pages.some((p) => p.path === path) ?? false;
  if (area?.role !== "business") return null;
  const verifyUrl = `${window.location.origin}/verify`;
  return (
    <Card variant="borderless" title={t("home.apps.title")} data-testid="staff-apps">
      <Row gutter={[24, 16]}>
        <Col xs={24} md={12}>
          <Flex gap={16} align="center">
            <QRCode value={verifyUrl} size={112} bordered={false} data-testid="verify-qr" />
            <Flex vertical gap={8}>
              <Typography.Text strong>{t("home.apps.verify")}</Typography.Text>
              <Typography.Text type="secondary">{t("home.apps.verifyHint")}</Typography.Text>
              <Link to="/verify">
                <Button icon={<MobileOutlined />}>{t("home.apps.open")}</Button>
              </Link>
            </Flex>
          </Flex>
        </Col>
        {has("brandMallCode") && (
          <Col xs={24} md={12}>
            <Flex vertical gap={8}>
              <Typography.Text strong>{t("home.apps.mall")}</Typography.Text>
              <Typography.Text type="secondary">{t("home.apps.mallHint")}</Typography.Text>
              <Link to={`${area.base}/brandMallCode`}>
                <Button icon={<QrcodeOutlined />}>{t("home.apps.mallCodes")}</Button>
              </Link>
            </Flex>
          </Col>
        )}
      </Row>
    </Card>
  );
}
