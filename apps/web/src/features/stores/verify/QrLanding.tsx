import { useQuery } from "@tanstack/react-query";
import { Alert, Button, Card, Descriptions, Result, Spin, Tag } from "antd";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";
import { storeApi } from "../api";
import { PhoneScreen } from "../PhoneScreen";

const mallHref = (appId: string) => `/mall/${encodeURIComponent(appId)}`;

/**
 * `/qr/:token`: what a store's printed QR code opens on a phone: the store (shop code) or the brand's mall
 * (mall code): its released storefront `/mall/<appId>`, a full page load (the storefront is its own app);
 * a brand without a released mall is said so, with the way to the card bag.
 */
export default function QrLanding() {
  const { t } = useTranslation();
  const { token = "" } = useParams();
  const q = useQuery({ queryKey: ["qr", token], queryFn: () => storeApi.landing(token), retry: false });
  const mallAppId = q.data?.kind === "mall" ? q.data.mallAppId : null;
  useEffect(() => {
    if (mallAppId) window.location.replace(mallHref(mallAppId));
  }, [mallAppId]);
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
                <Descriptions.Item label={t("stores.openingHours")}>
                  {q.data.store.openingHours || "-"}
                </Descriptions.Item>
                <Descriptions.Item label={t("stores.contactPhone")}>
                  {q.data.store.contactPhone ? (
                    <a href={`tel:${q.data.store.contactPhone}`}>{q.data.store.contactPhone}</a>
                  ) : (
                    "-"
                  )}
                </Descriptions.Item>
                <Descriptions.Item label={t("stores.state")}>
                  <Tag color={q.data.store.state === "open" ? "green" : "default"}>
                    {t(`stores.${q.data.store.state}`)}
                  </Tag>
                </Descriptions.Item>
              </>
            )}
          </Descriptions>
          {q.data.kind === "mall" && mallAppId && (
            <Spin tip={t("stores.openingMall")} style={{ display: "block", marginTop: 16 }}>
              <div style={{ height: 24 }} />
            </Spin>
          )}
          {q.data.kind === "mall" && mallAppId && (
            <Button
              type="primary"
              block
              size="large"
              style={{ marginTop: 16 }}
              href={mallHref(mallAppId)}
              data-testid="qr-open-mall"
            >
              {t("stores.openMall")}
            </Button>
          )}
          {q.data.kind === "mall" && !mallAppId && (
            <>
              <Alert
                type="info"
                showIcon
                title={t("stores.noMall")}
                style={{ marginTop: 16 }}
                data-testid="qr-no-mall"
              />
              <Link to="/oneCard/cardBag">
                <Button type="primary" block size="large" style={{ marginTop: 16 }}>
                  {t("stores.cardBag")}
                </Button>
              </Link>
            </>
          )}
        </Card>
      )}
    </PhoneScreen>
  );
}
