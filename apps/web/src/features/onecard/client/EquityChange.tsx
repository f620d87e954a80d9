import { useQuery } from "@tanstack/react-query";
import { Empty, List, Typography } from "antd";
import { useTranslation } from "react-i18next";
import type { OcMove, Page } from "@tessera/contracts";
import { customerCall } from "../../customer/customerApi";
import { fmt } from "./format";
import { formatTime } from "../../../ui/time";
import { Shell } from "../../customer/Shell";

/** `/client/equityChange`: every change of the balances of the customer's cards, newest first, with the balance after it. */
export default function EquityChange() {
  const { t } = useTranslation();
  const q = useQuery({
    queryKey: ["onecard", "moves"],
    queryFn: async () => {
      const r = await customerCall<Page<OcMove>>("GET", "/api/mall/onecard/moves?pageSize=100");
      return r.ok ? r.data.list : [];
    },
  });
  return (
    <Shell title={t("onecard.title.changes")}>
      {q.data?.length === 0 && <Empty />}
      <List
        dataSource={q.data ?? []}
        renderItem={(m) => (
          <List.Item style={{ background: "#fff", padding: "12px 16px", marginBottom: 8, borderRadius: 8 }}>
            <List.Item.Meta
              title={`${t(`onecard.move.${m.kind}`)} · ${m.note || m.cardNo}`}
              description={`${m.cardNo} · ${formatTime(m.createdAt)}`}
            />
            <div style={{ textAlign: "right" }}>
              <Typography.Text strong type={m.amount.amount < 0 ? "danger" : "success"}>
                {m.amount.amount > 0 ? "+" : ""}
                {fmt(m.amount)}
              </Typography.Text>
              <div style={{ fontSize: 12, color: "#999" }}>{t("onecard.balanceAfter", { v: fmt(m.balanceAfter) })}</div>
            </div>
          </List.Item>
        )}
      />
    </Shell>
  );
}
