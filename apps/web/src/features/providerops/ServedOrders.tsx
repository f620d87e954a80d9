import { useQuery } from "@tanstack/react-query";
import { Tag, type TableColumnsType } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { BUSINESS_TYPES, type ServedOrder } from "@tessera/contracts";
import type { Query } from "../../api/client";
import { ListPage } from "../../ui/list/ListPage";
import type { SearchValues } from "../../ui/list/searchValues";
import { formatMoney } from "../../ui/money";
import { useDictLabels } from "../catalog/labels";
import { ORDERS_EXPORT_PATH, providerOpsApi } from "./api";
import { formatTime } from "../../ui/time";

const STATE_COLOURS: Record<ServedOrder["state"], string> = {
  processing: "processing",
  success: "success",
  failure: "error",
};
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/**
 * The list of the served merchants' orders behind OrderManagement (all), BrandOrder (by served brand)
 * and RechargeOrder (direct top-ups): the shared search bar (order number, state, business type or
 * brand, date range with shortcuts), paging and the .xlsx export of the same filters.
 */
export function ServedOrders({ mode, header }: { mode: "all" | "brand" | "topUp"; header: ReactNode }) {
  const { t } = useTranslation();
  const labels = useDictLabels();
  const brands = useQuery({
    queryKey: ["providerOps", "brands"],
    queryFn: providerOpsApi.brands,
    enabled: mode === "brand",
  });
  const brandOwners = [...new Map((brands.data ?? []).map((b) => [b.merchantId, b.merchantName])).entries()];

  const toQuery = (values: SearchValues): Query => {
    const q: Query = {
      orderNo: values.inpVal,
      state: one(values.selVal),
      from: values.date?.[0].slice(0, 10),
      to: values.date?.[1].slice(0, 10),
    };
    if (mode === "topUp") q.businessType = "top_up";
    else if (mode === "brand") q.merchantId = one(values.selValT);
    else q.businessType = one(values.selValT);
    return q;
  };

  const columns: TableColumnsType<ServedOrder> = [
    {
      title: t("providerOps.col.time"),
      dataIndex: "createdAt",
      width: 170,
      render: (v: string) => formatTime(v, { seconds: true }),
    },
    { title: t("providerOps.col.orderNo"), dataIndex: "orderNo", width: 200 },
    {
      title: t("providerOps.col.purchaser"),
      key: "purchaser",
      width: 200,
      ellipsis: true,
      render: (_: unknown, r) => `${r.purchaserName} (${r.purchaserId})`,
    },
    {
      title: t("providerOps.col.supplier"),
      key: "supplier",
      width: 200,
      ellipsis: true,
      render: (_: unknown, r) => `${r.supplierName} (${r.supplierId})`,
    },
    { title: t("providerOps.col.brand"), dataIndex: "brandName", width: 140, ellipsis: true },
    { title: t("providerOps.col.goods"), dataIndex: "goodsName", width: 200, ellipsis: true },
    {
      title: t("providerOps.col.type"),
      dataIndex: "businessType",
      width: 110,
      render: (v: string) =>
        (BUSINESS_TYPES as readonly string[]).includes(v)
          ? labels.businessType(v as (typeof BUSINESS_TYPES)[number])
          : v,
    },
    ...(mode === "topUp"
      ? [
          {
            title: t("providerOps.col.account"),
            dataIndex: "topUpAccount",
            width: 150,
            render: (v: string | null) => v ?? "-",
          },
        ]
      : []),
    { title: t("providerOps.col.quantity"), dataIndex: "quantity", width: 80, align: "right" },
    {
      title: t("providerOps.col.amount"),
      dataIndex: "amount",
      width: 120,
      align: "right",
      render: (m: ServedOrder["amount"]) => formatMoney(m),
    },
    {
      title: t("providerOps.col.state"),
      dataIndex: "state",
      width: 100,
      render: (s: ServedOrder["state"], r) => (
        <Tag color={STATE_COLOURS[s]}>
          {t(`providerOps.state.${s}`)}
          {r.refunded ? ` · ${t("providerOps.refunded")}` : ""}
        </Tag>
      ),
    },
  ];
  const stateOptions = (["processing", "success", "failure"] as const).map((s) => ({
    value: s,
    label: t(`providerOps.state.${s}`),
  }));
  return (
    <ListPage<ServedOrder>
      header={header}
      rowKey="id"
      columns={columns}
      scrollX={1700}
      search={{
        dateMode: "date",
        input: { keys: [{ value: "orderNo", label: t("providerOps.col.orderNo") }] },
        select: { keys: [{ value: "state", label: t("providerOps.col.state"), options: stateOptions }] },
        ...(mode === "brand" && {
          selectT: {
            keys: [
              {
                value: "merchantId",
                label: t("providerOps.col.brandOwner"),
                options: brandOwners.map(([id, name]) => ({ value: id, label: `${name} (${id})` })),
              },
            ],
          },
        }),
        ...(mode === "all" && {
          selectT: {
            keys: [
              {
                value: "businessType",
                label: t("providerOps.col.type"),
                options: BUSINESS_TYPES.map((b) => ({ value: b, label: labels.businessType(b) })),
              },
            ],
          },
        }),
      }}
      query={(state) => {
        const q = { page: state.page, pageSize: state.pageSize, ...toQuery(state.values) };
        return { queryKey: ["providerOps", "orders", mode, q], queryFn: () => providerOpsApi.orders(q) };
      }}
      exportFile={(values) => ({ path: ORDERS_EXPORT_PATH, query: toQuery(values), fileName: "served-orders.xlsx" })}
    />
  );
}
