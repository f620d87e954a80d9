import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Flex, App, Button, Card, Descriptions, Drawer, Space, Table, Tag, Tooltip, type TableColumnsType } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { CommissionRule, CommissionStatement, StatementMerchantRow, StatementState } from "@tessera/contracts";
import { queryKeys } from "../../api/queryKeys";
import { ListPage } from "../../ui/list/ListPage";
import { formatMoney } from "../../ui/money";
import { PageHint } from "../../ui/PageHint";
import { platformToday } from "../../ui/platformDay";
import { percent, useDictLabels } from "../catalog/labels";
import { commissionApi, commissionKeys, downloadStatement, downloadStatementPdf, type StatementListQuery } from "./api";

const STATE_COLOURS: Record<StatementState, string> = { draft: "processing", paid: "success", carried: "default" };
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
/** Still in the refund window's hold: before its payable day (UTC+8). */
const onHold = (s: CommissionStatement) => platformToday().format("YYYY-MM-DD") < s.payableFrom;

/** The provider's own commission rules (set by the operator): scope, rate and validity. */
function MyRules() {
  const { t } = useTranslation();
  const labels = useDictLabels();
  const { data, isFetching } = useQuery({ queryKey: commissionKeys.myRules, queryFn: () => commissionApi.myRules() });
  const columns: TableColumnsType<CommissionRule> = [
    {
      title: t("commission.ops.businessType"),
      dataIndex: "businessType",
      render: (v: CommissionRule["businessType"]) => (v ? labels.businessType(v) : t("commission.ops.any")),
    },
    {
      title: t("commission.ops.brandId"),
      dataIndex: "brandId",
      render: (v: string | null) => v ?? t("commission.ops.any"),
    },
    { title: t("commission.ops.rate"), dataIndex: "rateBp", align: "right", render: (v: number) => percent(v) },
    {
      title: t("commission.ops.validity"),
      key: "validity",
      render: (_: unknown, r) => `${r.validFrom} ~ ${r.validTo ?? t("commission.ops.open")}`,
    },
  ];
  return (
    <Card size="small" variant="borderless" title={t("commission.myRules")} data-testid="my-commission-rules">
      <Table<CommissionRule>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={data ?? []}
        loading={isFetching}
        pagination={false}
        locale={{ emptyText: t("commission.rulesEmpty") }}
      />
    </Card>
  );
}

function StatementDrawer({ statement, onClose }: { statement: CommissionStatement; onClose: () => void }) {
  const { t } = useTranslation();
  const { data, isFetching } = useQuery({
    queryKey: commissionKeys.statement(statement.id),
    queryFn: () => commissionApi.statement(statement.id),
  });
  const columns: TableColumnsType<StatementMerchantRow> = [
    {
      title: t("commission.col.merchant"),
      key: "merchant",
      render: (_: unknown, r) => `${r.merchantName} (${r.merchantId})`,
    },
    {
      title: t("commission.col.side"),
      dataIndex: "side",
      width: 110,
      render: (v: "brand" | "vendor") => t(`commission.side.${v}`),
    },
    { title: t("commission.col.orders"), dataIndex: "orders", width: 90, align: "right" },
    {
      title: t("commission.col.basis"),
      dataIndex: "basis",
      width: 130,
      align: "right",
      render: (m: StatementMerchantRow["basis"]) => formatMoney(m),
    },
    {
      title: t("commission.col.accrued"),
      dataIndex: "accrued",
      width: 120,
      align: "right",
      render: (m: StatementMerchantRow["accrued"]) => formatMoney(m),
    },
    {
      title: t("commission.col.clawedBack"),
      dataIndex: "clawedBack",
      width: 120,
      align: "right",
      render: (m: StatementMerchantRow["clawedBack"]) => formatMoney(m),
    },
    {
      title: t("commission.col.net"),
      dataIndex: "net",
      width: 120,
      align: "right",
      render: (m: StatementMerchantRow["net"]) => <strong>{formatMoney(m)}</strong>,
    },
  ];
  return (
    <Drawer
      open
      width={960}
      title={t("commission.statementOf", { period: statement.period })}
      onClose={onClose}
      extra={
        <Space>
          <Button onClick={() => void downloadStatement(statement)} data-testid="drawer-xlsx">
            {t("commission.download")}
          </Button>
          <Button type="primary" onClick={() => void downloadStatementPdf(statement)} data-testid="drawer-pdf">
            {t("commission.pdf")}
          </Button>
        </Space>
      }
    >
      <Descriptions size="small" column={3} bordered style={{ marginBottom: 16 }}>
        <Descriptions.Item label={t("commission.col.opening")}>{formatMoney(statement.opening)}</Descriptions.Item>
        <Descriptions.Item label={t("commission.col.accrued")}>{formatMoney(statement.accrued)}</Descriptions.Item>
        <Descriptions.Item label={t("commission.col.clawedBack")}>
          {formatMoney(statement.clawedBack)}
        </Descriptions.Item>
        <Descriptions.Item label={t("commission.col.closing")}>{formatMoney(statement.closing)}</Descriptions.Item>
        <Descriptions.Item label={t("commission.col.state")}>
          {t(`commission.state.${statement.state}`)}
        </Descriptions.Item>
        <Descriptions.Item label={t("commission.col.lines")}>{statement.lines}</Descriptions.Item>
        <Descriptions.Item label={t("commission.col.payableFrom")}>{statement.payableFrom}</Descriptions.Item>
      </Descriptions>
      <Table<StatementMerchantRow>
        rowKey={(r) => `${r.merchantId}-${r.side}`}
        size="small"
        columns={columns}
        dataSource={data?.merchants ?? []}
        loading={isFetching}
        pagination={false}
      />
    </Drawer>
  );
}

