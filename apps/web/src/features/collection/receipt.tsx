import { Empty, Tag, type TableColumnsType } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { PayOrder } from "@tessera/contracts";
import { ListPage } from "../../ui/list/ListPage";
import { formatMoney } from "../../ui/money";
import { PageHint } from "../../ui/PageHint";
import { collectionApi, collectionKeys } from "./api";
import { ServedBrandSelect } from "../stores/ServedBrandSelect";
import { dayRange } from "../stores/writeoffLists";
import { formatTime } from "../../ui/time";

/** `/providers/receipt`: the payment orders a brand this provider serves collected. */
export default function Receipt() {
  const { t } = useTranslation();
  const [branderId, setBranderId] = useState<string | undefined>();
  const columns: TableColumnsType<PayOrder> = [
    { title: t("collection.orderNo"), dataIndex: "orderNo", width: 220 },
    { title: t("collection.codeName"), dataIndex: "codeName", width: 140 },
    {
      title: t("collection.amount"),
      dataIndex: "amount",
      width: 110,
      align: "right",
      render: (m: PayOrder["amount"]) => formatMoney(m),
    },
    {
      title: t("collection.refunded"),
      dataIndex: "refunded",
      width: 110,
      align: "right",
      render: (m: PayOrder["refunded"]) => formatMoney(m),
    },
    {
      title: t("collection.orderState"),
      dataIndex: "state",
      width: 100,
      render: (s: PayOrder["state"]) => <Tag>{t(`collection.orderStates.${s}`)}</Tag>,
    },
    {
      title: t("collection.paidAt"),
      dataIndex: "paidAt",
      width: 170,
      render: (v: string | null) => (v ? formatTime(v, { seconds: true }) : "-"),
    },
  ];
  return (
    <ListPage<PayOrder>
      header={
        <>
          <PageHint
            id="providers.receipt"
            title={t("collection.title.receipt")}
            description={t("collection.hint.served")}
          />
          <ServedBrandSelect value={branderId} onChange={setBranderId} />
          {!branderId && <Empty description={t("stores.chooseBrand")} />}
        </>
      }
      rowKey="id"
      columns={columns}
      search={{ dateMode: "date" }}
      query={(state) => {
        const q = { page: state.page, pageSize: state.pageSize, branderId, ...dayRange(state.values) };
        return {
          queryKey: collectionKeys.orders("served", q),
          queryFn: () =>
            branderId
              ? collectionApi.servedOrders(q)
              : Promise.resolve({ list: [], total: 0, page: 1, pageSize: state.pageSize }),
        };
      }}
    />
  );
}
