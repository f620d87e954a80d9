import { useQuery } from "@tanstack/react-query";
import { Button, Card, Descriptions, Result, Spin, Tag } from "antd";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";
import { storeApi } from "../business/stores/api";
import { PhoneScreen } from "../business/stores/PhoneScreen";

/** `/qr/:token`: what a store's printed QR code opens on a phone: the store (shop code) or the brand's mall (mall code). */
export default function QrLanding() {
  const { t } = useTranslation();
  const { token = "" } = useParams();
  const q = useQuery({ queryKey: ["qr", token], queryFn: () => storeApi.landing(token), retry: false });
  return (
    <PhoneScreen title={q.data?.branderName ?? t("stores.title.qr")}>
      {q.isLoading && <Spin />}
      {q.isError && <Result status="404" title={t("stores.codeGone")} />}
      {q.data && (
        <Card data-testid="qr-landing">
          <Descriptions column={1} size="small" title={q.data.store?.name ?? q.data.name}>
            {q.data.store && (
              <>
                <Descriptions.Item label={t("stores.region")}>{q.data.store.region}</Descriptions.Item>
                <Descriptions.Item label={t("stores.address")}>{q.data.store.address}</Descriptions.Item>
                <Descriptions.Item label={t("stores.openingHours")}>{q.data.store.openingHours || "-"}</Descriptions.Item>
                <Descriptions.Item label={t("stores.contactPhone")}>{q.data.store.contactPhone ? <a href={`tel:${q.data.store.contactPhone}`}>{q.data.store.contactPhone}</a> : "-"}</Descriptions.Item>
                <Descriptions.Item label={t("stores.state")}>
                  <Tag color={q.data.store.state === "open" ? "green" : "default"}>{t(`stores.${q.data.store.state}`)}</Tag>
                </Descriptions.Item>
              </>
            )}
          </Descriptions>
          {q.data.kind === "mall" && (
            <Link to="/oneCard/cardBag">
              <Button type="primary" block size="large" style={{ marginTop: 16 }}>
                {t("stores.openMall")}
              </Button>
            </Link>
          )}
        </Card>
      )}
    </PhoneScreen>
  );
}
