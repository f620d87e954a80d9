import { useQueryClient } from "@tanstack/react-query";
import { App, Button, Form, Input, Modal, Space, type TableColumnsType } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { Invoice } from "@tessera/contracts";
import { ListPage } from "../../ui/list/ListPage";
import { formatMoney } from "../../ui/money";
import { PageHint } from "../../ui/PageHint";
import { downloadInvoicePdf, invoiceApi, invoiceKeys, type InvoiceListQuery } from "./api";
import { useInvoiceColumns } from "./columns";
import { invoiceFilters, useInvoiceSearch } from "./search";
import { OpsOnly } from "../accounts/OpsOnly";

type Action = "refuse" | "reverse";

function ReasonDialog({ inv, action, onClose }: { inv: Invoice; action: Action; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [form] = Form.useForm<{ reason: string }>();
  const [saving, setSaving] = useState(false);
  const submit = async ({ reason }: { reason: string }) => {
    setSaving(true);
    try {
      const result = await (action === "refuse"
        ? invoiceApi.refuse(inv.id, reason.trim())
        : invoiceApi.reverse(inv.id, reason.trim()));
      if (!result) return;
      if (!result.ok) {
        form.setFields([{ name: "reason", errors: [result.msg] }]);
        return;
      }
      void message.success(t("invoices.done"));
      void qc.invalidateQueries({ queryKey: invoiceKeys.all });
      onClose();
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open
      title={`${t(`invoices.ops.${action}`)} · ${inv.title.name} · ${formatMoney(inv.amount)}`}
      onOk={() => form.submit()}
      confirmLoading={saving}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" onFinish={(v) => void submit(v)} requiredMark={false}>
        <Form.Item
          name="reason"
          label={t("invoices.ops.reason")}
          rules={[{ required: true, whitespace: true, message: t("invoices.ops.reason") }]}
        >
          <Input.TextArea rows={3} maxLength={200} showCount data-testid="invoice-reason" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/**
 * `/ops/Invoices`: every merchant's invoice requests. The operator issues one (the e-invoice adapter
 * numbers it and makes the PDF, the mail goes out), refuses it with a reason, or reverses an issued
 * one with a red-letter invoice (its amount becomes invoiceable again).
 */
export default function Invoices() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const qc = useQueryClient();
  const search = useInvoiceSearch();
  const [asking, setAsking] = useState<{ inv: Invoice; action: Action } | null>(null);

  const issue = (inv: Invoice) =>
    modal.confirm({
      title: `${t("invoices.ops.issue")} · ${formatMoney(inv.amount)}`,
      content: `${inv.merchantName} (${inv.merchantId}) → ${inv.title.name} ${inv.title.taxId} · ${inv.email}`,
      onOk: async () => {
        const result = await invoiceApi.issue(inv.id);
        if (result?.ok) {
          void message.success(t("invoices.ops.issued", { no: result.data.invoiceNo ?? "" }));
          void qc.invalidateQueries({ queryKey: invoiceKeys.all });
        }
      },
    });

  const columns: TableColumnsType<Invoice> = [
    ...useInvoiceColumns("ops"),
    {
      title: t("invoices.col.action"),
      key: "action",
      width: 220,
      fixed: "right",
      render: (_: unknown, r) => (
        <Space size={0} wrap>
          {r.state === "requested" && (
            <>
              <Button type="link" size="small" onClick={() => void issue(r)} data-testid={`issue-${r.id}`}>
                {t("invoices.ops.issue")}
              </Button>
              <Button
                type="link"
                size="small"
                danger
                onClick={() => setAsking({ inv: r, action: "refuse" })}
                data-testid={`refuse-${r.id}`}
              >
                {t("invoices.ops.refuse")}
              </Button>
            </>
          )}
          {(r.state === "issued" || r.state === "delivered") && (
            <Button
              type="link"
              size="small"
              danger
              onClick={() => setAsking({ inv: r, action: "reverse" })}
              data-testid={`reverse-${r.id}`}
            >
              {t("invoices.ops.reverse")}
            </Button>
          )}
          {r.invoiceNo && (
            <Button type="link" size="small" onClick={() => void downloadInvoicePdf(r, false, "ops")}>
              {t("invoices.pdf")}
            </Button>
          )}
          {r.redInvoiceNo && (
            <Button type="link" size="small" onClick={() => void downloadInvoicePdf(r, true, "ops")}>
              {t("invoices.redPdf")}
            </Button>
          )}
        </Space>
      ),
    },
  ];
  return (
    <OpsOnly>
      <ListPage<Invoice>
        header={
          <PageHint
            id="ops.Invoices"
            title={t("invoices.hint.opsTitle")}
            description={t("invoices.hint.ops")}
            type="warning"
          />
        }
        rowKey="id"
        columns={columns}
        scrollX={1900}
        search={{
          ...search,
          input: { keys: [{ value: "merchantId", label: t("invoices.col.merchantId"), numeric: true }] },
        }}
        query={(state) => {
          const q: InvoiceListQuery = {
            page: state.page,
            pageSize: state.pageSize,
            ...invoiceFilters(state.values),
            merchantId: state.values.inpVal,
          };
          return { queryKey: invoiceKeys.ops(q), queryFn: () => invoiceApi.opsList(q) };
        }}
      />
      {asking && <ReasonDialog inv={asking.inv} action={asking.action} onClose={() => setAsking(null)} />}
    </OpsOnly>
  );
}
