import { Alert, App, Button, Form, Input, Modal, Space, Table } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { Brand } from "@tessera/contracts";
import { reportFailure } from "../../ui/form/serverError";
import { catalogApi } from "./api";

/**
 * The brander's brands (`GET brander`, `POST brander/update`): list, add, rename. `notice` says why the
 * dialog opened when the user asked for something else (new goods need a brand first).
 */
export function BrandsDialog({
  open,
  brands,
  onClose,
  onChanged,
  notice,
}: {
  open: boolean;
  brands: Brand[];
  onClose: () => void;
  onChanged: () => void;
  notice?: string | undefined;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ name: string; description: string }>();
  const [editing, setEditing] = useState<Brand | null>(null);
  const [saving, setSaving] = useState(false);

  const save = async () => {
    const v = await form.validateFields();
    setSaving(true);
    try {
      const result = await catalogApi.saveBrand({
        ...(editing ? { id: editing.id } : {}),
        name: v.name,
        description: v.description ?? "",
        logo: editing?.logo ?? null,
      });
      if (reportFailure(result, form, ["name", "description"], (msg) => void message.error(msg))) return;
      void message.success(t("catalog.msg.saved"));
      form.resetFields();
      setEditing(null);
      onChanged();
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t("catalog.action.brands")}
      width={720}
      footer={null}
      onCancel={onClose}
      maskClosable={false}
    >
      {notice && (
        <Alert type="info" showIcon message={notice} style={{ marginBottom: 16 }} data-testid="brands-notice" />
      )}
      <Form form={form} layout="inline" style={{ marginBottom: 16, rowGap: 8 }} onFinish={() => void save()}>
        <Form.Item name="name" rules={[{ required: true, message: t("catalog.msg.required") }]}>
          <Input placeholder={t("catalog.brand.name")} maxLength={50} aria-label={t("catalog.brand.name")} />
        </Form.Item>
        <Form.Item name="description">
          <Input
            placeholder={t("catalog.brand.description")}
            maxLength={1000}
            style={{ width: 260 }}
            aria-label={t("catalog.brand.description")}
          />
        </Form.Item>
        <Space>
          <Button type="primary" htmlType="submit" loading={saving}>
            {editing ? t("catalog.action.save") : t("catalog.action.addBrand")}
          </Button>
          {editing && (
            <Button
              onClick={() => {
                setEditing(null);
                form.resetFields();
              }}
            >
              {t("catalog.action.back")}
            </Button>
          )}
        </Space>
      </Form>
      <Table<Brand>
        rowKey="id"
        size="small"
        pagination={false}
        dataSource={brands}
        columns={[
          { title: "ID", dataIndex: "id", width: 80 },
          { title: t("catalog.brand.name"), dataIndex: "name" },
          { title: t("catalog.brand.description"), dataIndex: "description", ellipsis: true },
          { title: t("catalog.brand.goodsCount"), dataIndex: "goodsCount", width: 90 },
          {
            title: t("catalog.field.actions"),
            width: 90,
            render: (_: unknown, b) => (
              <Button
                type="link"
                onClick={() => {
                  setEditing(b);
                  form.setFieldsValue({ name: b.name, description: b.description });
                }}
              >
                {t("catalog.action.edit")}
              </Button>
            ),
          },
        ]}
      />
    </Modal>
  );
}
