import { CopyOutlined } from "@ant-design/icons";
import { useQuery } from "@tanstack/react-query";
import { Card, Descriptions, Flex, List, Spin, Tag, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import type { MallOrder } from "@tessera/contracts";
import { formatMoney } from "../../components/money";
import { mallCall } from "./mallApi";
import { MallShell, useAppId } from "./MallShell";
import { STATE_COLOURS } from "./Orders";

/** `/mall/:appId/orders/:id`: one order and its delivery: the codes in full, top-ups and their state. */
export default function MallOrderPage() {
  const { t } = useTranslation();
  const appId = useAppId();
  const { id = "" } = useParams();
  const order = useQuery({
    queryKey: ["mall-order", appId, id],
    queryFn: async () => {
      const r = await mallCall<MallOrder>(appId, "GET", `/orders/${id}`);
      return r.ok ? r.data : null;
    },
    refetchInterval: (q) => (q.state.data?.state === "delivering" ? 3000 : false),
  });
  return (
    <MallShell title={t("mall.orderTitle")} needsLogin>
      {() => {
        const o = order.data;
        if (!o) return <Spin />;
        return (
          <Flex vertical gap={12}>
            <Card size="small">
              <Descriptions column={1} size="small">
                <Descriptions.Item label={t("mall.orderNo")}>{o.orderNo}</Descriptions.Item>
                <Descriptions.Item label={t("mall.stateLabel")}>
                  <Tag color={STATE_COLOURS[o.state]} data-testid="order-state">
                    {t(`mall.state.${o.state}`)}
                  </Tag>
                </Descriptions.Item>
                <Descriptions.Item label={t("mall.amount")}>{formatMoney(o.amount)}</Descriptions.Item>
                <Descriptions.Item label={t("mall.payWith")}>{t(o.payMethod === "card" ? "mall.card" : "mall.wallet")}</Descriptions.Item>
                {o.failReason && <Descriptions.Item label={t("mall.failReason")}>{o.failReason}</Descriptions.Item>}
              </Descriptions>
            </Card>
            <Card size="small" title={t("mall.deliveries")}>
              <List
                dataSource={o.deliveries}
                renderItem={(d) => (
                  <List.Item data-testid="delivery">
                    <div style={{ width: "100%" }}>
                      <Flex justify="space-between">
                        <Typography.Text strong>{d.name}</Typography.Text>
                        <Tag>{t(`mall.deliveryState.${d.state}`)}</Tag>
                      </Flex>
                      {d.kind === "code" ? (
                        <>
                          <div>
                            {t("mall.cardNumber")}: <Typography.Text copyable={{ icon: <CopyOutlined /> }} data-testid="card-number">{d.cardNumber}</Typography.Text>
                          </div>
                          <div>
                            {t("mall.cardSecret")}: <Typography.Text copyable data-testid="card-secret">{d.cardSecret}</Typography.Text>
                          </div>
                        </>
                      ) : (
                        <div>
                          {t("mall.topUpAccount")}: {d.account}
                        </div>
                      )}
                      {d.expiresAt && <Typography.Text type="secondary" style={{ fontSize: 12 }}>{t("mall.validUntil", { date: d.expiresAt.slice(0, 10) })}</Typography.Text>}
                    </div>
                  </List.Item>
                )}
              />
            </Card>
          </Flex>
        );
      }}
    </MallShell>
  );
}
