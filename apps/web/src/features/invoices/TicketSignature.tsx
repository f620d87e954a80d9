import { useQuery, useQueryClient } from "@tanstack/react-query";
import {
  App,
  Button,
  Card,
  Checkbox,
  Col,
  Flex,
  Form,
  Input,
  Modal,
  Popconfirm,
  Row,
  Space,
  Switch,
  Table,
  Tag,
  type TableColumnsType,
} from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { InvoiceSettingsReq, InvoiceTitle } from "@tessera/contracts";
import { PageHint } from "../../ui/PageHint";
import { invoiceApi, invoiceKeys, type TitleBody } from "./api";

const TITLE_FIELDS = ["name", "taxId", "address", "phone", "bank", "bankAccount"] as const;
const SETTINGS_FIELDS = ["signerName", "signerPhone", "deliveryEmail"] as const;

function TitleDialog({
  title,
  onClose,
  onSaved,
}: {
  title: InvoiceTitle | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<TitleBody>();
  const [saving, setSaving] = useState(false);
  const submit = async (v: TitleBody) => {
    setSaving(true);
    try {
      const result = await invoiceApi.saveTitle(title?.id ?? null, { ...v, isDefault: v.isDefault ?? false });
      if (!result) return;
      if (!result.ok) {
        const field = result.data?.field;
        if (field && (TITLE_FIELDS as readonly string[]).includes(field)) {
          form.setFields([{ name: field as (typeof TITLE_FIELDS)[number], errors: [result.msg] }]);
        } else void message.error(result.msg);
        return;
      }
      void message.success(t("invoices.saved"));
      onSaved();
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open
      width={640}
      title={title ? t("invoices.editTitle") : t("invoices.addTitle")}
      onOk={() => form.submit()}
      confirmLoading={saving}
      onCancel={onClose}
      destroyOnHidden
      maskClosable={false}
    >
      <Form<TitleBody>
        form={form}
        layout="vertical"
        onFinish={(v) => void submit(v)}
        initialValues={
          title ?? { name: "", taxId: "", address: "", phone: "", bank: "", bankAccount: "", isDefault: false }
        }
      >
        <Row gutter={12}>
          {TITLE_FIELDS.map((f) => (
            <Col span={f === "name" || f === "address" ? 24 : 12} key={f}>
              <Form.Item
                name={f}
                label={t(`invoices.field.${f}`)}
                rules={f === "name" ? [{ required: true, whitespace: true, message: t("invoices.field.name") }] : []}
              >
                <Input data-testid={`title-${f}`} />
              </Form.Item>
            </Col>
          ))}
        </Row>
        <Form.Item name="isDefault" valuePropName="checked">
          <Checkbox>{t("invoices.setDefault")}</Checkbox>
        </Form.Item>
      </Form>
    </Modal>
  );
}

/**
 * `/sale/TicketSignature`: the invoice titles (抬头) the purchaser keeps — one default, marked when
 * complete enough for a VAT special invoice — and its e-signature settings: whether invoices are
 * signed for electronically, by whom, and the email they go to.
 */
export default function TicketSignature() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const titles = useQuery({ queryKey: invoiceKeys.titles, queryFn: invoiceApi.titles });
  const settings = useQuery({ queryKey: invoiceKeys.settings, queryFn: invoiceApi.settings });
  const [editing, setEditing] = useState<InvoiceTitle | "new" | null>(null);
  const [form] = Form.useForm<InvoiceSettingsReq>();
  const [saving, setSaving] = useState(false);

  const remove = async (id: string) => {
    const result = await invoiceApi.deleteTitle(id);
    if (result?.ok) {
      void message.success(t("invoices.deleted"));
      void qc.invalidateQueries({ queryKey: invoiceKeys.titles });
    }
  };
  const saveSettings = async (v: InvoiceSettingsReq) => {
    setSaving(true);
    try {
      const result = await invoiceApi.saveSettings(v);
      if (!result) return;
      if (!result.ok) {
        const field = result.data?.field;
        if (field && (SETTINGS_FIELDS as readonly string[]).includes(field)) {
          form.setFields([{ name: field as (typeof SETTINGS_FIELDS)[number], errors: [result.msg] }]);
        } else void message.error(result.msg);
        return;
      }
      void message.success(t("invoices.saved"));
      void qc.invalidateQueries({ queryKey: invoiceKeys.settings });
    } finally {
      setSaving(false);
    }
  };

  const columns: TableColumnsType<InvoiceTitle> = [
    {
      title: t("invoices.field.name"),
      dataIndex: "name",
      render: (v: string, r) => (
        <Space>
          {v}
          {r.isDefault && <Tag color="blue">{t("invoices.default")}</Tag>}
          {r.specialReady && <Tag color="gold">{t("invoices.specialReady")}</Tag>}
        </Space>
      ),
    },
    { title: t("invoices.field.taxId"), dataIndex: "taxId", width: 200, render: (v: string) => v || "-" },
    {
      title: t("invoices.field.bank"),
      key: "bank",
      width: 260,
      ellipsis: true,
      render: (_: unknown, r) => [r.bank, r.bankAccount].filter(Boolean).join(" ") || "-",
    },
    {
      title: t("invoices.col.action"),
      key: "action",
      width: 150,
      render: (_: unknown, r) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => setEditing(r)}>
            {t("invoices.edit")}
          </Button>
          <Popconfirm title={t("invoices.deleteConfirm")} onConfirm={() => void remove(r.id)}>
            <Button type="link" size="small" danger>
              {t("invoices.delete")}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <Flex vertical gap={16}>
      <PageHint
        id="sale.TicketSignature"
        title={t("invoices.hint.titlesTitle")}
        description={t("invoices.hint.titles")}
      />
      <Card
        variant="borderless"
        title={t("invoices.titlesCard")}
        extra={
          <Button type="primary" onClick={() => setEditing("new")} data-testid="add-title">
            {t("invoices.addTitle")}
          </Button>
        }
      >
        <Table<InvoiceTitle>
          rowKey="id"
          columns={columns}
          dataSource={titles.data ?? []}
          loading={titles.isFetching}
          pagination={false}
          scroll={{ x: 760 }}
        />
      </Card>
      <Card variant="borderless" title={t("invoices.settingsCard")}>
        {settings.data && (
          <Form<InvoiceSettingsReq>
            form={form}
            layout="vertical"
            style={{ maxWidth: 560 }}
            initialValues={settings.data}
            onFinish={(v) => void saveSettings(v)}
          >
            <Form.Item
              name="eSign"
              label={t("invoices.field.eSign")}
              valuePropName="checked"
              extra={t("invoices.eSignHelp")}
            >
              <Switch />
            </Form.Item>
            <Form.Item name="signerName" label={t("invoices.field.signerName")}>
              <Input maxLength={30} />
            </Form.Item>
            <Form.Item name="signerPhone" label={t("invoices.field.signerPhone")}>
              <Input maxLength={11} inputMode="numeric" />
            </Form.Item>
            <Form.Item name="deliveryEmail" label={t("invoices.field.deliveryEmail")}>
              <Input maxLength={100} />
            </Form.Item>
            <Button type="primary" htmlType="submit" loading={saving}>
              {t("invoices.save")}
            </Button>
          </Form>
        )}
      </Card>
      {editing && (
        <TitleDialog
          title={editing === "new" ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void qc.invalidateQueries({ queryKey: invoiceKeys.titles });
          }}
        />
      )}
    </Flex>
  );
}
