import { useQueryClient } from "@tanstack/react-query";
import { App, Button, Form, Input, Modal, Space, type TableColumnsType } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { District } from "@tessera/contracts";
import { reportFailure } from "../../ui/form/serverError";
import { ListPage } from "../../ui/list/ListPage";
import { PageHint } from "../../ui/PageHint";
import { storeApi, storeKeys } from "./api";
import { formatTime } from "../../ui/time";

/** `/sale/BusinessDistrict`: business districts (商圈) that group the merchant's stores. */
export default function BusinessDistrict() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const qc = useQueryClient();
  const [form] = Form.useForm<{ name: string; remark?: string }>();
  const [editing, setEditing] = useState<District | null | undefined>(undefined);
  const refresh = () => void qc.invalidateQueries({ queryKey: storeKeys.all });

  const open = (d: District | null) => {
    form.setFieldsValue({ name: d?.name ?? "", remark: d?.remark ?? "" });
    setEditing(d);
  };
  const save = async () => {
    const v = await form.validateFields();
    const r = await storeApi.saveDistrict(editing?.id ?? null, { name: v.name, remark: v.remark ?? "" });
    if (reportFailure(r, form, ["name", "remark"], (msg) => void message.error(msg)) || !r?.ok) return;
    void message.success(t("stores.saved"));
    setEditing(undefined);
    refresh();
  };
  const remove = (d: District) =>
    void modal.confirm({
      title: t("stores.deleteDistrict", { name: d.name }),
      okButtonProps: { danger: true },
      onOk: async () => {
        const r = await storeApi.deleteDistrict(d.id);
        if (r?.ok) refresh();
      },
    });

  const columns: TableColumnsType<District> = [
    { title: t("stores.districtName"), dataIndex: "name", width: 200 },
    { title: t("stores.remark"), dataIndex: "remark", ellipsis: true },
    { title: t("stores.storeCount"), dataIndex: "stores", width: 100, align: "right" },
    {
      title: t("stores.createdAt"),
      dataIndex: "createdAt",
      width: 180,
      render: (v: string) => formatTime(v, { seconds: true }),
    },
    {
      title: t("stores.actions"),
      key: "actions",
      width: 140,
      render: (_: unknown, d) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => open(d)}>
            {t("stores.edit")}
          </Button>
          <Button type="link" size="small" danger onClick={() => remove(d)}>
            {t("stores.delete")}
          </Button>
        </Space>
      ),
    },
  ];

  return (
    <>
      <ListPage<District>
        header={
          <PageHint
            id="sale.BusinessDistrict"
            title={t("stores.title.BusinessDistrict")}
            description={t("stores.hint.district")}
          />
        }
        rowKey="id"
        columns={columns}
        search={{
          add: { label: t("stores.addDistrict"), onClick: () => open(null) },
          input: { keys: [{ value: "keyword", label: t("stores.districtName") }] },
        }}
        query={(state) => {
          const q = { page: state.page, pageSize: state.pageSize, keyword: state.values.inpVal };
          return { queryKey: storeKeys.districts(q), queryFn: () => storeApi.districts(q) };
        }}
      />
      <Modal
        open={editing !== undefined}
        title={editing ? t("stores.edit") : t("stores.addDistrict")}
        onCancel={() => setEditing(undefined)}
        onOk={() => void save()}
        forceRender
      >
        <Form form={form} layout="vertical">
          <Form.Item
            name="name"
            label={t("stores.districtName")}
            rules={[{ required: true, message: t("stores.required") }]}
          >
            <Input maxLength={40} />
          </Form.Item>
          <Form.Item name="remark" label={t("stores.remark")}>
            <Input.TextArea maxLength={200} />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
