import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Card, Descriptions, Flex, Popconfirm, Spin, Steps } from "antd";
import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import type { TakeoutOrder } from "@tessera/contracts";
import { formatMoney } from "../../../ui/money";
import { customerCall } from "../../customer/customerApi";
import { PayAction } from "../../payments/PayAction";
import { Shell } from "../../customer/Shell";
import { formatTime } from "../../../ui/time";

const STEPS = ["to_be_accepted", "accepted", "delivering", "completed"] as const;

/** `/takeout/order/:id`: the customer follows an order (refreshing), and may cancel it before the shop accepts. */
export default function TakeoutOrderPage() {
  const { t } = useTranslation();
  const { id = "" } = useParams();
  const qc = useQueryClient();
  const key = ["takeout-order", id];
  const { data: o, isLoading } = useQuery({
    queryKey: key,
    queryFn: async () => {
      const r = await customerCall<TakeoutOrder>("GET", `/api/mall/takeout/orders/${id}`);
      return r.ok ? r.data : null;
    },
    refetchInterval: 3_000,
  });
  const cancel = async () => {
    await customerCall("POST", `/api/mall/takeout/orders/${id}/cancel`, { body: {} });
    void qc.invalidateQueries({ queryKey: key });
  };
  const current = o ? STEPS.indexOf(o.state as (typeof STEPS)[number]) : -1;
  return (
    <Shell title={t("takeout.orderTitle")} tabs={false}>
      {isLoading && <Spin />}
      {o && (
        <Flex vertical gap={12}>
          <Card size="small">
            {o.state === "cancelled" ? (
              <Alert
                type="warning"
                title={t("takeout.state.cancelled")}
                description={[
                  o.cancelReason,
                  o.refunded.amount ? t("takeout.refundedAmount", { amount: formatMoney(o.refunded) }) : "",
                ]
                  .filter(Boolean)
                  .join(" · ")}
                data-testid="takeout-state"
              />
            ) : o.state === "pending_payment" ? (
              <Flex vertical gap={12}>
                <Alert type="info" title={t("takeout.state.pending_payment")} data-testid="takeout-state" />
                {o.payAction && (
                  <PayAction
                    action={o.payAction}
                    returnTo={window.location.href}
                    labels={{
                      pay: t("takeout.wechatPay"),
                      scan: t("takeout.wechatScan"),
                      waiting: t("takeout.wechatWaiting"),
                      alipay: t("payments.alipayGo"),
                    }}
                  />
                )}
              </Flex>
            ) : (
              <>
                <div data-testid="takeout-state" style={{ marginBottom: 8, fontWeight: 600 }}>
                  {t(`takeout.state.${o.state}`)}
                </div>
                <Steps
                  size="small"
                  orientation="vertical"
                  current={current}
                  items={STEPS.map((s) => ({ title: t(`takeout.state.${s}`) }))}
                />
              </>
            )}
          </Card>
          <Card size="small" title={o.shopName}>
            {o.lines.map((l, i) => (
              <Flex key={i} justify="space-between">
                <span>
                  {l.name} × {l.quantity}{" "}
                  <span style={{ fontSize: 12, color: "rgba(0,0,0,0.45)" }}>{l.options.join(" ")}</span>
                </span>
                <span>{formatMoney(l.amount)}</span>
              </Flex>
            ))}
            <Flex justify="space-between" style={{ marginTop: 8, fontWeight: 600 }}>
              <span>{t("takeout.total")}</span>
              <span>{formatMoney(o.total)}</span>
            </Flex>
          </Card>
          <Descriptions size="small" column={1} bordered>
            <Descriptions.Item label={t("takeout.orderNo")}>{o.orderNo}</Descriptions.Item>
            <Descriptions.Item
              label={t("takeout.address")}
            >{`${o.contactName} ${o.contactPhone} ${o.address}`}</Descriptions.Item>
            <Descriptions.Item label={t("takeout.createdAt")}>{formatTime(o.createdAt)}</Descriptions.Item>
          </Descriptions>
          {(o.state === "pending_payment" || o.state === "to_be_accepted") && (
            <Popconfirm title={t("takeout.cancelAsk")} onConfirm={() => void cancel()}>
              <Button danger block>
                {t("takeout.cancel")}
              </Button>
            </Popconfirm>
          )}
        </Flex>
      )}
    </Shell>
  );
}
