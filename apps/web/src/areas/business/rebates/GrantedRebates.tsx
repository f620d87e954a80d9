import { Tag, type TableColumnsType } from "antd";
import { useTranslation } from "react-i18next";
import type { RebateStatement } from "@tessera/contracts";
import { ListPage } from "../../../components/list/ListPage";
import { formatMoney } from "../../../components/money";
import { percent } from "../catalog/labels";
import { rebateKeys, supplierRebateApi } from "./api";

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/**
 * The rebates the supplier granted (a tab of ProcurementLiaison): per purchaser and month, the net
 * volume, the tier's rate and the rebate, paid from the supplier's income (or due while it cannot pay).
 */
export function GrantedRebates() {
  const { t } = useTranslation();
  const columns: TableColumnsType<RebateStatement> = [
    { title: t("rebate.col.period"), dataIndex: "period", width: 100 },
    { title: t("rebate.col.purchaser"), key: "purchaser", render: (_: unknown, r) => `${r.purchaserName} (${r.purchaserId})` },
    { title: t("rebate.col.volume"), dataIndex: "volume", align: "right", render: (m: RebateStatement["volume"]) => formatMoney(m) },
    { title: t("rebate.col.rate"), dataIndex: "rateBp", align: "right", width: 90, render: (v: number) => percent(v) },
    { title: t("rebate.col.amount"), dataIndex: "amount", align: "right", render: (m: RebateStatement["amount"]) => <strong>{formatMoney(m)}</strong> },
    { title: t("rebate.col.state"), dataIndex: "state", width: 100, render: (s: RebateStatement["state"]) => <Tag color={s === "paid" ? "success" : "processing"}>{t(`rebate.state.${s}`)}</Tag> },
    { title: t("rebate.col.paidAt"), dataIndex: "paidAt", width: 180, render: (v: string | null) => (v ? new Date(v).toLocaleString() : "-") },
  ];
  return (
    <ListPage<RebateStatement>
      rowKey="id"
      columns={columns}
      scrollX={1000}
      exportName={t("rebate.granted.title")}
      search={{ dateMode: "monthRange" }}
      query={(state) => {
        const month = state.values.month;
        const q = { page: state.page, pageSize: state.pageSize, from: Array.isArray(month) ? month[0] : one(month), to: Array.isArray(month) ? month[1] : one(month) };
        return { queryKey: rebateKeys.granted(q), queryFn: () => supplierRebateApi.granted(q) };
      }}
    />
  );
}
