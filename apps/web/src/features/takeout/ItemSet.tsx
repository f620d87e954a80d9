import { DeleteOutlined, PlusOutlined } from "@ant-design/icons";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { App, Button, Card, Col, Flex, Form, Input, InputNumber, Modal, Row, Select, Switch, Table, Tag } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { TakeoutItem } from "@tessera/contracts";
import { useUserInfo } from "../../api/common";
import { reportFailure } from "../../ui/form/serverError";
import { formatMoney, parseMoney } from "../../ui/money";
import { PageHint } from "../../ui/PageHint";
import { takeoutApi, takeoutKeys } from "./api";

interface FormValues {
  typeId?: string;
  name: string;
  description?: string;
  price: string;
  counted: boolean;
  stock?: number;
  onSale: boolean;
  sort: number;
  options: { name: string; required: boolean; max: number; choices: string }[];
}
const major = (minor: number) => (minor / 100).toFixed(2);

/** "Mild, Hot+1" → choices with a price delta in minor units. */
function parseChoices(s: string, currency: "CNY" | "USD" | "HKD"): { name: string; price: number }[] {
  return s
    .split(/[,，]/)
    .map((c) => c.trim())
    .filter(Boolean)
    .map((c) => {
      const m = /^(.*?)\s*\+\s*(\d+(?:\.\d+)?)$/.exec(c);
      return m ? { name: m[1] ?? c, price: parseMoney(m[2] ?? "0", currency) ?? 0 } : { name: c, price: 0 };
    });
}

