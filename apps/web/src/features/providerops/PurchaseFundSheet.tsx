import { useQuery } from "@tanstack/react-query";
import { Typography, type TableColumnsType } from "antd";
import dayjs from "dayjs";
import { useTranslation } from "react-i18next";
import { type FundSheetRow } from "@tessera/contracts";
import type { Query } from "../../api/client";
import { ListPage } from "../../ui/list/ListPage";
import type { SearchValues } from "../../ui/list/searchValues";
import { formatMoney } from "../../ui/money";
import { PageHint } from "../../ui/PageHint";
import { FUND_SHEET_EXPORT_PATH, providerOpsApi } from "./api";
import { formatTime } from "../../ui/time";

/** The change types of a purchase fund (SUP) account. */
const SUP_TYPES = ["reserve_transfer", "purchase", "refund", "transfer", "manual_credit"] as const;
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** The search bar's values as the call's filters: the served purchaser, change type and calendar days. */
function toQuery(values: SearchValues): Query {
  const [from, to] = values.date ?? [];
  return {
    merchantId: one(values.selValT),
    type: one(values.selVal),
    from: from ? dayjs(from).format("YYYY-MM-DD") : undefined,
    to: to ? dayjs(to).format("YYYY-MM-DD") : undefined,
  };
}

/**
 * `/providers/PurchaseFundSheet`: the purchase fund sheets of the purchasers the provider serves: every
 * change of their purchase fund (SUP) accounts, with the shared list's filters (purchaser, change type,
 * date range with shortcuts), paging and the .xlsx export of the same filters.
 */
export default function PurchaseFundSheet() {
  const { t } = useTranslation();
  const vendors = useQuery({ queryKey: ["providerOps", "servedVendors"], queryFn: providerOpsApi.servedVendors });
  const money = (amount: number, r: FundSheetRow) => formatMoney({ amount, currency: r.currency });
  const columns: TableColumnsType<FundSheetRow> = [
    {
      title: t("funds.col.time"),
      dataIndex: "time",
      width: 160,
      render: (v: string) => formatTime(v, { seconds: true }),
    },
    {
      title: t("providerOps.col.purchaser"),
      key: "merchant",
      width: 240,
      ellipsis: true,
      render: (_: unknown, r) => `${r.merchantName} (${r.merchantId})`,
    },
    { title: t("funds.col.type"), dataIndex: "type", width: 100, render: (v: string) => t(`funds.type.${v}`) },
    {
      title: t("funds.col.increase"),
      dataIndex: "increase",
      width: 100,
      align: "right",
      render: (v: number, r) => (v ? <Typography.Text type="success">+{money(v, r)}</Typography.Text> : "-"),
    },
    {
      title: t("funds.col.expense"),
      dataIndex: "expense",
      width: 100,
      align: "right",
      render: (v: number, r) => (v ? <Typography.Text type="danger">-{money(v, r)}</Typography.Text> : "-"),
    },
    {
      title: t("funds.col.balance"),
      dataIndex: "balance",
      width: 100,
      align: "right",
      render: (v: number, r) => money(v, r),
    },
    { title: t("funds.col.reason"), dataIndex: "reason", ellipsis: true, render: (v: string) => v || "-" },
  ];
  const vendorOptions = (vendors.data?.list ?? []).map((b) => ({
    value: b.merchantId,
    label: `${b.merchantName} (${b.merchantId})`,
  }));
  return (
    <ListPage<FundSheetRow>
      header={
        <PageHint
          id="providers.PurchaseFundSheet"
          title={t("providerOps.hint.fundSheetTitle")}
          description={t("providerOps.hint.fundSheet")}
        />
      }
      rowKey="id"
      columns={columns}
      scrollX={960}
      search={{
        dateMode: "date",
        dateLabel: t("funds.col.time"),
        select: {
          keys: [
            {
              value: "type",
              label: t("funds.col.type"),
              options: SUP_TYPES.map((k) => ({ value: k, label: t(`funds.type.${k}`) })),
            },
          ],
        },
        selectT: { keys: [{ value: "merchantId", label: t("providerOps.col.purchaser"), options: vendorOptions }] },
      }}
      query={(state) => {
        const q = { page: state.page, pageSize: state.pageSize, ...toQuery(state.values) };
        return { queryKey: ["providerOps", "fundSheet", q], queryFn: () => providerOpsApi.fundSheet(q) };
      }}
      exportFile={(values) => ({
        path: FUND_SHEET_EXPORT_PATH,
        query: toQuery(values),
        fileName: "purchase-fund-sheet.xlsx",
      })}
    />
  );
}
