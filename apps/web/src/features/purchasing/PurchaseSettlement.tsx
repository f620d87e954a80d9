import type { TableColumnsType } from "antd";
import { useTranslation } from "react-i18next";
import type { SettlementRow } from "@tessera/contracts";
import { PageHint } from "../../ui/PageHint";
import { formatMoney } from "../../ui/money";
import { PeriodTable } from "./PeriodTable";
import { usePurchaseSettlement } from "./statisticsApi";

/**
 * `/sale/PurchaseSettlement`: per day or month, what the purchaser paid for orders and got back in
 * refunds, beside its SUP account's ledger (money in, money out, closing balance), so its purchases
 * settle against its account. Our reading of a page the spec names only.
 */
export default function PurchaseSettlement() {
  const { t } = useTranslation();
  const money = (v: number | null, r: SettlementRow) =>
    v === null ? "-" : formatMoney({ amount: v, currency: r.currency });
  const columns: TableColumnsType<SettlementRow> = [
    { title: t("stats.col.period"), dataIndex: "period" },
    { title: t("report.orders"), dataIndex: "orders", align: "right" },
    { title: t("report.amount.purchase"), dataIndex: "purchaseAmount", align: "right", render: money },
    { title: t("report.amount.refund"), dataIndex: "refundAmount", align: "right", render: money },
    { title: t("stats.col.net"), dataIndex: "netAmount", align: "right", render: money },
    { title: t("stats.col.ledgerIn"), dataIndex: "ledgerIn", align: "right", render: money },
    { title: t("stats.col.ledgerOut"), dataIndex: "ledgerOut", align: "right", render: money },
    { title: t("stats.col.closing"), dataIndex: "closingBalance", align: "right", render: money },
  ];
  return (
    <PeriodTable<SettlementRow>
      header={
        <PageHint
          id="sale.PurchaseSettlement"
          title={t("stats.hint.settlementTitle")}
          description={t("stats.hint.settlement")}
        />
      }
      units
      rowKey="period"
      columns={columns}
      useRows={usePurchaseSettlement}
    />
  );
}
