import { Space, Tag, Tooltip, type TableColumnsType } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { TOP_UP_STATES, type TopUpNotice, type TopUpState } from "@tessera/contracts";
import { topUpsQuery } from "./api";
import { AuthImage } from "../onboarding/AuthImage";
import { ListPage } from "../../ui/list/ListPage";
import { formatMoney } from "../../ui/money";
import { formatTime } from "../../ui/time";

const STATE_COLOR: Record<TopUpState, string> = { pending: "processing", confirmed: "success", rejected: "error" };

export function TopUpStateTag({ state }: { state: TopUpState }) {
  const { t } = useTranslation();
  return <Tag color={STATE_COLOR[state]}>{t(`funds.state.${state}`)}</Tag>;
}

/** The transfer proof as a small image that opens a preview (fetched with the session token). */
export function ProofLink({ url }: { url: string | null }) {
  const { t } = useTranslation();
  return url ? <AuthImage path={url} alt={t("funds.proof")} width={48} height={36} /> : <>-</>;
}

/**
 * Top-up notices as a list: the purchaser's own ("mine") or every merchant's for operators ("ops"),
 * with a state filter. `actions` adds the operator's review buttons.
 */
export function TopUpNotices({
  scope,
  header,
  actions,
}: {
  scope: "mine" | "ops";
  header?: ReactNode;
  actions?: (row: TopUpNotice) => ReactNode;
}) {
  const { t } = useTranslation();
  const columns: TableColumnsType<TopUpNotice> = [
    {
      title: t("funds.col.filedAt"),
      dataIndex: "createdAt",
      width: 132,
      render: (v: string) => formatTime(v),
    },
    ...(scope === "ops"
      ? [
          {
            title: t("funds.col.merchant"),
            key: "merchant",
            width: 150,
            render: (_: unknown, r: TopUpNotice) => `${r.merchantName} (${r.merchantId})`,
          },
        ]
      : []),
    {
      title: t("funds.amount"),
      dataIndex: "amount",
      align: "right",
      render: (v: TopUpNotice["amount"]) => formatMoney(v),
    },
    {
      title: t("funds.col.fee"),
      dataIndex: "fee",
      align: "right",
      render: (v: TopUpNotice["fee"], r) => (r.state === "confirmed" ? formatMoney(v) : "-"),
    },
    {
      title: t("funds.payerName"),
      dataIndex: "payerName",
      width: 90,
      render: (v: string, r) => <Tooltip title={`${t(`funds.payer.${r.payerType}`)} · ${r.idNumber}`}>{v}</Tooltip>,
    },
    { title: t("funds.otherAccount"), dataIndex: "otherAccount", width: 120 },
    { title: t("funds.transferRef"), dataIndex: "transferRef", width: 110 },
    { title: t("funds.proof"), dataIndex: "proofUrl", render: (v: string | null) => <ProofLink url={v} /> },
    {
      title: t("funds.col.state"),
      dataIndex: "state",
      // Beside the actions, both always in sight when the operator's wide table scrolls sideways.
      ...(actions && { fixed: "right" as const }),
      render: (v: TopUpState, r) => (
        <Space size={4}>
          <TopUpStateTag state={v} />
          {r.rejectReason && <Tooltip title={r.rejectReason}>{t("funds.why")}</Tooltip>}
        </Space>
      ),
    },
    ...(actions
      ? [{ title: t("funds.col.actions"), key: "actions", render: (_: unknown, r: TopUpNotice) => actions(r) }]
      : []),
  ];
  return (
    <ListPage<TopUpNotice>
      header={header}
      rowKey="id"
      columns={columns}
      search={{
        select: {
          keys: [
            {
              value: "state",
              label: t("funds.col.state"),
              options: TOP_UP_STATES.map((s) => ({ value: s, label: t(`funds.state.${s}`) })),
            },
          ],
        },
        ...(scope === "ops" && {
          input: { keys: [{ value: "merchantId", label: t("funds.col.merchantId"), numeric: true }] },
        }),
      }}
      query={(state) =>
        topUpsQuery(
          {
            page: state.page,
            pageSize: state.pageSize,
            state: typeof state.values.selVal === "string" ? (state.values.selVal as TopUpState) : undefined,
            merchantId: state.values.inpVal,
          },
          scope,
        )
      }
    />
  );
}
