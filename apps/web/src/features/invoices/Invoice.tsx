import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Card, Flex, Table, Tag, type TableColumnsType } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import type { InvoiceableRow } from "@tessera/contracts";
import { formatMoney } from "../../ui/money";
import { PageHint } from "../../ui/PageHint";
import { percent, useDictLabels } from "../catalog/labels";
import { invoiceApi, invoiceKeys } from "./api";
import { RequestDialog } from "./RequestDialog";
import { ExportButton } from "../../ui/list/useExport";

/**
 * `/sale/Invoice`: what the purchaser may invoice, per invoice type of §9 (what it spent on goods of
 * that type, less refunds, less what it has requested or been issued), and the request dialog.
 */
export default function Invoice() {
  const { t } = useTranslation();
  const labels = useDictLabels();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const { data, isFetching } = useQuery({ queryKey: invoiceKeys.invoiceable, queryFn: invoiceApi.invoiceable });
  const [asking, setAsking] = useState<InvoiceableRow | null>(null);

  const columns: TableColumnsType<InvoiceableRow> = [
    {
      title: t("invoices.col.type"),
      dataIndex: "invoiceType",
      render: (v: InvoiceableRow["invoiceType"], r) => (
        <Flex gap={8} align="center">
          {labels.invoiceType(v)}
          <Tag color={r.category === "special" ? "gold" : "default"}>{t(`invoices.category.${r.category}`)}</Tag>
        </Flex>
      ),
    },
    {
      title: t("invoices.col.rate"),
      dataIndex: "rateBp",
      width: 90,
      align: "right",
      render: (v: number | null) => (v === null ? "-" : percent(v)),
    },
    {
      title: t("invoices.col.spent"),
      dataIndex: "spent",
      align: "right",
      render: (m: InvoiceableRow["spent"]) => formatMoney(m),
    },
    {
      title: t("invoices.col.pending"),
      dataIndex: "pending",
      align: "right",
      render: (m: InvoiceableRow["pending"]) => formatMoney(m),
    },
    {
      title: t("invoices.col.invoiced"),
      dataIndex: "invoiced",
      align: "right",
      render: (m: InvoiceableRow["invoiced"]) => formatMoney(m),
    },
    {
      title: t("invoices.col.invoiceable"),
      dataIndex: "invoiceable",
      align: "right",
      render: (m: InvoiceableRow["invoiceable"]) => <strong>{formatMoney(m)}</strong>,
    },
    {
      title: t("invoices.col.action"),
      key: "action",
      width: 130,
      render: (_: unknown, r) =>
        r.available ? (
          <Button
            type="link"
            size="small"
            disabled={r.invoiceable.amount <= 0}
            onClick={() => setAsking(r)}
            data-testid={`request-${r.invoiceType}`}
          >
            {t("invoices.request")}
          </Button>
        ) : (
          <Tag>{t("invoices.unavailable")}</Tag>
        ),
    },
  ];
  return (
    <Flex vertical gap={16}>
      <PageHint id="sale.Invoice" title={t("invoices.hint.invoiceTitle")} description={t("invoices.hint.invoice")} />
      <Card
        variant="borderless"
        extra={
          <Flex gap={8}>
            <Button onClick={() => void navigate("/sale/TicketSignature")}>{t("invoices.menu.titles")}</Button>
            <Button onClick={() => void navigate("/sale/InvoiceRecord")}>{t("invoices.menu.record")}</Button>
          </Flex>
        }
        title={t("invoices.invoiceableTitle")}
      >
        <Flex justify="end" style={{ marginBottom: 12 }}>
          <ExportButton<InvoiceableRow>
            columns={columns}
            rows={data ?? []}
            name={document.title.split(" - ")[0] ?? ""}
          />
        </Flex>
        <Table<InvoiceableRow>
          rowKey="invoiceType"
          columns={columns}
          dataSource={data ?? []}
          loading={isFetching}
          pagination={false}
          scroll={{ x: 900 }}
        />
      </Card>
      {asking && (
        <RequestDialog
          row={asking}
          onClose={() => setAsking(null)}
          onDone={() => {
            setAsking(null);
            void qc.invalidateQueries({ queryKey: invoiceKeys.all });
          }}
        />
      )}
    </Flex>
  );
}
