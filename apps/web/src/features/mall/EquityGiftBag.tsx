import { MinusCircleOutlined, PlusOutlined } from "@ant-design/icons";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { App, Button, Form, Input, InputNumber, Modal, Select, Space, Tag, type TableColumnsType } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { GiftBag } from "@tessera/contracts";
import { ListPage } from "../../ui/list/ListPage";
import { formatMoney } from "../../ui/money";
import { mallApi, mallKeys, minor, yuan } from "./api";

interface BagForm {
  name: string;
  description?: string;
  price: number;
  stock: number;
  validDays: number;
  items: { selfGoodsId: string; quantity: number }[];
}

/** `/sale/EquityGiftBag`: gift packs: rights of the mall's goods sold together as one pack, with stock and validity. */
export default function EquityGiftBag() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [editing, setEditing] = useState<GiftBag | "new" | null>(null);
  const [form] = Form.useForm<BagForm>();
  const goods = useQuery({
    queryKey: mallKeys.list("self", { all: 1 }),
    queryFn: () => mallApi.selfGoods({ page: 1, pageSize: 1000 }),
    enabled: editing !== null,
  });
  const open = (b: GiftBag | "new") => {
    setEditing(b);
    form.setFieldsValue(
      b === "new"
        ? {
            name: "",
            description: "",
            price: undefined,
            stock: 100,
            validDays: 365,
            items: [{ selfGoodsId: undefined as unknown as string, quantity: 1 }],
          }
        : {
            name: b.name,
            description: b.description,
            price: yuan(b.price.amount),
            stock: b.stock,
            validDays: b.validDays,
            items: b.items.map((i) => ({ selfGoodsId: i.selfGoodsId, quantity: i.quantity })),
          },
    );
  };
  const save = async (v: BagForm) => {
    const r = await mallApi.saveBag(editing === "new" || editing === null ? null : editing.id, {
      ...v,
      description: v.description ?? "",
      price: minor(v.price),
    });
    if (!r?.ok) {
      void message.error(r?.msg ?? "");
      return;
    }
    setEditing(null);
    void qc.invalidateQueries({ queryKey: mallKeys.all });
  };
  const columns: TableColumnsType<GiftBag> = [
    { title: t("mall.bo.bagName"), dataIndex: "name", ellipsis: true },
    {
      title: t("mall.contains"),
      dataIndex: "items",
      ellipsis: true,
      render: (items: GiftBag["items"]) => items.map((i) => `${i.name} ×${i.quantity}`).join(", "),
    },
    {
      title: t("mall.bo.price"),
      dataIndex: "price",
      width: 110,
      align: "right",
      render: (m: GiftBag["price"]) => formatMoney(m),
    },
    {
      title: t("mall.bo.worth"),
      dataIndex: "worth",
      width: 110,
      align: "right",
      render: (m: GiftBag["worth"]) => formatMoney(m),
    },
    { title: t("mall.bo.stock"), dataIndex: "stock", width: 90, align: "right" },
    { title: t("mall.bo.sold"), dataIndex: "sold", width: 90, align: "right" },
    { title: t("mall.validDays"), dataIndex: "validDays", width: 100, align: "right" },
    {
      title: t("mall.bo.onSale"),
      dataIndex: "onSale",
      width: 90,
      render: (v: boolean) => <Tag color={v ? "green" : "default"}>{t(v ? "mall.bo.yes" : "mall.bo.no")}</Tag>,
    },
    {
      title: t("mall.bo.actions"),
      key: "actions",
      width: 90,
      render: (_: unknown, r) => (
        <Button size="small" onClick={() => open(r)}>
          {t("mall.bo.edit")}
        </Button>
      ),
    },
  ];
  return (
    <>
      <ListPage<GiftBag>
        rowKey="id"
        columns={columns}
        scrollX={1100}
        search={{ add: { label: t("mall.bo.addBag"), onClick: () => open("new") } }}
        query={(state) => {
          const q = { page: state.page, pageSize: state.pageSize };
          return { queryKey: mallKeys.list("bags", q), queryFn: () => mallApi.bags(q) };
        }}
      />
      <Modal
        open={editing !== null}
        title={t(editing === "new" ? "mall.bo.addBag" : "mall.bo.edit")}
        onCancel={() => setEditing(null)}
        onOk={() => form.submit()}
        width={620}
      >
        <Form form={form} layout="vertical" onFinish={(v) => void save(v)}>
          <Form.Item
            name="name"
            label={t("mall.bo.bagName")}
            rules={[{ required: true, message: t("msg:mall.nameEmpty") }]}
          >
            <Input maxLength={60} />
          </Form.Item>
          <Form.Item name="description" label={t("mall.bo.description")}>
            <Input.TextArea maxLength={500} rows={2} />
          </Form.Item>
          <Space wrap>
            <Form.Item
              name="price"
              label={t("mall.bo.price")}
              rules={[{ required: true, message: t("msg:mall.priceInvalid") }]}
            >
              <InputNumber min={0.01} precision={2} />
            </Form.Item>
            <Form.Item
              name="stock"
              label={t("mall.bo.stock")}
              rules={[{ required: true, message: t("msg:mall.stockInvalid") }]}
            >
              <InputNumber min={0} precision={0} />
            </Form.Item>
            <Form.Item
              name="validDays"
              label={t("mall.validDays")}
              rules={[{ required: true, message: t("msg:mall.validDaysInvalid") }]}
            >
              <InputNumber min={1} max={3650} precision={0} />
            </Form.Item>
          </Space>
          <Form.List name="items">
            {(fields, { add, remove }) => (
              <>
                {fields.map((f) => (
                  <Space key={f.key} align="baseline">
                    <Form.Item
                      name={[f.name, "selfGoodsId"]}
                      rules={[{ required: true, message: t("msg:mall.bagItemsEmpty") }]}
                    >
                      <Select
                        style={{ width: 320 }}
                        placeholder={t("mall.bo.chooseGoods")}
                        options={(goods.data?.list ?? []).map((g) => ({
                          value: g.id,
                          label: `${g.name} · ${formatMoney(g.price)}`,
                        }))}
                      />
                    </Form.Item>
                    <Form.Item
                      name={[f.name, "quantity"]}
                      rules={[{ required: true, message: t("msg:mall.quantityInvalid") }]}
                    >
                      <InputNumber min={1} max={20} precision={0} />
                    </Form.Item>
                    <MinusCircleOutlined onClick={() => remove(f.name)} aria-label={t("mall.remove")} />
                  </Space>
                ))}
                <Button
                  type="dashed"
                  onClick={() => add({ quantity: 1 })}
                  icon={<PlusOutlined />}
                  disabled={fields.length >= 10}
                >
                  {t("mall.bo.addItem")}
                </Button>
              </>
            )}
          </Form.List>
        </Form>
      </Modal>
    </>
  );
}
