import { DeleteOutlined, PlusOutlined } from "@ant-design/icons";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { App, Button, Card, Flex, Form, Input, InputNumber, Modal, Select, Switch, Table, Tag } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { TakeoutPackage } from "@tessera/contracts";
import { useUserInfo } from "../../api/common";
import { reportFailure } from "../../ui/form/serverError";
import { formatMoney, parseMoney } from "../../ui/money";
import { PageHint } from "../../ui/PageHint";
import { takeoutApi, takeoutKeys } from "./api";

interface FormValues {
  name: string;
  description?: string;
  price: string;
  items: { itemId: string; quantity: number }[];
  onSale: boolean;
  sort: number;
}

/** `/business/PackageSet`: combos: items and quantities at one price. */
export default function PackageSet() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const currency = useUserInfo().data?.merchant?.currency ?? "CNY";
  const packages = useQuery({ queryKey: takeoutKeys.packages, queryFn: takeoutApi.packages });
  const items = useQuery({ queryKey: takeoutKeys.items, queryFn: takeoutApi.items });
  const [editing, setEditing] = useState<TakeoutPackage | null | undefined>(undefined);
  const [form] = Form.useForm<FormValues>();
  const required = { required: true, message: t("takeout.required") };
  const open = (p: TakeoutPackage | null) => {
    form.resetFields();
    form.setFieldsValue(
      p
        ? {
            name: p.name,
            description: p.description,
            price: (p.price.amount / 100).toFixed(2),
            items: p.items.map((i) => ({ itemId: i.itemId, quantity: i.quantity })),
            onSale: p.onSale,
            sort: p.sort,
          }
        : { name: "", price: "", items: [{ itemId: "", quantity: 1 }], onSale: true, sort: 0 },
    );
    setEditing(p);
  };
  const save = async () => {
    const v = await form.validateFields();
    const body = {
      name: v.name,
      description: v.description ?? "",
      price: parseMoney(v.price, currency) ?? -1,
      items: v.items,
      onSale: v.onSale,
      sort: v.sort,
    };
    const r = editing ? await takeoutApi.updatePackage(editing.id, body) : await takeoutApi.addPackage(body);
    if (reportFailure(r, form, ["name", "price", "items"], (msg) => void message.error(msg)) || !r?.ok) return;
    void message.success(t("takeout.saved"));
    setEditing(undefined);
    void qc.invalidateQueries({ queryKey: takeoutKeys.all });
  };
  return (
    <Flex vertical gap={16}>
      <PageHint
        id="business.PackageSet"
        title={t("takeout.page.PackageSet")}
        description={t("takeout.hint.packages")}
      />
      <Card variant="borderless">
        <Button type="primary" onClick={() => open(null)} style={{ marginBottom: 12 }}>
          {t("takeout.addPackage")}
        </Button>
        <Table<TakeoutPackage>
          rowKey="id"
          loading={packages.isLoading}
          dataSource={packages.data ?? []}
          pagination={false}
          columns={[
            { title: t("takeout.packageName"), dataIndex: "name", width: 180 },
            {
              title: t("takeout.contents"),
              key: "c",
              render: (_: unknown, p) => p.items.map((i) => <Tag key={i.itemId}>{`${i.name} × ${i.quantity}`}</Tag>),
            },
            {
              title: t("takeout.price"),
              dataIndex: "price",
              width: 100,
              align: "right",
              render: (m: TakeoutPackage["price"]) => formatMoney(m),
            },
            {
              title: t("takeout.onSale"),
              dataIndex: "onSale",
              width: 90,
              render: (v: boolean) =>
                v ? <Tag color="green">{t("takeout.onSale")}</Tag> : <Tag>{t("takeout.offSale")}</Tag>,
            },
            {
              title: t("takeout.actions"),
              key: "actions",
              width: 90,
              render: (_: unknown, p) => (
                <Button type="link" size="small" onClick={() => open(p)}>
                  {t("takeout.edit")}
                </Button>
              ),
            },
          ]}
        />
      </Card>
      <Modal
        open={editing !== undefined}
        title={editing ? t("takeout.edit") : t("takeout.addPackage")}
        onCancel={() => setEditing(undefined)}
        onOk={() => void save()}
        width={640}
        forceRender
      >
        <Form form={form} layout="vertical">
          <Form.Item name="name" label={t("takeout.packageName")} rules={[required]}>
            <Input maxLength={40} />
          </Form.Item>
          <Form.Item name="price" label={t("takeout.price")} rules={[required]}>
            <Input inputMode="decimal" />
          </Form.Item>
          <Form.Item label={t("takeout.contents")} required>
            <Form.List name="items">
              {(fields, { add, remove }) => (
                <Flex vertical gap={8}>
                  {fields.map((f) => (
                    <Flex key={f.key} gap={8} align="center">
                      <Form.Item name={[f.name, "itemId"]} rules={[required]} style={{ margin: 0, flex: 1 }}>
                        <Select
                          options={(items.data ?? []).map((i) => ({ value: i.id, label: i.name }))}
                          aria-label={t("takeout.itemName")}
                        />
                      </Form.Item>
                      <Form.Item name={[f.name, "quantity"]} style={{ margin: 0 }}>
                        <InputNumber
                          min={1}
                          max={20}
                          precision={0}
                          style={{ width: 72 }}
                          aria-label={t("takeout.quantity")}
                        />
                      </Form.Item>
                      <Button icon={<DeleteOutlined />} onClick={() => remove(f.name)} aria-label="remove" />
                    </Flex>
                  ))}
                  <Button
                    icon={<PlusOutlined />}
                    onClick={() => add({ itemId: "", quantity: 1 })}
                    style={{ alignSelf: "start" }}
                  >
                    {t("takeout.addContent")}
                  </Button>
                </Flex>
              )}
            </Form.List>
          </Form.Item>
          <Form.Item name="description" label={t("takeout.description")}>
            <Input maxLength={500} />
          </Form.Item>
          <Flex gap={24}>
            <Form.Item name="onSale" label={t("takeout.onSale")} valuePropName="checked">
              <Switch />
            </Form.Item>
            <Form.Item name="sort" label={t("takeout.sort")}>
              <InputNumber min={0} precision={0} />
            </Form.Item>
          </Flex>
        </Form>
      </Modal>
    </Flex>
  );
}
