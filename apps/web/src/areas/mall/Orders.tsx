import { useQuery } from "@tanstack/react-query";
import { Card, Empty, Flex, Tag, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { MallOrder, Page } from "@tessera/contracts";
import { formatMoney } from "../../components/money";
import { mallCall } from "./mallApi";
import { MallShell, useAppId } from "./MallShell";

export const STATE_COLOURS: Record<MallOrder["state"], string> = { paid: "blue", delivering: "processing", delivered: "green", failed: "red", refunded: "default" };

/** `/mall/:appId/orders`: the customer's orders in this mall. */
export default function MallOrders() {
  const { t } = useTranslation();
  const appId = useAppId();
  const orders = useQuery({
    queryKey: ["mall-orders", appId],
    queryFn: async () => {
      const r = await mallCall<Page<MallOrder>>(appId, "GET", "/orders?pageSize=50");
      return r.ok ? r.data.list : [];
    },
  });
  return (
    <MallShell title={t("mall.tab.orders")} needsLogin>
      {() => (
        <Flex vertical gap={10}>
          {orders.data?.length === 0 && <Empty description={t("mall.noOrders")} />}
          {orders.data?.map((o) => (
            <Link key={o.id} to={`/mall/${encodeURIComponent(appId)}/orders/${o.id}`} data-testid="mall-order">
              <Card size="small">
                <Flex justify="space-between">
                  <Typography.Text type="secondary">{o.orderNo}</Typography.Text>
                  <Tag color={STATE_COLOURS[o.state]}>{t(`mall.state.${o.state}`)}</Tag>
                </Flex>
                <div>{o.lines.map((l) => `${l.name} ×${l.quantity}`).join("、")}</div>
                <Typography.Text strong>{formatMoney(o.amount)}</Typography.Text>
              </Card>
            </Link>
          ))}
        </Flex>
      )}
    </MallShell>
  );
}
