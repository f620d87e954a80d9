import { Alert, App, Col, Form, Input, Modal, Row, Select } from "antd";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { InvoiceableRow } from "@tessera/contracts";
import { useMessageText } from "../../ui/form/useZodRules";
import { formatMoney, parseMoney } from "../../ui/money";
import { percent, useDictLabels } from "../catalog/labels";
import { invoiceApi, invoiceKeys, newInvoiceKey } from "./api";

interface FormValues {
  titleId?: string;
  name: string;
  taxId: string;
  address: string;
  phone: string;
  bank: string;
  bankAccount: string;
  amount: string;
  email: string;
  remark: string;
}
const FIELDS = ["name", "taxId", "address", "phone", "bank", "bankAccount", "amount", "email", "remark"] as const;
type Field = (typeof FIELDS)[number];
const isField = (f: string): f is Field => (FIELDS as readonly string[]).includes(f);

/**
 * Requests an invoice of one type against what is invoiceable: a saved title fills the buyer (a VAT
 * special invoice needs tax id, address and phone, bank and account), the amount is typed in yuan
 * (at most the invoiceable amount), and the invoice goes to an email address.
 */
export function RequestDialog({
  row,
  onClose,
  onDone,
}: {
  row: InvoiceableRow;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const text = useMessageText();
  const labels = useDictLabels();
  const [form] = Form.useForm<FormValues>();
  const [saving, setSaving] = useState(false);
  const [requestKey] = useState(newInvoiceKey);
  const titles = useQuery({ queryKey: invoiceKeys.titles, queryFn: invoiceApi.titles });
  const settings = useQuery({ queryKey: invoiceKeys.settings, queryFn: invoiceApi.settings });
  const special = row.category === "special";
  const max = row.invoiceable.amount;

  const pickTitle = (id: string) => {
    const title = titles.data?.find((x) => x.id === id);
    if (title) {
      form.setFieldsValue({
        name: title.name,
        taxId: title.taxId,
        address: title.address,
        phone: title.phone,
        bank: title.bank,
        bankAccount: title.bankAccount,
      });
    }
  };

  const submit = async (v: FormValues) => {
    const amount = parseMoney(v.amount, row.invoiceable.currency);
    if (amount === null || amount <= 0) {
      form.setFields([{ name: "amount", errors: [t("invoices.amountInvalid")] }]);
      return;
    }
    setSaving(true);
    try {
      const result = await invoiceApi.request({
        invoiceType: row.invoiceType,
        amount,
        title: {
          name: v.name,
          taxId: v.taxId,
          address: v.address,
          phone: v.phone,
          bank: v.bank,
          bankAccount: v.bankAccount,
        },
        email: (v.email ?? "").trim(),
        remark: v.remark,
        requestKey,
      });
      if (!result) return;
      if (!result.ok) {
        const field = (result.data?.field ?? "").replace(/^title\./, "");
        if (isField(field)) form.setFields([{ name: field, errors: [result.msg] }]);
        else void message.error(result.msg);
        return;
      }
      void message.success(t("invoices.requested"));
      onDone();
    } finally {
      setSaving(false);
    }
  };

  const defaultTitle = titles.data?.find((x) => x.isDefault);
  return (
    <Modal
      open
      width={720}
      title={`${t("invoices.request")} · ${labels.invoiceType(row.invoiceType)}`}
      okText={t("invoices.submit")}
      onOk={() => form.submit()}
      confirmLoading={saving}
      onCancel={onClose}
      destroyOnHidden
      maskClosable={false}
    >
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 16 }}
        message={t("invoices.availableLine", {
          amount: formatMoney(row.invoiceable),
          rate: row.rateBp === null ? "-" : percent(row.rateBp),
        })}
        description={special ? t("invoices.specialNeeds") : undefined}
      />
      {titles.isSuccess && settings.isSuccess && (
        <Form<FormValues>
          form={form}
          layout="vertical"
          onFinish={(v) => void submit(v)}
          initialValues={{
            titleId: defaultTitle?.id,
            name: defaultTitle?.name ?? "",
            taxId: defaultTitle?.taxId ?? "",
            address: defaultTitle?.address ?? "",
            phone: defaultTitle?.phone ?? "",
            bank: defaultTitle?.bank ?? "",
            bankAccount: defaultTitle?.bankAccount ?? "",
            amount: `${Math.floor(Math.max(0, max) / 100)}.${String(Math.max(0, max) % 100).padStart(2, "0")}`,
            email: settings.data.deliveryEmail,
            remark: "",
          }}
        >
          {titles.data.length > 0 && (
            <Form.Item name="titleId" label={t("invoices.savedTitle")}>
              <Select
                options={titles.data.map((x) => ({ value: x.id, label: `${x.name}${x.taxId ? ` · ${x.taxId}` : ""}` }))}
                onChange={pickTitle}
                data-testid="invoice-title-select"
              />
            </Form.Item>
          )}
          <Row gutter={12}>
            <Col span={12}>
              <Form.Item
                name="name"
                label={t("invoices.field.name")}
                rules={[{ required: true, whitespace: true, message: text("invoice.titleNameEmpty") }]}
              >
                <Input maxLength={100} data-testid="invoice-name" />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item
                name="taxId"
                label={t("invoices.field.taxId")}
                rules={special ? [{ required: true, whitespace: true, message: text("invoice.taxIdRequired") }] : []}
              >
                <Input maxLength={18} data-testid="invoice-taxId" />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item
                name="address"
                label={t("invoices.field.address")}
                rules={special ? [{ required: true, whitespace: true, message: text("invoice.addressRequired") }] : []}
              >
                <Input maxLength={120} data-testid="invoice-address" />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item
                name="phone"
                label={t("invoices.field.phone")}
                rules={special ? [{ required: true, whitespace: true, message: text("invoice.addressRequired") }] : []}
              >
                <Input maxLength={20} data-testid="invoice-phone" />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item
                name="bank"
                label={t("invoices.field.bank")}
                rules={special ? [{ required: true, whitespace: true, message: text("invoice.bankRequired") }] : []}
              >
                <Input maxLength={100} data-testid="invoice-bank" />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item
                name="bankAccount"
                label={t("invoices.field.bankAccount")}
                rules={special ? [{ required: true, whitespace: true, message: text("invoice.bankRequired") }] : []}
              >
                <Input maxLength={30} data-testid="invoice-bankAccount" />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item
                name="amount"
                label={t("invoices.field.amount")}
                rules={[{ required: true, message: t("invoices.amountInvalid") }]}
              >
                <Input prefix="¥" inputMode="decimal" data-testid="invoice-amount" />
              </Form.Item>
            </Col>
            <Col span={12}>
              {/* Left empty, the invoice goes to the delivery email of the e-signature settings (shown as the placeholder). */}
              <Form.Item
                name="email"
                label={t("invoices.field.email")}
                rules={[
                  { required: !settings.data.deliveryEmail, whitespace: true, message: text("validation.emailEmpty") },
                ]}
              >
                <Input
                  maxLength={100}
                  placeholder={settings.data.deliveryEmail || undefined}
                  data-testid="invoice-email"
                />
              </Form.Item>
            </Col>
          </Row>
          <Form.Item name="remark" label={t("invoices.field.remark")}>
            <Input.TextArea rows={2} maxLength={200} showCount />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}
