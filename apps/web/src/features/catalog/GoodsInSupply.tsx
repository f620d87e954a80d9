import { useQuery, useQueryClient } from "@tanstack/react-query";
import {
  App,
  Button,
  Descriptions,
  Drawer,
  Flex,
  Form,
  Input,
  InputNumber,
  Select,
  Space,
  Table,
  Tag,
  type TableColumnsType,
} from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { GOODS_STATES, type CostReply, type Goods, type GoodsState, type InsupplyUpdateReq } from "@tessera/contracts";
import { unwrap } from "../../api/errors";
import { http } from "../../api/http";
import { reportFailure } from "../../ui/form/serverError";
import { ListPage } from "../../ui/list/ListPage";
import type { ListState } from "../../ui/list/listQuery";
import { formatMoney, parseMoney } from "../../ui/money";
import { PageHint } from "../../ui/PageHint";
import { catalogKeys } from "./api";
import { percent } from "./labels";

const base = "/api/card-user";
const STATE_COLOR = { available: "green", disabled: "orange", void: "default" } as const;

interface TermsForm {
  price: string;
  settlementPrice: string;
  perOrderMax: number;
  weight: number;
  lowStockThreshold: number;
  state: GoodsState;
}

/** Supply terms of one goods, its combo children and its unit cost (`insupply/merchandise/*`, `insupply/cost`). */
function SupplyDrawer({ goods, onClose, onSaved }: { goods: Goods; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<TermsForm>();
  const [childForm] = Form.useForm<{ childId: number; quantity: number }>();
  const queryClient = useQueryClient();
  const costKey = ["catalog", "cost", goods.id] as const;
  const { data: cost } = useQuery({
    queryKey: costKey,
    queryFn: async () => unwrap(await http.get<CostReply>(`${base}/insupply/cost/${goods.id}`)),
  });
  const money = (amount: number) => formatMoney({ amount, currency: goods.currency });
  const major = (minor: number) => (minor / 100).toFixed(2);

  const save = async () => {
    const v = await form.validateFields();
    const body: InsupplyUpdateReq = {
      price: parseMoney(v.price, goods.currency) ?? undefined,
      settlementPrice: parseMoney(v.settlementPrice, goods.currency) ?? undefined,
      perOrderMax: v.perOrderMax,
      weight: v.weight,
      lowStockThreshold: v.lowStockThreshold,
      state: v.state,
    };
    const r = await http.put<Goods>(`${base}/insupply/merchandise/${goods.id}`, body, { toast: false });
    if (
      reportFailure(
        r,
        form,
        ["price", "settlementPrice", "perOrderMax", "weight", "lowStockThreshold", "state"],
        (msg) => void message.error(msg),
      )
    ) {
      return;
    }
    void message.success(t("catalog.msg.saved"));
    void queryClient.invalidateQueries({ queryKey: costKey });
    onSaved();
  };

  const addChild = async () => {
    const v = await childForm.validateFields();
    const r = await http.post<CostReply>(`${base}/insupply/merchandise/child`, {
      inSupplyMerchandiseId: goods.id,
      childId: v.childId,
      quantity: v.quantity,
    });
    if (r?.ok) {
      queryClient.setQueryData(costKey, r.data);
      childForm.resetFields();
    }
  };

  const moneyRule = {
    required: true,
    validator: (_: unknown, v: string | undefined) =>
      v && parseMoney(v, goods.currency) !== null
        ? Promise.resolve()
        : Promise.reject(new Error(t("catalog.msg.amountInvalid"))),
  };
  return (
    <Drawer open onClose={onClose} size={640} zIndex={1100} title={`${goods.id} ${goods.name}`}>
      <Flex vertical gap={24}>
        <Form
          form={form}
          layout="vertical"
          initialValues={{
            price: major(goods.price),
            settlementPrice: major(goods.settlementPrice),
            perOrderMax: goods.perOrderMax,
            weight: goods.weight,
            lowStockThreshold: goods.lowStockThreshold,
            state: goods.state,
          }}
        >
          <Space wrap align="start">
            <Form.Item name="price" label={`${t("catalog.field.price")} (${goods.currency})`} rules={[moneyRule]}>
              <Input inputMode="decimal" style={{ width: 160 }} />
            </Form.Item>
            <Form.Item
              name="settlementPrice"
              label={`${t("catalog.field.settlementPrice")} (${goods.currency})`}
              rules={[moneyRule]}
            >
              <Input inputMode="decimal" style={{ width: 160 }} />
            </Form.Item>
            <Form.Item name="state" label={t("catalog.field.state")}>
              <Select
                style={{ width: 140 }}
                options={GOODS_STATES.map((s) => ({ value: s, label: t(`catalog.state.${s}`) }))}
              />
            </Form.Item>
            <Form.Item name="perOrderMax" label={t("catalog.field.perOrderMax")}>
              <InputNumber min={1} max={10000} precision={0} />
            </Form.Item>
            <Form.Item name="weight" label={t("catalog.field.weight")}>
              <InputNumber min={0} max={9999} precision={0} />
            </Form.Item>
            <Form.Item name="lowStockThreshold" label={t("catalog.field.lowStockThreshold")}>
              <InputNumber min={0} max={1000000} precision={0} />
            </Form.Item>
          </Space>
          <Button type="primary" onClick={() => void save()}>
            {t("catalog.action.save")}
          </Button>
        </Form>
        {cost && (
          <Descriptions
            bordered
            size="small"
            column={2}
            title={t("catalog.supply.cost")}
            items={[
              { key: "price", label: t("catalog.field.price"), children: money(cost.price) },
              { key: "settle", label: t("catalog.field.settlementPrice"), children: money(cost.settlementPrice) },
              { key: "rate", label: t("catalog.field.platformRate"), children: percent(cost.platformRateBp) },
              { key: "fee", label: t("catalog.supply.platformFee"), children: money(cost.platformFee) },
              { key: "children", label: t("catalog.supply.childrenCost"), children: money(cost.childrenCost) },
              { key: "margin", label: t("catalog.supply.margin"), children: money(cost.margin) },
            ]}
          />
        )}
        {goods.businessType === "combo" && (
          <Flex vertical gap={12}>
            <Form form={childForm} layout="inline" initialValues={{ quantity: 1 }}>
              <Form.Item name="childId" rules={[{ required: true, message: t("catalog.msg.required") }]}>
                <InputNumber
                  placeholder={t("catalog.supply.childId")}
                  min={1}
                  precision={0}
                  style={{ width: 180 }}
                  aria-label={t("catalog.supply.childId")}
                />
              </Form.Item>
              <Form.Item name="quantity">
                <InputNumber min={1} max={100} precision={0} aria-label={t("catalog.supply.quantity")} />
              </Form.Item>
              <Button onClick={() => void addChild()}>{t("catalog.supply.addChild")}</Button>
            </Form>
            <Table
              rowKey="id"
              size="small"
              pagination={false}
              dataSource={cost?.children ?? []}
              columns={[
                { title: t("catalog.field.id"), dataIndex: "id", width: 90 },
                { title: t("catalog.field.name"), dataIndex: "name" },
                { title: t("catalog.supply.quantity"), dataIndex: "quantity", width: 80 },
                { title: t("catalog.supply.childrenCost"), dataIndex: "cost", render: (v: number) => money(v) },
              ]}
            />
          </Flex>
        )}
      </Flex>
    </Drawer>
  );
}

/**
 * `/business/GoodsInSupply`: goods the supplier has in supply (in-supply merchandise): supply terms
 * (price, settlement base price, quantity per order, weight, low-stock threshold, state), combo child
 * items and the unit cost with the platform rate (0%).
 */
export default function GoodsInSupply() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState<Goods | null>(null);
  const money = (amount: number, g: Goods) => formatMoney({ amount, currency: g.currency });
  const queryOf = (s: ListState) => {
    const state = typeof s.values.selVal === "string" ? s.values.selVal : undefined;
    return { page: s.page, pageSize: s.pageSize, keyword: s.values.inpVal, state };
  };
  const columns: TableColumnsType<Goods> = [
    { title: t("catalog.field.id"), dataIndex: "id", width: 80 },
    { title: t("catalog.field.name"), dataIndex: "name" },
    { title: t("catalog.field.price"), dataIndex: "price", render: (v: number, g) => money(v, g) },
    { title: t("catalog.field.settlementPrice"), dataIndex: "settlementPrice", render: (v: number, g) => money(v, g) },
    { title: t("catalog.field.perOrderMax"), dataIndex: "perOrderMax" },
    { title: t("catalog.field.stock"), dataIndex: "stock" },
    { title: t("catalog.field.sold"), dataIndex: "sold" },
    {
      title: t("catalog.field.state"),
      dataIndex: "state",
      render: (v: GoodsState) => <Tag color={STATE_COLOR[v]}>{t(`catalog.state.${v}`)}</Tag>,
    },
    {
      title: t("catalog.field.actions"),
      key: "actions",
      render: (_: unknown, g) =>
        g.state === "void" ? null : (
          <Button type="link" size="small" onClick={() => setOpen(g)}>
            {t("catalog.supply.terms")}
          </Button>
        ),
    },
  ];
  return (
    <>
      <ListPage<Goods>
        header={
          <PageHint
            id="business.GoodsInSupply"
            title={t("catalog.hint.inSupplyTitle")}
            description={t("catalog.hint.inSupply")}
          />
        }
        rowKey="id"
        columns={columns}
        search={{
          input: { keys: [{ value: "keyword", label: t("catalog.field.keyword") }] },
          select: {
            keys: [
              {
                value: "state",
                label: t("catalog.field.state"),
                options: GOODS_STATES.map((s) => ({ value: s, label: t(`catalog.state.${s}`) })),
              },
            ],
          },
        }}
        query={(s) => {
          const q = queryOf(s);
          return {
            queryKey: ["catalog", "insupply", q],
            queryFn: async () =>
              unwrap(
                await http.get<{ list: Goods[]; total: number; page: number; pageSize: number }>(
                  `${base}/insupply/merchandises`,
                  { query: q, overlay: false },
                ),
              ),
          };
        }}
      />
      {open && (
        <SupplyDrawer
          key={open.id}
          goods={open}
          onClose={() => setOpen(null)}
          onSaved={() => {
            setOpen(null);
            void queryClient.invalidateQueries({ queryKey: catalogKeys.all });
          }}
        />
      )}
    </>
  );
}