/**
 * `/providers/MonthlyCommission`: the provider's monthly statements (opening carried from a negative
 * month, accruals on the served merchants' orders, clawbacks of their refunds, closing), each per
 * served merchant, downloadable as .xlsx and as a printable PDF; the provider's own rules above the
 * list. A draft is held for refunds until its payable day; confirming it then pays its closing amount
 * into the provider's income account (its home balance, fund changes and withdrawals).
 */
export default function MonthlyCommission() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const qc = useQueryClient();
  const [open, setOpen] = useState<CommissionStatement | null>(null);

  const confirm = (s: CommissionStatement) =>
    modal.confirm({
      title: t("commission.confirmTitle", { period: s.period }),
      content: t("commission.confirmBody", { amount: formatMoney(s.closing) }),
      onOk: async () => {
        const result = await commissionApi.confirm(s.id);
        if (result?.ok) {
          void message.success(t("commission.confirmed"));
          void qc.invalidateQueries({ queryKey: commissionKeys.all });
          void qc.invalidateQueries({ queryKey: queryKeys.userInfoAll });
        }
      },
    });

  const columns: TableColumnsType<CommissionStatement> = [
    { title: t("commission.col.period"), dataIndex: "period", width: 90 },
    {
      title: t("commission.col.opening"),
      dataIndex: "opening",
      width: 100,
      align: "right",
      render: (m: CommissionStatement["opening"]) => formatMoney(m),
    },
    {
      title: t("commission.col.accrued"),
      dataIndex: "accrued",
      width: 100,
      align: "right",
      render: (m: CommissionStatement["accrued"]) => formatMoney(m),
    },
    {
      title: t("commission.col.clawedBack"),
      dataIndex: "clawedBack",
      width: 100,
      align: "right",
      render: (m: CommissionStatement["clawedBack"]) => formatMoney(m),
    },
    {
      title: t("commission.col.closing"),
      dataIndex: "closing",
      width: 105,
      align: "right",
      render: (m: CommissionStatement["closing"]) => <strong>{formatMoney(m)}</strong>,
    },
    {
      title: t("commission.col.state"),
      dataIndex: "state",
      width: 90,
      render: (s: StatementState) => <Tag color={STATE_COLOURS[s]}>{t(`commission.state.${s}`)}</Tag>,
    },
    {
      title: t("commission.col.payableFrom"),
      dataIndex: "payableFrom",
      width: 150,
      // A draft still in its refund window says so here; the action column offers confirming once it ends.
      render: (date: string, r) =>
        r.state === "draft" && onHold(r) ? (
          <Tooltip title={t("commission.onHoldTip", { date })}>
            <Tag color="warning" data-testid={`statement-hold-${r.period}`}>
              {t("commission.onHold", { date })}
            </Tag>
          </Tooltip>
        ) : (
          date
        ),
    },
    {
      title: t("commission.col.action"),
      key: "action",
      width: 220,
      render: (_: unknown, r) => (
        <Space size={0} wrap>
          <Button type="link" size="small" onClick={() => setOpen(r)} data-testid={`statement-${r.period}`}>
            {t("commission.detail")}
          </Button>
          <Button
            type="link"
            size="small"
            onClick={() => void downloadStatement(r)}
            data-testid={`statement-xlsx-${r.period}`}
          >
            {t("commission.download")}
          </Button>
          <Button
            type="link"
            size="small"
            onClick={() => void downloadStatementPdf(r)}
            data-testid={`statement-pdf-${r.period}`}
          >
            {t("commission.pdf")}
          </Button>
          {r.state === "draft" && !onHold(r) && (
            <Button
              type="link"
              size="small"
              onClick={() => void confirm(r)}
              data-testid={`statement-confirm-${r.period}`}
            >
              {t("commission.confirm")}
            </Button>
          )}
        </Space>
      ),
    },
  ];
  return (
    <>
      <ListPage<CommissionStatement>
        header={
          <Flex vertical gap={12}>
            <PageHint
              id="providers.MonthlyCommission"
              title={t("commission.hint.title")}
              description={t("commission.hint.body")}
            />
            <MyRules />
          </Flex>
        }
        rowKey="id"
        columns={columns}
        scrollX={960}
        search={{ dateMode: "monthRange" }}
        query={(state) => {
          const month = state.values.month;
          const q: StatementListQuery = {
            page: state.page,
            pageSize: state.pageSize,
            from: Array.isArray(month) ? month[0] : one(month),
            to: Array.isArray(month) ? month[1] : one(month),
          };
          return { queryKey: commissionKeys.statements(q), queryFn: () => commissionApi.statements(q) };
        }}
      />
      {open && <StatementDrawer statement={open} onClose={() => setOpen(null)} />}
    </>
  );
}
