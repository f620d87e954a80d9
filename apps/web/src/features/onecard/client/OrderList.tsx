import { useQuery } from "@tanstack/react-query";
import { Empty, List, Tag } from "antd";
import { useTranslation } from "react-i18next";
import type { OcOrder, Page } from "@tessera/contracts";
import { customerCall } from "../../customer/customerApi";
import { fmt } from "./format";
import { formatTime } from "../../../ui/time";
import { Shell } from "../../customer/Shell";

const TAG = { processing: "blue", success: "green", failed: "orange", refunded: "orange" } as const;

/** `/client/orderList`: equities the customer paid for with a card. */
export default function OrderList() {
  const { t } = useTranslation();
  const q = useQuery({
    queryKey: ["onecard", "orders"],
    queryFn: async () => {
      const r = await customerCall<Page<OcOrder>>("GET", "/api/mall/onecard/orders?pageSize=100");
      return r.ok ? r.data.list : [];
    },
  });
  return (
    <Shell title={t("onecard.title.orders")}>
      {q.data?.length === 0 && <Empty />}
      <List
        dataSource={q.data ?? []}
        renderItem={(o) => (
          <List.Item
            style={{ background: "#fff", padding: "12px 16px", marginBottom: 8, borderRadius: 8 }}
            extra={<strong>{fmt(o.amount)}</strong>}
          >
            <List.Item.Meta
              title={
                <>
                  {o.equity} <Tag color={TAG[o.state]}>{t(`onecard.order.${o.state}`)}</Tag>
                </>
              }
              description={[`${t("onecard.account")}: ${o.account}`, o.cardNo, formatTime(o.createdAt), o.failReason]
                .filter(Boolean)
                .join(" · ")}
            />
          </List.Item>
        )}
      />
    </Shell>
  );
}
