import { Tag, type TableColumnsType } from "antd";
import { useTranslation } from "react-i18next";
import type { SupplyCheckRow } from "@tessera/contracts";
import { PageHint } from "../../ui/PageHint";
import { formatMoney } from "../../ui/money";
import { PeriodTable, type PeriodState } from "./PeriodTable";
import { useSupplyCheck } from "./statisticsApi";

const useCheckRows = (s: PeriodState) => useSupplyCheck({ from: s.from, to: s.to });

/**
 * `/business/CheckSupOrder` (supply order check): per day, the sales the supplier's orders say it made
 * (settled orders less refunds of codes) against what its income ledger received; a day whose
 * difference is not zero does not balance. Top-ups still held in escrow are shown beside.
 */
export default function CheckSupOrder() {
  const { t } = useTranslation();
  const money = (v: number, r: SupplyCheckRow) => formatMoney({ amount: v, currency: r.currency });
  const columns: TableColumnsType<SupplyCheckRow> = [
    { title: t("stats.col.day"), dataIndex: "day" },
    { title: t("stats.col.settledOrders"), dataIndex: "settledOrders", align: "right" },
    { title: t("stats.col.settledAmount"), dataIndex: "settledAmount", align: "right", render: money },
    { title: t("stats.col.refunds"), dataIndex: "refunds", align: "right" },
    { title: t("report.amount.refund"), dataIndex: "refundAmount", align: "right", render: money },
    { title: t("stats.col.ledgerIncome"), dataIndex: "ledgerIncome", align: "right", render: money },
    { title: t("stats.col.ledgerRefund"), dataIndex: "ledgerRefund", align: "right", render: money },
    {
      title: t("stats.col.difference"),
      dataIndex: "difference",
      align: "right",
      render: (v: number, r) => (
        <Tag color={v === 0 ? "success" : "error"}>{v === 0 ? t("stats.balanced") : money(v, r)}</Tag>
      ),
    },
    {
      title: t("stats.col.escrow"),
      key: "escrow",
      align: "right",
      render: (_: unknown, r) => `${r.escrowOrders} / ${money(r.escrowAmount, r)}`,
    },
  ];
  return (
    <PeriodTable<SupplyCheckRow>
      header={
        <PageHint id="business.CheckSupOrder" title={t("stats.hint.checkTitle")} description={t("stats.hint.check")} />
      }
      rowKey="day"
      columns={columns}
      useRows={useCheckRows}
    />
  );
}
