import { Tag, type TableColumnsType } from "antd";
import { useTranslation } from "react-i18next";
import type { Invoice, InvoiceState } from "@tessera/contracts";
import { formatMoney } from "../../ui/money";
import { percent, useDictLabels } from "../catalog/labels";
import { formatTime } from "../../ui/time";

const STATE_COLOURS: Record<InvoiceState, string> = {
  requested: "processing",
  issued: "blue",
  delivered: "success",
  refused: "error",
  reversed: "volcano",
};

export function InvoiceStateTag({ state }: { state: InvoiceState }) {
  const { t } = useTranslation();
  return <Tag color={STATE_COLOURS[state]}>{t(`invoices.state.${state}`)}</Tag>;
}

const time = (v: string | null) => (v ? formatTime(v, { seconds: true }) : "-");

/** The columns of an invoice list, for the merchant's record and the operator's console. */
export function useInvoiceColumns(scope: "user" | "ops"): TableColumnsType<Invoice> {
  const { t } = useTranslation();
  const labels = useDictLabels();
  const columns: TableColumnsType<Invoice> = [
    { title: t("invoices.col.id"), dataIndex: "id", width: 80 },
    { title: t("invoices.col.createdAt"), dataIndex: "createdAt", width: 170, render: time },
    {
      title: t("invoices.col.type"),
      dataIndex: "invoiceType",
      width: 170,
      render: (v: Invoice["invoiceType"], r) => `${labels.invoiceType(v)} (${percent(r.rateBp)})`,
    },
    {
      title: t("invoices.col.amount"),
      dataIndex: "amount",
      width: 130,
      align: "right",
      render: (m: Invoice["amount"]) => formatMoney(m),
    },
    {
      title: t("invoices.col.tax"),
      dataIndex: "taxAmount",
      width: 110,
      align: "right",
      render: (m: Invoice["taxAmount"]) => formatMoney(m),
    },
    {
      title: t("invoices.col.title"),
      key: "title",
      width: 240,
      ellipsis: true,
      render: (_: unknown, r) => `${r.title.name}${r.title.taxId ? ` · ${r.title.taxId}` : ""}`,
    },
    {
      title: t("invoices.col.state"),
      dataIndex: "state",
      width: 100,
      render: (s: InvoiceState) => <InvoiceStateTag state={s} />,
    },
    {
      title: t("invoices.col.invoiceNo"),
      dataIndex: "invoiceNo",
      width: 190,
      render: (v: string | null, r) =>
        r.redInvoiceNo ? `${v ?? ""} / ${t("invoices.red")} ${r.redInvoiceNo}` : (v ?? "-"),
    },
    {
      title: t("invoices.col.note"),
      key: "note",
      width: 180,
      ellipsis: true,
      render: (_: unknown, r) => r.refuseReason ?? r.reverseReason ?? (r.remark || "-"),
    },
  ];
  if (scope === "ops") {
    columns.splice(1, 0, {
      title: t("invoices.col.merchant"),
      key: "merchant",
      width: 200,
      ellipsis: true,
      render: (_: unknown, r) => `${r.merchantName} (${r.merchantId})`,
    });
  }
  return columns;
}
