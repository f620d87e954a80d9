import { useQueryClient } from "@tanstack/react-query";
import { App, Form, Input, Modal, Tag, type TableColumnsType } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { PayOrder, PayRefund } from "@tessera/contracts";
import { reportFailure } from "../../ui/form/serverError";
import { ListPage } from "../../ui/list/ListPage";
import { confirmMoney } from "../../ui/confirmMoney";
import { formatMoney, parseMoney } from "../../ui/money";
import { PageHint } from "../../ui/PageHint";
import { collectionApi, collectionKeys, newRequestKey } from "./api";
import { formatTime } from "../../ui/time";

const COLOR: Record<PayRefund["state"], string> = { PROCESSING: "blue", SUCCESS: "green", FAILURE: "red" };

/**
 * `/business/WechatRefundOrder`: refunds of collected payments: refund all or part of a paid order (never
 * more than is left; one request key per dialog, so a double click refunds once), and the refunds with
 * their state (processing, success, failure).
 */
export default function WechatRefundOrder() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const qc = useQueryClient();
  const [form] = Form.useForm<{ orderNo: string; amount: string; reason?: string }>();
  const [open, setOpen] = useState<{ key: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    const v = await form.validateFields();
    const orders = await collectionApi.orders({ page: 1, pageSize: 20, orderNo: v.orderNo.trim() });
    const order: PayOrder | undefined = orders.list[0];
    if (!order) {
      form.setFields([{ name: "orderNo", errors: [t("collection.orderUnknown")] }]);
      return;
    }
    const amount = parseMoney(v.amount, order.amount.currency);
    if (!amount) {
      form.setFields([{ name: "amount", errors: [t("collection.amountInvalid")] }]);
      return;
    }
    // More than is left is refused here, before the question (the server refuses it too).
    const left = { amount: order.amount.amount - order.refunded.amount, currency: order.amount.currency };
    if (amount > left.amount) {
      form.setFields([{ name: "amount", errors: [t("collection.refundTooMuch", { left: formatMoney(left) })] }]);
      return;
    }
    const money = { amount, currency: order.amount.currency };
    const requestKey = open?.key ?? newRequestKey();
    // The money goes back to the payer on the answer only (issue 37).
    confirmMoney(modal, {
      action: t("collection.refundConfirm"),
      amount: money,
      effect: t("collection.refundEffect", { amount: formatMoney(money), orderNo: order.orderNo }),
      danger: true,
      testId: "refund-confirm",
      onOk: async () => {
        setBusy(true);
        try {
          const r = await collectionApi.refund({ orderId: order.id, amount, reason: v.reason ?? "", requestKey });
          if (reportFailure(r, form, ["amount", "reason"], (msg) => void message.error(msg)) || !r?.ok) return;
          void message.success(t(`collection.refundStates.${r.data.state}`));
          setOpen(null);
          form.resetFields();
          void qc.invalidateQueries({ queryKey: collectionKeys.all });
        } finally {
          setBusy(false);
        }
      },
    });
  };

  const columns: TableColumnsType<PayRefund> = [
    {
      title: t("collection.refundTime"),
      dataIndex: "createdAt",
      width: 170,
      render: (v: string) => formatTime(v, { seconds: true }),
    },
    { title: t("collection.orderNo"), dataIndex: "orderNo", width: 220 },
    {
      title: t("collection.refundAmount"),
      dataIndex: "amount",
      width: 120,
      align: "right",
      render: (m: PayRefund["amount"]) => formatMoney(m),
    },
    {
      title: t("collection.feeBack"),
      dataIndex: "feeBack",
      width: 120,
      align: "right",
      render: (m: PayRefund["feeBack"]) => formatMoney(m),
    },
    {
      title: t("collection.refundState"),
      dataIndex: "state",
      width: 110,
      render: (s: PayRefund["state"]) => <Tag color={COLOR[s]}>{t(`collection.refundStates.${s}`)}</Tag>,
    },
    { title: t("collection.refundReason"), dataIndex: "reason", ellipsis: true },
    {
      title: t("collection.failReason"),
      dataIndex: "failReason",
      ellipsis: true,
      render: (v: string | null) => v ?? "-",
    },
  ];
  return (
    <>
      <ListPage<PayRefund>
        header={
          <PageHint
            id="business.WechatRefundOrder"
            title={t("collection.title.refunds")}
            description={t("collection.hint.refunds")}
          />
        }
        rowKey="id"
        columns={columns}
        search={{ add: { label: t("collection.newRefund"), onClick: () => setOpen({ key: newRequestKey() }) } }}
        query={(state) => {
          const q = { page: state.page, pageSize: state.pageSize };
          return { queryKey: collectionKeys.refunds(q), queryFn: () => collectionApi.refunds(q) };
        }}
      />
      <Modal
        open={open !== null}
        title={t("collection.newRefund")}
        onCancel={() => setOpen(null)}
        onOk={() => void submit()}
        confirmLoading={busy}
        forceRender
        okButtonProps={{ "data-testid": "refund-ok" }}
      >
        <Form form={form} layout="vertical">
          <Form.Item
            name="orderNo"
            label={t("collection.orderNo")}
            rules={[{ required: true, message: t("stores.required") }]}
          >
            <Input maxLength={40} />
          </Form.Item>
          <Form.Item
            name="amount"
            label={t("collection.refundAmount")}
            rules={[{ required: true, message: t("stores.required") }]}
          >
            <Input inputMode="decimal" placeholder="0.00" />
          </Form.Item>
          <Form.Item name="reason" label={t("collection.refundReason")}>
            <Input maxLength={80} />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
