import type { TableColumnsType } from "antd";
import { useTranslation } from "react-i18next";
import type { OcSalesOrder, Page } from "@tessera/contracts";
import { unwrap } from "../../api/errors";
import { http } from "../../api/http";
import type { SearchValues } from "../../ui/list/searchValues";
import { ListPage } from "../../ui/list/ListPage";
import { formatMoney } from "../../ui/money";
import { PageHint } from "../../ui/PageHint";
import { one } from "./query";
import { time } from "./labels";
import { useSaleOptions } from "./useSaleOptions";

const salesQuery = (values: SearchValues) => ({
  from: values.date?.[0]?.slice(0, 10),
  to: values.date?.[1]?.slice(0, 10),
  productId: one(values.selVal),
});

/**
 * `/sale/CardSalesOrder`: each card purchase and what became of its cards: activated, gifted, in
 * customers' card bags, returned, what customers spent and the balance left; by day range and card
 * product, exported as xlsx. The totals by day, week and month are in OneCardReport.
 */
export default function CardSalesOrder() {
  const { t } = useTranslation();
  const sales = useSaleOptions();
  const products = [...new Map(sales.map((s) => [s.productId, s.productName])).entries()].map(([value, label]) => ({
    value,
    label,
  }));
  const m = (v: OcSalesOrder["amount"]) => formatMoney(v);
  const columns: TableColumnsType<OcSalesOrder> = [
    { title: t("onecard.bo.orderNo"), dataIndex: "id", width: 90 },
    { title: t("onecard.bo.createdAt"), dataIndex: "createdAt", width: 150, render: time },
    { title: t("onecard.product"), dataIndex: "productName", width: 200, ellipsis: true },
    { title: t("onecard.bo.brand"), dataIndex: "branderName", width: 160, ellipsis: true },
    { title: t("onecard.bo.quantity"), dataIndex: "quantity", width: 80, align: "right" },
    { title: t("onecard.bo.amount"), dataIndex: "amount", width: 110, align: "right", render: m },
    { title: t("onecard.bo.activatedCount"), dataIndex: "activated", width: 90, align: "right" },
    { title: t("onecard.bo.giftedCount"), dataIndex: "gifted", width: 90, align: "right" },
    { title: t("onecard.bo.inBags"), dataIndex: "inBags", width: 90, align: "right" },
    { title: t("onecard.bo.returnedCount"), dataIndex: "returned", width: 90, align: "right" },
    { title: t("onecard.bo.redeemed"), dataIndex: "redeemed", width: 110, align: "right", render: m },
    { title: t("onecard.bo.outstanding"), dataIndex: "outstanding", width: 120, align: "right", render: m },
  ];
  return (
    <ListPage<OcSalesOrder>
      header={
        <PageHint
          id="sale.CardSalesOrder"
          title={t("onecard.bo.page.CardSalesOrder")}
          description={t("onecard.bo.hintSalesOrder")}
        />
      }
      rowKey="id"
      columns={columns}
      scrollX={1450}
      search={{
        dateMode: "date",
        select: { keys: [{ value: "productId", label: t("onecard.product"), options: products }] },
      }}
      query={(state) => {
        const q = { page: state.page, pageSize: state.pageSize, ...salesQuery(state.values) };
        return {
          queryKey: ["onecard-sale", "salesOrders", q],
          queryFn: async () =>
            unwrap(
              await http.get<Page<OcSalesOrder>>("/api/card-user/onecard/salesOrders", { query: q, overlay: false }),
            ),
        };
      }}
      exportFile={(values) => ({
        path: "/api/card-user/onecard/salesOrders/export",
        query: salesQuery(values),
        fileName: "card-sales-orders.xlsx",
      })}
    />
  );
}
