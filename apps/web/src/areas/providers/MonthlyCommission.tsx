import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Flex, App, Button, Descriptions, Drawer, Space, Table, Tag, type TableColumnsType } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { CommissionStatement, StatementMerchantRow, StatementState } from "@tessera/contracts";
import { ListPage } from "../../components/list/ListPage";
import { formatMoney } from "../../components/money";
import { PageHint } from "../../components/PageHint";
import { commissionApi, commissionKeys, downloadStatement, type StatementListQuery } from "./commission/api";
import { ExportButton } from "../../components/list/useExport";

const STATE_COLOURS: Record<StatementState, string> = { draft: "processing", paid: "success", carried: "default" };
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

function StatementDrawer({ statement, onClose }: { statement: CommissionStatement; onClose: () => void }) {
  const { t } = useTranslation();
  const { data, isFetching } = useQuery({ queryKey: commissionKeys.statement(statement.id), queryFn: () => commissionApi.statement(statement.id) });
  const columns: TableColumnsType<StatementMerchantRow> = [
    { title: t("commission.col.merchant"), key: "merchant", render: (_: unknown, r) => `${r.merchantName} (${r.merchantId})` },
    { title: t("commission.col.side"), dataIndex: "side", width: 110, render: (v: "brand" | "vendor") => t(`commission.side.${v}`) },
    { title: t("commission.col.orders"), dataIndex: "orders", width: 90, align: "right" },
    { title: t("commission.col.basis"), dataIndex: "basis", width: 130, align: "right", render: (m: StatementMerchantRow["basis"]) => formatMoney(m) },
    { title: t("commission.col.accrued"), dataIndex: "accrued", width: 120, align: "right", render: (m: StatementMerchantRow["accrued"]) => formatMoney(m) },
    { title: t("commission.col.clawedBack"), dataIndex: "clawedBack", width: 120, align: "right", render: (m: StatementMerchantRow["clawedBack"]) => formatMoney(m) },
    { title: t("commission.col.net"), dataIndex: "net", width: 120, align: "right", render: (m: StatementMerchantRow["net"]) => <strong>{formatMoney(m)}</strong> },
  ];
  return (
    <Drawer open width={960} title={t("commission.statementOf", { period: statement.period })} onClose={onClose} extra={<Button onClick={() => window.print()}>{t("commission.print")}</Button>}>
      <Descriptions size="small" column={3} bordered style={{ marginBottom: 16 }}>
        <Descriptions.Item label={t("commission.col.opening")}>{formatMoney(statement.opening)}</Descriptions.Item>
        <Descriptions.Item label={t("commission.col.accrued")}>{formatMoney(statement.accrued)}</Descriptions.Item>
        <Descriptions.Item label={t("commission.col.clawedBack")}>{formatMoney(statement.clawedBack)}</Descriptions.Item>
        <Descriptions.Item label={t("commission.col.closing")}>{formatMoney(statement.closing)}</Descriptions.Item>
        <Descriptions.Item label={t("commission.col.state")}>{t(`commission.state.${statement.state}`)}</Descriptions.Item>
        <Descriptions.Item label={t("commission.col.lines")}>{statement.lines}</Descriptions.Item>
      </Descriptions>
      <Flex justify="end" style={{ marginBottom: 12 }}>
        <ExportButton<StatementMerchantRow> columns={columns} rows={data?.merchants ?? []} name={document.title.split(" - ")[0] ?? ""} />
      </Flex>
      <Table<StatementMerchantRow> rowKey={(r) => `${r.merchantId}-${r.side}`} size="small" columns={columns} dataSource={data?.merchants ?? []} loading={isFetching} pagination={false} />
    </Drawer>
  );
}

/**
 * `/providers/MonthlyCommission`: the provider's monthly statements (opening carried from a negative
 * month, accruals on the served merchants' orders, clawbacks of their refunds, closing), each per
 * served merchant, downloadable as .xlsx and printable; confirming a draft pays its closing amount
 * into the commission account.
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
          void qc.invalidateQueries({ queryKey: ["userInfo"] });
        }
      },
    });

  const columns: TableColumnsType<CommissionStatement> = [
    { title: t("commission.col.period"), dataIndex: "period", width: 100 },
    { title: t("commission.col.opening"), dataIndex: "opening", align: "right", render: (m: CommissionStatement["opening"]) => formatMoney(m) },
    { title: t("commission.col.accrued"), dataIndex: "accrued", align: "right", render: (m: CommissionStatement["accrued"]) => formatMoney(m) },
    { title: t("commission.col.clawedBack"), dataIndex: "clawedBack", align: "right", render: (m: CommissionStatement["clawedBack"]) => formatMoney(m) },
    { title: t("commission.col.closing"), dataIndex: "closing", align: "right", render: (m: CommissionStatement["closing"]) => <strong>{formatMoney(m)}</strong> },
    { title: t("commission.col.lines"), dataIndex: "lines", width: 80, align: "right" },
    { title: t("commission.col.state"), dataIndex: "state", width: 100, render: (s: StatementState) => <Tag color={STATE_COLOURS[s]}>{t(`commission.state.${s}`)}</Tag> },
    {
      title: t("commission.col.action"),
      key: "action",
      width: 240,
      render: (_: unknown, r) => (
        <Space size={0} wrap>
          <Button type="link" size="small" onClick={() => setOpen(r)} data-testid={`statement-${r.period}`}>
            {t("commission.detail")}
          </Button>
          <Button type="link" size="small" onClick={() => void downloadStatement(r)} data-testid={`statement-xlsx-${r.period}`}>
            {t("commission.download")}
          </Button>
          {r.state === "draft" && (
            <Button type="link" size="small" onClick={() => void confirm(r)} data-testid={`statement-confirm-${r.period}`}>
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
        header={<PageHint id="providers.MonthlyCommission" title={t("commission.hint.title")} description={t("commission.hint.body")} />}
        rowKey="id"
        columns={columns}
        scrollX={1100}
        search={{ dateMode: "monthRange" }}
        query={(state) => {
          const month = state.values.month;
          const q: StatementListQuery = { page: state.page, pageSize: state.pageSize, from: Array.isArray(month) ? month[0] : one(month), to: Array.isArray(month) ? month[1] : one(month) };
          return { queryKey: commissionKeys.statements(q), queryFn: () => commissionApi.statements(q) };
        }}
      />
      {open && <StatementDrawer statement={open} onClose={() => setOpen(null)} />}
    </>
  );
}
