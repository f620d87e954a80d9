import { Space, Tag, Tooltip, type TableColumnsType } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { WITHDRAWAL_STATES, type Withdrawal, type WithdrawalState } from "@tessera/contracts";
import { withdrawalsQuery } from "./api";
import { ListPage } from "../../ui/list/ListPage";
import { formatMoney } from "../../ui/money";
import { formatTime } from "../../ui/time";

const STATE_COLOR: Record<WithdrawalState, string> = {
  under_review: "processing",
  first_review_passed: "cyan",
  bank_paying: "gold",
  success: "success",
  failed: "error",
};

export function WithdrawalStateTag({ state }: { state: WithdrawalState }) {
  const { t } = useTranslation();
  return <Tag color={STATE_COLOR[state]}>{t(`withdraw.state.${state}`)}</Tag>;
}

/**
 * Withdrawal records (spec 01 §3): time, amount, status, remark; the merchant's own ("mine") or every
 * merchant's for operators ("ops") with their actions.
 */
export function WithdrawalList({
  scope,
  header,
  actions,
}: {
  scope: "mine" | "ops";
  header?: ReactNode;
  actions?: (row: Withdrawal) => ReactNode;
}) {
  const { t } = useTranslation();
  const columns: TableColumnsType<Withdrawal> = [
    {
      title: t("withdraw.col.time"),
      dataIndex: "createdAt",
      width: 170,
      render: (v: string) => formatTime(v),
    },
    ...(scope === "ops"
      ? [
          {
            title: t("funds.col.merchant"),
            key: "merchant",
            render: (_: unknown, r: Withdrawal) => `${r.merchantName} (${r.merchantId})`,
          },
        ]
      : []),
    {
      title: t("withdraw.col.amount"),
      dataIndex: "amount",
      align: "right",
      render: (v: Withdrawal["amount"]) => formatMoney(v),
    },
    { title: t("withdraw.col.card"), key: "card", render: (_: unknown, r) => `${r.card.bank} ${r.card.account}` },
    {
      title: t("withdraw.col.state"),
      dataIndex: "state",
      render: (v: WithdrawalState, r) => (
        <Space size={4}>
          <WithdrawalStateTag state={v} />
          {r.automatic && <Tag>{t("withdraw.automatic")}</Tag>}
        </Space>
      ),
    },
    {
      title: t("withdraw.col.remark"),
      key: "remark",
      render: (_: unknown, r) => {
        // A held automatic payout says why it waits for the operators (threshold, new merchant).
        const text =
          r.failReason ?? (r.state === "under_review" || r.state === "first_review_passed" ? r.reviewReason : null);
        return text ? <Tooltip title={text}>{text}</Tooltip> : r.remark || "-";
      },
    },
    ...(scope === "ops"
      ? [{ title: t("withdraw.col.reference"), dataIndex: "payoutReference", render: (v: string | null) => v ?? "-" }]
      : []),
    ...(actions
      ? [{ title: t("funds.col.actions"), key: "actions", render: (_: unknown, r: Withdrawal) => actions(r) }]
      : []),
  ];
  return (
    <ListPage<Withdrawal>
      header={header}
      rowKey="id"
      columns={columns}
      search={{
        select: {
          keys: [
            {
              value: "state",
              label: t("withdraw.col.state"),
              options: WITHDRAWAL_STATES.map((s) => ({ value: s, label: t(`withdraw.state.${s}`) })),
            },
          ],
        },
        ...(scope === "ops" && {
          input: { keys: [{ value: "merchantId", label: t("funds.col.merchantId"), numeric: true }] },
        }),
      }}
      query={(state) =>
        withdrawalsQuery(
          {
            page: state.page,
            pageSize: state.pageSize,
            state: typeof state.values.selVal === "string" ? state.values.selVal : undefined,
            merchantId: state.values.inpVal,
          },
          scope,
        )
      }
    />
  );
}
