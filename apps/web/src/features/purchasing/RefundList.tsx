import { App, Button, Form, Input, Modal, Space, Tag, type TableColumnsType } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { REFUND_STATES, type RefundOrder, type RefundState } from "@tessera/contracts";
import { refundsQuery, useDecideRefund } from "./api";
import { useMessageText } from "../../ui/form/useZodRules";
import { ListPage } from "../../ui/list/ListPage";
import { ORDER_LIST_PATHS, orderFilters } from "./listFilters";
import { confirmMoney } from "../../ui/confirmMoney";
import { formatMoney } from "../../ui/money";
import { formatTime } from "../../ui/time";

const STATE_COLOR: Record<RefundState, string> = {
  processing: "processing",
  success: "success",
  failure: "error",
  abnormal: "warning",
};

function RefuseDialog({ refund, onClose }: { refund: RefundOrder; onClose: () => void }) {
  const { t } = useTranslation();
  const text = useMessageText();
  const decide = useDecideRefund();
  const [form] = Form.useForm<{ reason: string }>();
  const submit = async ({ reason }: { reason: string }) => {
    const result = await decide.mutateAsync({ id: refund.id, approve: false, reason: reason.trim() });
    if (result?.ok) onClose();
    else if (result) form.setFields([{ name: "reason", errors: [result.msg] }]);
  };
  return (
    <Modal open title={t("refund.refuse")} onCancel={onClose} footer={null} destroyOnHidden>
      <Form form={form} layout="vertical" onFinish={(v) => void submit(v)} requiredMark={false}>
        <Form.Item
          name="reason"
          label={t("funds.reason")}
          rules={[{ required: true, whitespace: true, message: text("funds.reasonEmpty") }]}
        >
          <Input.TextArea rows={3} maxLength={200} showCount />
        </Form.Item>
        <Button type="primary" danger htmlType="submit" block loading={decide.isPending}>
          {t("refund.refuse")}
        </Button>
      </Form>
    </Modal>
  );
}

/**
 * Refund orders (spec 01 §3 Refund order): refund time, top-up account, refund amount, order, goods,
 * quantity, status; the supplier accepts or refuses the open ones.
 */
export function RefundList({ side }: { side: "purchaser" | "supplier" }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const decide = useDecideRefund();
  const [refusing, setRefusing] = useState<RefundOrder | null>(null);
  // Accepting refunds the purchaser at once: it asks first, with the amount and its effect (issue 37).
  const accept = (r: RefundOrder) =>
    confirmMoney(modal, {
      action: t("refund.accept"),
      amount: r.amount,
      effect: t("refund.acceptEffect", { quantity: r.quantity, amount: formatMoney(r.amount), orderNo: r.orderNo }),
      danger: true,
      testId: "accept-refund-confirm",
      onOk: () =>
        decide.mutateAsync({ id: r.id, approve: true }).then((res) => {
          if (res?.ok) void message.success(t("refund.accepted"));
          else if (res) void message.error(res.msg);
        }),
    });
  const columns: TableColumnsType<RefundOrder> = [
    {
      title: t("refund.col.time"),
      dataIndex: "createdAt",
      width: 150,
      render: (v: string) => formatTime(v),
    },
    { title: t("order.col.orderNo"), dataIndex: "orderNo" },
    { title: t("order.col.goods"), dataIndex: "goodsName" },
    { title: t("order.col.account"), dataIndex: "topUpAccount", render: (v: string | null) => v ?? "-" },
    { title: t("order.col.quantity"), dataIndex: "quantity", align: "right" },
    {
      title: t("refund.col.amount"),
      dataIndex: "amount",
      align: "right",
      render: (v: RefundOrder["amount"]) => formatMoney(v),
    },
    {
      title: t("refund.col.orderAmount"),
      dataIndex: "orderAmount",
      align: "right",
      render: (v: RefundOrder["orderAmount"]) => formatMoney(v),
    },
    {
      title: t("refund.col.reason"),
      dataIndex: "reason",
      ellipsis: true,
      render: (v: string, r: RefundOrder) => (r.cause === "expiry" ? t("refund.expiry") : v),
    },
    {
      title: t("order.col.state"),
      dataIndex: "state",
      render: (v: RefundState, r) => (
        <Tag color={STATE_COLOR[v]} title={r.failReason ?? undefined}>
          {t(`refund.state.${v}`)}
        </Tag>
      ),
    },
    ...(side === "supplier"
      ? [
          {
            title: t("funds.col.actions"),
            key: "actions",
            render: (_: unknown, r: RefundOrder) =>
              r.state === "processing" || r.state === "abnormal" ? (
                <Space size={0}>
                  <Button type="link" size="small" onClick={() => accept(r)} data-testid={`accept-refund-${r.id}`}>
                    {t("refund.accept")}
                  </Button>
                  <Button type="link" size="small" danger onClick={() => setRefusing(r)}>
                    {t("refund.refuse")}
                  </Button>
                </Space>
              ) : null,
          },
        ]
      : []),
  ];
  return (
    <>
      <ListPage<RefundOrder>
        rowKey="id"
        columns={columns}
        scrollX={1100}
        search={{
          dateMode: "date",
          dateLabel: t("refund.col.time"),
          select: {
            keys: [
              {
                value: "state",
                label: t("order.col.state"),
                options: REFUND_STATES.map((s) => ({ value: s, label: t(`refund.state.${s}`) })),
              },
            ],
          },
          input: { keys: [{ value: "orderNo", label: t("order.col.orderNo") }] },
        }}
        query={(state) =>
          refundsQuery({ page: state.page, pageSize: state.pageSize, ...orderFilters(state.values) }, side)
        }
        exportFile={(values) => ({
          path: ORDER_LIST_PATHS[side].refunds,
          query: orderFilters(values),
          fileName: `${t("order.tab.refunds")}.xlsx`,
        })}
      />
      {refusing && <RefuseDialog refund={refusing} onClose={() => setRefusing(null)} />}
    </>
  );
}
