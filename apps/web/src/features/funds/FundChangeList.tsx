import { Card, Flex, Statistic, Typography, type TableColumnsType } from "antd";
import dayjs from "dayjs";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import {
  LEDGER_TRANSACTION_KINDS,
  type Currency,
  type FundAccount,
  type FundChangeRow,
  type Money,
} from "@tessera/contracts";
import type { Query } from "../../api/client";
import { fundChangesQuery, fundListPaths } from "./api";
import { ListPage } from "../../ui/list/ListPage";
import type { SearchValues } from "../../ui/list/searchValues";
import { formatMoney } from "../../ui/money";
import { formatTime } from "../../ui/time";

/** The search bar's values as the list call's filters: dates as calendar days, amounts in minor units. */
export function fundFilters(values: SearchValues): Query {
  const [from, to] = values.date ?? [];
  const amount = values.inpVal ? Number(values.inpVal) * 100 : undefined;
  return {
    from: from ? dayjs(from).format("YYYY-MM-DD") : undefined,
    to: to ? dayjs(to).format("YYYY-MM-DD") : undefined,
    type: typeof values.selVal === "string" ? values.selVal : undefined,
    minAmount: values.inpKey === "maxAmount" ? undefined : amount,
    maxAmount: values.inpKey === "maxAmount" ? amount : undefined,
  };
}

/** The change types a list offers in its type filter. */
const TYPES_OF: Record<FundAccount, readonly string[]> = {
  reserve: [
    "top_up",
    "top_up_fee",
    "top_up_refund",
    "manual_credit",
    "reserve_transfer",
    "withdrawal_hold",
    "withdrawal_release",
  ],
  sup: ["reserve_transfer", "purchase", "card_sale", "refund", "transfer"],
  income: [
    "purchase",
    "card_activation",
    "collection_payment",
    "takeout_sale",
    "mall_sale",
    "refund",
    "store_settlement",
    "commission",
    "rebate",
    "withdrawal_hold",
    "withdrawal_release",
    "withdrawal_payout",
    "transfer",
  ],
};

/**
 * A fund-change list (spec 01 §3 Fund change row): time, increase, expense, balance after, change type,
 * reason; filters by date range (with shortcuts), change type and amount; paging up to 1000; xlsx export.
 */
export function FundChangeList({
  account,
  header,
  currency,
  onlyType,
}: {
  account: FundAccount;
  header?: ReactNode;
  currency: Currency;
  onlyType?: string | undefined;
}) {
  const { t } = useTranslation();
  const money = (amount: number) => formatMoney({ amount, currency });
  const columns: TableColumnsType<FundChangeRow> = [
    {
      title: t("funds.col.time"),
      dataIndex: "time",
      width: 180,
      render: (v: string) => formatTime(v, { seconds: true }),
    },
    {
      title: t("funds.col.increase"),
      dataIndex: "increase",
      align: "right",
      render: (v: number) => (v ? <Typography.Text type="success">+{money(v)}</Typography.Text> : "-"),
    },
    {
      title: t("funds.col.expense"),
      dataIndex: "expense",
      align: "right",
      render: (v: number) => (v ? <Typography.Text type="danger">-{money(v)}</Typography.Text> : "-"),
    },
    { title: t("funds.col.balance"), dataIndex: "balance", align: "right", render: (v: number) => money(v) },
    { title: t("funds.col.type"), dataIndex: "type", render: (v: string) => t(`funds.type.${v}`) },
    { title: t("funds.col.reason"), dataIndex: "reason", ellipsis: true, render: (v: string) => v || "-" },
  ];
  const typeOptions = LEDGER_TRANSACTION_KINDS.filter((k) => TYPES_OF[account].includes(k)).map((k) => ({
    value: k,
    label: t(`funds.type.${k}`),
  }));
  return (
    <ListPage<FundChangeRow>
      header={header}
      rowKey="id"
      columns={columns}
      search={{
        dateMode: "date",
        dateLabel: t("funds.col.time"),
        // A list of one change type (the SUP top-ups) has no type filter.
        ...(onlyType === undefined && {
          select: { keys: [{ value: "type", label: t("funds.col.type"), options: typeOptions }] },
        }),
        input: {
          keys: [
            { value: "minAmount", label: t("funds.search.minAmount"), numeric: true },
            { value: "maxAmount", label: t("funds.search.maxAmount"), numeric: true },
          ],
        },
      }}
      query={(state) =>
        fundChangesQuery(account, {
          page: state.page,
          pageSize: state.pageSize,
          ...fundFilters(state.values),
          ...(onlyType && { type: onlyType }),
        })
      }
      exportFile={(values) => ({
        path: fundListPaths(account).export,
        query: { account, ...fundFilters(values), ...(onlyType && { type: onlyType }) },
        fileName: `${t(`funds.account.${account}`)}.xlsx`,
      })}
    />
  );
}

/** The balance above a list, with the page's actions beside it. */
export function BalanceHeader({
  title,
  money,
  actions,
}: {
  title: string;
  money: Money | undefined;
  actions?: ReactNode;
}) {
  return (
    <Card variant="borderless">
      <Flex justify="space-between" align="center" wrap gap={16}>
        <Statistic
          title={title}
          value={money?.amount ?? 0}
          formatter={() => <span data-testid="fund-balance">{money ? formatMoney(money) : "-"}</span>}
        />
        {actions}
      </Flex>
    </Card>
  );
}
