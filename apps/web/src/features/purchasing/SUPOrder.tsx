import { Tag, type TableColumnsType } from "antd";
import { useTranslation } from "react-i18next";
import { SUP_SETTLEMENTS, type SupOrderRow, type SupSettlement } from "@tessera/contracts";
import { PageHint } from "../../ui/PageHint";
import { ListPage } from "../../ui/list/ListPage";
import { formatMoney } from "../../ui/money";
import { orderFilters } from "./listFilters";
import { supOrdersQuery } from "./statisticsApi";
import { formatTime } from "../../ui/time";

const COLOR: Record<SupSettlement, string> = {
  escrow: "processing",
  settled: "success",
  partly_refunded: "warning",
  refunded: "default",
};

/**
 * `/business/SUPOrder`: the orders purchasers paid from their SUP accounts for this supplier's goods,
 * each with where its money is now: held in escrow (a top-up not yet reported), settled to the supplier's
 * income, partly refunded or refunded; with what the supplier keeps. Our reading of a page the spec names only.
 */
export default function SUPOrder() {
  const { t } = useTranslation();
  const money = (v: number, r: SupOrderRow) => formatMoney({ amount: v, currency: r.currency });
  const columns: TableColumnsType<SupOrderRow> = [
    {
      title: t("order.col.time"),
      dataIndex: "createdAt",
      width: 150,
      render: (v: string) => formatTime(v),
    },
    { title: t("order.col.orderNo"), dataIndex: "orderNo" },
    {
      title: t("stats.col.settlement"),
      dataIndex: "settlement",
      render: (v: SupSettlement) => <Tag color={COLOR[v]}>{t(`stats.settlement.${v}`)}</Tag>,
    },
    {
      title: t("order.col.purchaser"),
      key: "purchaser",
      render: (_: unknown, r) => `${r.purchaserName} (${r.purchaserId})`,
    },
    { title: t("order.col.goods"), key: "goods", render: (_: unknown, r) => `${r.goodsName} (${r.goodsId})` },
    { title: t("order.col.quantity"), dataIndex: "quantity", align: "right" },
    { title: t("order.col.amount"), dataIndex: "amount", align: "right", render: money },
    { title: t("report.amount.refund"), dataIndex: "refundedAmount", align: "right", render: money },
    { title: t("stats.col.kept"), dataIndex: "netAmount", align: "right", render: money },
  ];
  return (
    <ListPage<SupOrderRow>
      header={<PageHint id="business.SUPOrder" title={t("stats.hint.supTitle")} description={t("stats.hint.sup")} />}
      rowKey="id"
      columns={columns}
      scrollX={1100}
      search={{
        dateMode: "date",
        dateLabel: t("order.col.time"),
        select: {
          keys: [
            {
              value: "settlement",
              label: t("stats.col.settlement"),
              options: SUP_SETTLEMENTS.map((s) => ({ value: s, label: t(`stats.settlement.${s}`) })),
            },
          ],
        },
        input: {
          keys: [
            { value: "orderNo", label: t("order.col.orderNo") },
            { value: "counterpartId", label: t("order.purchaserId"), numeric: true },
          ],
        },
      }}
      query={(state) => {
        const f = orderFilters(state.values);
        return supOrdersQuery({
          page: state.page,
          pageSize: state.pageSize,
          from: f.from,
          to: f.to,
          orderNo: f.orderNo,
          purchaserId: f.counterpartId,
          settlement: f.state,
        });
      }}
    />
  );
}
