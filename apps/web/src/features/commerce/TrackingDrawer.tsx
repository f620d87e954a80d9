import { useQuery } from "@tanstack/react-query";
import { Descriptions, Drawer, Empty, Spin, Tag, Timeline } from "antd";
import { useTranslation } from "react-i18next";
import { TRACKING_SIGNED } from "@tessera/contracts";
import { brandApi, commerceKeys } from "./api";
import { formatTime } from "../../ui/time";

/** An order's waybill and its tracking events, newest first (`order/express/query`), for the brand and the purchaser. */
export function TrackingDrawer({ orderId, onClose }: { orderId: string; onClose: () => void }) {
  const { t } = useTranslation();
  const { data, isLoading } = useQuery({
    queryKey: [...commerceKeys.order(orderId), "tracking"],
    queryFn: () => brandApi.tracking(orderId),
    refetchInterval: 5_000,
  });
  return (
    <Drawer
      open
      zIndex={1100}
      onClose={onClose}
      title={
        data ? t("commerce.trackingTitle", { company: data.companyName, no: data.waybillNo }) : t("commerce.tracking")
      }
      size={420}
    >
      {isLoading && <Spin />}
      {data && (
        <>
          <Descriptions size="small" column={1} style={{ marginBottom: 16 }}>
            <Descriptions.Item label={t("commerce.orderNo")}>{data.orderNo}</Descriptions.Item>
            <Descriptions.Item label={t("commerce.tracking")}>
              {data.state === null ? (
                t("commerce.noEvents")
              ) : (
                <Tag color={data.state === TRACKING_SIGNED ? "green" : "blue"}>{t(`commerce.track.${data.state}`)}</Tag>
              )}
            </Descriptions.Item>
            {data.signedAt && (
              <Descriptions.Item label={t("commerce.signedAt")}>{formatTime(data.signedAt)}</Descriptions.Item>
            )}
          </Descriptions>
          {data.events.length === 0 ? (
            <Empty description={t("commerce.noEvents")} />
          ) : (
            <Timeline
              items={data.events.map((e, i) => ({
                color: i === 0 ? "green" : "gray",
                content: (
                  <div data-testid="tracking-event">
                    <div>
                      <Tag>{t(`commerce.track.${e.state}`)}</Tag>
                      {e.context}
                    </div>
                    <div style={{ color: "rgba(0,0,0,0.45)", fontSize: 12 }}>
                      {formatTime(e.at, { seconds: true })} {e.area}
                    </div>
                  </div>
                ),
              }))}
            />
          )}
        </>
      )}
    </Drawer>
  );
}
