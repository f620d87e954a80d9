import { Card, Statistic, type TableColumnsType } from "antd";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import type { Money, Page } from "@tessera/contracts";
import { unwrap } from "../../api/errors";
import { http } from "../../api/http";
import { ListPage } from "../../ui/list/ListPage";
import { formatMoney } from "../../ui/money";
import { PageHint } from "../../ui/PageHint";
import { formatTime } from "../../ui/time";

interface ChangeRow {
  id: string;
  time: string;
  amount: Money;
  balance: Money;
  type: string;
  reason: string;
}
type ChangePage = Page<ChangeRow> & { balance: Money };

const fetchChanges = async (q: {
  page: number;
  pageSize: number;
  from?: string | undefined;
  to?: string | undefined;
}) => unwrap(await http.get<ChangePage>("/api/card-user/rebate/changes", { query: q, overlay: false }));

/** `/sale/RebateFundChange`: the rebate account's balance and its changes (rebates received). */
export default function RebateFundChange() {
  const { t } = useTranslation();
  const balance = useQuery({ queryKey: ["rebate", "balance"], queryFn: () => fetchChanges({ page: 1, pageSize: 20 }) });
  const columns: TableColumnsType<ChangeRow> = [
    {
      title: t("rebate.col.time"),
      dataIndex: "time",
      width: 180,
      render: (v: string) => formatTime(v, { seconds: true }),
    },
    {
      title: t("rebate.col.change"),
      dataIndex: "amount",
      align: "right",
      render: (m: Money) => (m.amount > 0 ? `+${formatMoney(m)}` : formatMoney(m)),
    },
    { title: t("rebate.col.balance"), dataIndex: "balance", align: "right", render: (m: Money) => formatMoney(m) },
    { title: t("rebate.col.type"), dataIndex: "type", width: 140, render: (v: string) => t(`funds.type.${v}`) },
    { title: t("rebate.col.reason"), dataIndex: "reason" },
  ];
  return (
    <ListPage<ChangeRow>
      header={
        <>
          <PageHint
            id="sale.RebateFundChange"
            title={t("rebate.hint.changesTitle")}
            description={t("rebate.hint.changes")}
          />
          <Card variant="borderless">
            <Statistic title={t("rebate.balance")} value={balance.data ? formatMoney(balance.data.balance) : "-"} />
          </Card>
        </>
      }
      rowKey="id"
      columns={columns}
      search={{ dateMode: "date" }}
      query={(state) => {
        const q = {
          page: state.page,
          pageSize: state.pageSize,
          from: state.values.date?.[0].slice(0, 10),
          to: state.values.date?.[1].slice(0, 10),
        };
        return { queryKey: ["rebate", "changes", q], queryFn: () => fetchChanges(q) };
      }}
    />
  );
}
