import type { TableColumnsType } from "antd";
import dayjs from "dayjs";
import { useTranslation } from "react-i18next";
import type { SalesStatsRow } from "@tessera/contracts";
import { PageHint } from "../../ui/PageHint";
import { ListPage } from "../../ui/list/ListPage";
import type { SearchValues } from "../../ui/list/searchValues";
import { formatMoney } from "../../ui/money";
import { platformToday } from "../../ui/platformDay";
import { salesStatsQuery } from "./statisticsApi";

/** The search bar's range as calendar days; the last 30 days when none is chosen. */
function range(values: SearchValues): { from: string; to: string } {
  const [from, to] = values.date ?? [];
  return from && to
    ? { from: dayjs(from).format("YYYY-MM-DD"), to: dayjs(to).format("YYYY-MM-DD") }
    : { from: platformToday().subtract(29, "day").format("YYYY-MM-DD"), to: platformToday().format("YYYY-MM-DD") };
}

/**
 * `/sale/SalesStatistics`: what the purchaser bought for resale in a date range, per goods or per
 * supplier: orders, quantity, face amount, amount paid, refunded, net (failed orders left out). Our
 * reading of a page the spec names only.
 */
export default function SalesStatistics() {
  const { t } = useTranslation();
  const money = (v: number, r: SalesStatsRow) => formatMoney({ amount: v, currency: r.currency });
  const columns: TableColumnsType<SalesStatsRow> = [
    { title: t("stats.col.name"), key: "name", render: (_: unknown, r) => `${r.name} (${r.key})` },
    {
      title: t("order.col.supplier"),
      key: "supplier",
      render: (_: unknown, r) => `${r.supplierName} (${r.supplierId})`,
    },
    { title: t("report.orders"), dataIndex: "orders", align: "right" },
    { title: t("order.col.quantity"), dataIndex: "quantity", align: "right" },
    { title: t("report.faceAmount"), dataIndex: "faceAmount", align: "right", render: money },
    { title: t("report.amount.purchase"), dataIndex: "amount", align: "right", render: money },
    { title: t("stats.col.refundedQuantity"), dataIndex: "refundedQuantity", align: "right" },
    { title: t("report.amount.refund"), dataIndex: "refundedAmount", align: "right", render: money },
    { title: t("stats.col.net"), dataIndex: "netAmount", align: "right", render: money },
  ];
  return (
    <ListPage<SalesStatsRow>
      header={
        <PageHint id="sale.SalesStatistics" title={t("stats.hint.salesTitle")} description={t("stats.hint.sales")} />
      }
      rowKey="key"
      columns={columns}
      search={{
        dateMode: "date",
        dateLabel: t("order.col.time"),
        select: {
          keys: [
            {
              value: "dimension",
              label: t("stats.dimension"),
              options: [
                { value: "goods", label: t("stats.byGoods") },
                { value: "supplier", label: t("stats.bySupplier") },
              ],
            },
          ],
        },
      }}
      query={(state) =>
        salesStatsQuery({
          page: state.page,
          pageSize: state.pageSize,
          dimension: typeof state.values.selVal === "string" ? state.values.selVal : "goods",
          ...range(state.values),
        })
      }
    />
  );
}
