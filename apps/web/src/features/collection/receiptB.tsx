import { useQuery, useQueryClient } from "@tanstack/react-query";
import { App, Button, Card, Flex, Form, Input, Modal, Select, Space, Table, Tag, type TableColumnsType } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { PayCode, PayOrder } from "@tessera/contracts";
import { useUserInfo } from "../../api/common";
import { reportFailure } from "../../ui/form/serverError";
import { ListPage } from "../../ui/list/ListPage";
import { formatMoney, parseMoney } from "../../ui/money";
import { PageHint } from "../../ui/PageHint";
import { collectionApi, collectionKeys } from "./api";
import { storeApi } from "../stores/api";
import { dayRange } from "../stores/writeoffLists";
import { PayCodeDialog } from "./PayCodeDialog";
import { formatTime } from "../../ui/time";

/**
 * `/business/receiptB`: collection (收款): the collection codes of an account (the main account or a
 * sub-account; spec 01 §7 subPassports/{passportId}/paymentCodes), each a QR the payer scans, and the
 * payment orders with their state, fee, net amount and refunds.
 */
export default function ReceiptB() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const me = useUserInfo().data;
  const [form] = Form.useForm<{ name: string; storeId?: string; amount?: string }>();
  const [passportId, setPassportId] = useState<string | undefined>();
  const [adding, setAdding] = useState(false);
  const [shown, setShown] = useState<PayCode | null>(null);
  const owner = me?.userId;
  const account = passportId ?? owner;
  const subs = useQuery({ queryKey: ["stores", "subs"], queryFn: () => storeApi.subAccounts() });
  const stores = useQuery({
    queryKey: ["collection", "stores"],
    queryFn: () => storeApi.list({ page: 1, pageSize: 1000 }),
    enabled: adding,
  });
  const codes = useQuery({
    queryKey: collectionKeys.codes(account ?? ""),
    queryFn: () => collectionApi.codes(account ?? ""),
    enabled: Boolean(account),
  });
  const refresh = () => void qc.invalidateQueries({ queryKey: collectionKeys.all });

  const save = async () => {
    if (!account) return;
    const v = await form.validateFields();
    const amount = v.amount?.trim() ? parseMoney(v.amount, me?.merchant?.currency ?? "CNY") : null;
    const r = await collectionApi.createCode(account, { name: v.name, storeId: v.storeId ?? null, amount });
    if (reportFailure(r, form, ["name", "storeId", "amount"], (msg) => void message.error(msg)) || !r?.ok) return;
    setAdding(false);
    form.resetFields();
    refresh();
    setShown(r.data);
  };
  const retire = async (c: PayCode) => {
    const r = await collectionApi.deleteCode(c.passportId, c.id);
    if (r?.ok) refresh();
  };

  const orderColumns: TableColumnsType<PayOrder> = [
    { title: t("collection.orderNo"), dataIndex: "orderNo", width: 220 },
    { title: t("collection.codeName"), dataIndex: "codeName", width: 140 },
    {
      title: t("collection.amount"),
      dataIndex: "amount",
      width: 110,
      align: "right",
      render: (m: PayOrder["amount"]) => formatMoney(m),
    },
    {
      title: t("collection.fee"),
      dataIndex: "fee",
      width: 90,
      align: "right",
      render: (m: PayOrder["fee"]) => formatMoney(m),
    },
    {
      title: t("collection.net"),
      dataIndex: "net",
      width: 110,
      align: "right",
      render: (m: PayOrder["net"]) => formatMoney(m),
    },
    {
      title: t("collection.refunded"),
      dataIndex: "refunded",
      width: 110,
      align: "right",
      render: (m: PayOrder["refunded"]) => formatMoney(m),
    },
    {
      title: t("collection.orderState"),
      dataIndex: "state",
      width: 100,
      render: (s: PayOrder["state"]) => (
        <Tag color={s === "SUCCESS" ? "green" : "default"}>{t(`collection.orderStates.${s}`)}</Tag>
      ),
    },
    {
      title: t("collection.paidAt"),
      dataIndex: "paidAt",
      width: 170,
      render: (v: string | null) => (v ? formatTime(v, { seconds: true }) : "-"),
    },
  ];

  return (
    <Flex vertical gap={16}>
      <PageHint
        id="business.receiptB"
        title={t("collection.title.receipt")}
        description={t("collection.hint.receipt")}
      />
      <Card
        title={t("collection.codes")}
        extra={
          <Space>
            <Select
              style={{ width: 260 }}
              value={account}
              onChange={setPassportId}
              aria-label={t("collection.account")}
              options={[
                ...(owner ? [{ value: owner, label: t("collection.mainAccount") }] : []),
                ...(subs.data?.list ?? []).map((s) => ({ value: s.passportId, label: `${s.name} (${s.email})` })),
              ]}
            />
            <Button type="primary" onClick={() => setAdding(true)} data-testid="paycode-add">
              {t("collection.addCode")}
            </Button>
          </Space>
        }
      >
        <Table<PayCode>
          rowKey="id"
          size="small"
          pagination={false}
          dataSource={codes.data?.list ?? []}
          columns={[
            { title: t("collection.codeName"), dataIndex: "name" },
            {
              title: t("collection.codeAmountCol"),
              dataIndex: "amount",
              width: 120,
              align: "right",
              render: (a: number | null) =>
                a === null ? "-" : formatMoney({ amount: a, currency: me?.merchant?.currency ?? "CNY" }),
            },
            { title: t("stores.link"), dataIndex: "url", ellipsis: true },
            {
              title: t("stores.actions"),
              key: "actions",
              width: 160,
              render: (_: unknown, c) => (
                <Space size={0}>
                  <Button type="link" size="small" onClick={() => setShown(c)}>
                    {t("stores.showCode")}
                  </Button>
                  <Button type="link" size="small" danger onClick={() => void retire(c)}>
                    {t("stores.delete")}
                  </Button>
                </Space>
              ),
            },
          ]}
        />
      </Card>
      <ListPage<PayOrder>
        rowKey="id"
        columns={orderColumns}
        scrollX={1200}
        search={{ dateMode: "date", input: { keys: [{ value: "orderNo", label: t("collection.orderNo") }] } }}
        query={(state) => {
          const q = {
            page: state.page,
            pageSize: state.pageSize,
            orderNo: state.values.inpVal,
            ...dayRange(state.values),
          };
          return { queryKey: collectionKeys.orders("brand", q), queryFn: () => collectionApi.orders(q) };
        }}
      />
      <Modal
        open={adding}
        title={t("collection.addCode")}
        onCancel={() => setAdding(false)}
        onOk={() => void save()}
        forceRender
      >
        <Form form={form} layout="vertical">
          <Form.Item
            name="name"
            label={t("collection.codeName")}
            rules={[{ required: true, message: t("stores.required") }]}
          >
            <Input maxLength={40} />
          </Form.Item>
          <Form.Item name="storeId" label={t("stores.name")}>
            <Select allowClear options={(stores.data?.list ?? []).map((s) => ({ value: s.id, label: s.name }))} />
          </Form.Item>
          <Form.Item
            name="amount"
            label={t("collection.codeAmount")}
            extra={t("collection.codeAmountHint")}
            rules={[{ pattern: /^\d{1,6}(\.\d{1,2})?$/, message: t("collection.amountInvalid") }]}
          >
            <Input inputMode="decimal" placeholder="0.00" maxLength={9} />
          </Form.Item>
        </Form>
      </Modal>
      {shown && <PayCodeDialog code={shown} onClose={() => setShown(null)} />}
    </Flex>
  );
}
