import { useQuery, useQueryClient } from "@tanstack/react-query";
import { App, Button, Card, Flex, Form, Input, InputNumber, Modal, Popconfirm, Space, Table } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { TakeoutType as Type } from "@tessera/contracts";
import { reportFailure } from "../../ui/form/serverError";
import { PageHint } from "../../ui/PageHint";
import { takeoutApi, takeoutKeys } from "./api";

/** `/business/TakeoutType`: the menu's categories: add, rename, order, delete an empty one. */
export default function TakeoutType() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const { data, isLoading } = useQuery({ queryKey: takeoutKeys.types, queryFn: takeoutApi.types });
  const [editing, setEditing] = useState<Type | null | undefined>(undefined);
  const [form] = Form.useForm<{ name: string; sort: number }>();
  const refresh = () => void qc.invalidateQueries({ queryKey: takeoutKeys.all });
  const save = async () => {
    const v = await form.validateFields();
    const r = editing ? await takeoutApi.updateType(editing.id, v) : await takeoutApi.addType(v);
    if (reportFailure(r, form, ["name"], (msg) => void message.error(msg)) || !r?.ok) return;
    void message.success(t("takeout.saved"));
    setEditing(undefined);
    refresh();
  };
  const remove = async (id: string) => {
    const r = await takeoutApi.deleteType(id);
    if (r?.ok) refresh();
  };
  return (
    <Flex vertical gap={16}>
      <PageHint id="business.TakeoutType" title={t("takeout.page.TakeoutType")} description={t("takeout.hint.types")} />
      <Card variant="borderless">
        <Button
          type="primary"
          onClick={() => {
            form.setFieldsValue({ name: "", sort: 0 });
            setEditing(null);
          }}
          style={{ marginBottom: 12 }}
        >
          {t("takeout.addType")}
        </Button>
        <Table<Type>
          rowKey="id"
          loading={isLoading}
          dataSource={data ?? []}
          pagination={false}
          columns={[
            { title: t("takeout.typeName"), dataIndex: "name" },
            { title: t("takeout.sort"), dataIndex: "sort", width: 100 },
            {
              title: t("takeout.actions"),
              key: "actions",
              width: 160,
              render: (_: unknown, ty) => (
                <Space size={0}>
                  <Button
                    type="link"
                    size="small"
                    onClick={() => {
                      form.setFieldsValue({ name: ty.name, sort: ty.sort });
                      setEditing(ty);
                    }}
                  >
                    {t("takeout.edit")}
                  </Button>
                  <Popconfirm title={t("takeout.deleteAsk")} onConfirm={() => void remove(ty.id)}>
                    <Button type="link" size="small" danger>
                      {t("takeout.delete")}
                    </Button>
                  </Popconfirm>
                </Space>
              ),
            },
          ]}
        />
      </Card>
      <Modal
        open={editing !== undefined}
        title={editing ? t("takeout.edit") : t("takeout.addType")}
        onCancel={() => setEditing(undefined)}
        onOk={() => void save()}
        forceRender
      >
        <Form form={form} layout="vertical">
          <Form.Item
            name="name"
            label={t("takeout.typeName")}
            rules={[{ required: true, message: t("takeout.required") }]}
          >
            <Input maxLength={20} />
          </Form.Item>
          <Form.Item name="sort" label={t("takeout.sort")}>
            <InputNumber min={0} precision={0} />
          </Form.Item>
        </Form>
      </Modal>
    </Flex>
  );
}