/** `/business/ItemSet`: the menu's items: price, category, option groups (required, how many, choices with a price), counted stock, on sale. */
export default function ItemSet() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const currency = useUserInfo().data?.merchant?.currency ?? "CNY";
  const items = useQuery({ queryKey: takeoutKeys.items, queryFn: takeoutApi.items });
  const types = useQuery({ queryKey: takeoutKeys.types, queryFn: takeoutApi.types });
  const [editing, setEditing] = useState<TakeoutItem | null | undefined>(undefined);
  const [form] = Form.useForm<FormValues>();
  const counted = Form.useWatch("counted", form);
  const typeName = new Map((types.data ?? []).map((ty) => [ty.id, ty.name]));

  const open = (i: TakeoutItem | null) => {
    form.resetFields();
    form.setFieldsValue(
      i
        ? {
            typeId: i.typeId ?? undefined,
            name: i.name,
            description: i.description,
            price: major(i.price.amount),
            counted: i.stock !== null,
            stock: i.stock ?? 0,
            onSale: i.onSale,
            sort: i.sort,
            options: i.options.map((g) => ({
              name: g.name,
              required: g.required,
              max: g.max,
              choices: g.choices.map((c) => (c.price ? `${c.name}+${major(c.price)}` : c.name)).join(", "),
            })),
          }
        : { name: "", price: "", counted: false, onSale: true, sort: 0, options: [] },
    );
    setEditing(i);
  };
  const save = async () => {
    const v = await form.validateFields();
    const body = {
      typeId: v.typeId ?? null,
      name: v.name,
      description: v.description ?? "",
      price: parseMoney(v.price, currency) ?? -1,
      stock: v.counted ? (v.stock ?? 0) : null,
      options: (v.options ?? []).map((g) => ({
        name: g.name,
        required: g.required,
        max: g.max,
        choices: parseChoices(g.choices, currency),
      })),
      onSale: v.onSale,
      sort: v.sort,
    };
    const r = editing ? await takeoutApi.updateItem(editing.id, body) : await takeoutApi.addItem(body);
    if (reportFailure(r, form, ["name", "price", "stock"], (msg) => void message.error(msg)) || !r?.ok) return;
    void message.success(t("takeout.saved"));
    setEditing(undefined);
    void qc.invalidateQueries({ queryKey: takeoutKeys.all });
  };
  const required = { required: true, message: t("takeout.required") };

  return (
    <Flex vertical gap={16}>
      <PageHint id="business.ItemSet" title={t("takeout.page.ItemSet")} description={t("takeout.hint.items")} />
      <Card variant="borderless">
        <Button type="primary" onClick={() => open(null)} style={{ marginBottom: 12 }}>
          {t("takeout.addItem")}
        </Button>
        <Table<TakeoutItem>
          rowKey="id"
          loading={items.isLoading}
          dataSource={items.data ?? []}
          pagination={false}
          scroll={{ x: 900 }}
          columns={[
            { title: t("takeout.itemName"), dataIndex: "name", width: 180 },
            {
              title: t("takeout.type"),
              dataIndex: "typeId",
              width: 120,
              render: (id: string | null) => (id ? typeName.get(id) : "—"),
            },
            {
              title: t("takeout.price"),
              dataIndex: "price",
              width: 100,
              align: "right",
              render: (m: TakeoutItem["price"]) => formatMoney(m),
            },
            {
              title: t("takeout.options"),
              key: "o",
              width: 260,
              render: (_: unknown, i) =>
                i.options.map((g) => <Tag key={g.name}>{`${g.name}: ${g.choices.map((c) => c.name).join("/")}`}</Tag>),
            },
            {
              title: t("takeout.stock"),
              dataIndex: "stock",
              width: 90,
              align: "right",
              render: (s: number | null) => (s === null ? "∞" : s),
            },
            { title: t("takeout.sold"), dataIndex: "sold", width: 80, align: "right" },
            {
              title: t("takeout.onSale"),
              dataIndex: "onSale",
              width: 80,
              render: (v: boolean) =>
                v ? <Tag color="green">{t("takeout.onSale")}</Tag> : <Tag>{t("takeout.offSale")}</Tag>,
            },
            {
              title: t("takeout.actions"),
              key: "actions",
              width: 90,
              fixed: "right",
              render: (_: unknown, i) => (
                <Button type="link" size="small" onClick={() => open(i)}>
                  {t("takeout.edit")}
                </Button>
              ),
            },
          ]}
        />
      </Card>
      <Modal
        open={editing !== undefined}
        title={editing ? t("takeout.edit") : t("takeout.addItem")}
        onCancel={() => setEditing(undefined)}
        onOk={() => void save()}
        width={720}
        forceRender
      >
        <Form form={form} layout="vertical">
          <Row gutter={12}>
            <Col xs={24} sm={12}>
              <Form.Item name="name" label={t("takeout.itemName")} rules={[required]}>
                <Input maxLength={40} />
              </Form.Item>
            </Col>
            <Col xs={12} sm={6}>
              <Form.Item name="price" label={t("takeout.price")} rules={[required]}>
                <Input inputMode="decimal" />
              </Form.Item>
            </Col>
            <Col xs={12} sm={6}>
              <Form.Item name="typeId" label={t("takeout.type")}>
                <Select
                  allowClear
                  options={(types.data ?? []).map((ty) => ({ value: ty.id, label: ty.name }))}
                  aria-label={t("takeout.type")}
                />
              </Form.Item>
            </Col>
          </Row>
          <Form.Item name="description" label={t("takeout.description")}>
            <Input maxLength={500} />
          </Form.Item>
          <Form.Item label={t("takeout.options")}>
            <Form.List name="options">
              {(fields, { add, remove }) => (
                <Flex vertical gap={8}>
                  {fields.map((f) => (
                    <Flex key={f.key} gap={8} wrap align="center">
                      <Form.Item name={[f.name, "name"]} rules={[required]} style={{ margin: 0 }}>
                        <Input
                          placeholder={t("takeout.optionName")}
                          style={{ width: 110 }}
                          aria-label={t("takeout.optionName")}
                        />
                      </Form.Item>
                      <Form.Item
                        name={[f.name, "choices"]}
                        rules={[required]}
                        style={{ margin: 0, flex: 1, minWidth: 180 }}
                      >
                        <Input placeholder={t("takeout.choicesHelp")} aria-label={t("takeout.choices")} />
                      </Form.Item>
                      <Form.Item name={[f.name, "required"]} valuePropName="checked" style={{ margin: 0 }}>
                        <Switch
                          checkedChildren={t("takeout.requiredOption")}
                          unCheckedChildren={t("takeout.optional")}
                        />
                      </Form.Item>
                      <Form.Item name={[f.name, "max"]} style={{ margin: 0 }}>
                        <InputNumber min={1} max={10} precision={0} style={{ width: 64 }} aria-label="max" />
                      </Form.Item>
                      <Button icon={<DeleteOutlined />} onClick={() => remove(f.name)} aria-label="remove" />
                    </Flex>
                  ))}
                  <Button
                    icon={<PlusOutlined />}
                    onClick={() => add({ name: "", required: true, max: 1, choices: "" })}
                    style={{ alignSelf: "start" }}
                  >
                    {t("takeout.addOption")}
                  </Button>
                </Flex>
              )}
            </Form.List>
          </Form.Item>
          <Row gutter={12}>
            <Col xs={8}>
              <Form.Item name="counted" label={t("takeout.counted")} valuePropName="checked">
                <Switch />
              </Form.Item>
            </Col>
            <Col xs={8}>
              {counted && (
                <Form.Item name="stock" label={t("takeout.stock")}>
                  <InputNumber min={0} precision={0} />
                </Form.Item>
              )}
            </Col>
            <Col xs={8}>
              <Form.Item name="onSale" label={t("takeout.onSale")} valuePropName="checked">
                <Switch />
              </Form.Item>
            </Col>
          </Row>
          <Form.Item name="sort" label={t("takeout.sort")}>
            <InputNumber min={0} precision={0} />
          </Form.Item>
        </Form>
      </Modal>
    </Flex>
  );
}
