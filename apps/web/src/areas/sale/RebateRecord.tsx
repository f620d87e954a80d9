import { Tag, type TableColumnsType } from "antd";
import { useTranslation } from "react-i18next";
import type { Page, RebateStatement } from "@tessera/contracts";
import { unwrap } from "../../api/errors";
import { http } from "../../api/http";
import { ListPage } from "../../components/list/ListPage";
import { formatMoney } from "../../components/money";
import { PageHint } from "../../components/PageHint";
import { percent } from "../business/catalog/labels";

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/**
 * `/sale/RebateRecord`: the rebates the purchaser earned, per supplier and month: the month's net
 * purchase volume, the tier reached and the rebate, paid into the rebate account (or due while the
 * supplier cannot pay it yet).
 */
export default function RebateRecord() {
  const { t } = useTranslation();
  const columns: TableColumnsType<RebateStatement> = [
    { title: t("rebate.col.period"), dataIndex: "period", width: 100 },
    { title: t("rebate.col.supplier"), key: "supplier", render: (_: unknown, r) => `${r.supplierName} (${r.supplierId})` },
    { title: t("rebate.col.volume"), dataIndex: "volume", align: "right", render: (m: RebateStatement["volume"]) => formatMoney(m) },
    { title: t("rebate.col.rate"), dataIndex: "rateBp", align: "right", width: 90, render: (v: number) => percent(v) },
    { title: t("rebate.col.amount"), dataIndex: "amount", align: "right", render: (m: RebateStatement["amount"]) => <strong>{formatMoney(m)}</strong> },
    { title: t("rebate.col.state"), dataIndex: "state", width: 100, render: (s: RebateStatement["state"]) => <Tag color={s === "paid" ? "success" : "processing"}>{t(`rebate.state.${s}`)}</Tag> },
    { title: t("rebate.col.paidAt"), dataIndex: "paidAt", width: 180, render: (v: string | null) => (v ? new Date(v).toLocaleString() : "-") },
  ];
  return (
    <ListPage<RebateStatement>
      header={<PageHint id="sale.RebateRecord" title={t("rebate.hint.recordTitle")} description={t("rebate.hint.record")} />}
      rowKey="id"
      columns={columns}
      scrollX={1000}
      search={{ dateMode: "monthRange" }}
      query={(state) => {
        const month = state.values.month;
        const q = { page: state.page, pageSize: state.pageSize, from: Array.isArray(month) ? month[0] : one(month), to: Array.isArray(month) ? month[1] : one(month) };
        return { queryKey: ["rebate", "records", q], queryFn: async () => unwrap(await http.get<Page<RebateStatement>>("/api/card-user/rebate/records", { query: q, overlay: false })) };
      }}
    />
  );
}
