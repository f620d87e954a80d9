import { App, Button, Form, Input, Modal, Radio, Space, Tag, type TableColumnsType } from "antd";
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { ORDER_STATES, type FulfilReq, type OrderState, type PurchaseOrder } from "@tessera/contracts";
import { ordersQuery, useFulfilOrder } from "./api";
import { confirmMoney } from "../../ui/confirmMoney";
import { reportFailure } from "../../ui/form/serverError";
import { useMessageText } from "../../ui/form/useZodRules";
import { ListPage } from "../../ui/list/ListPage";
import { formatMoney } from "../../ui/money";
import { OrderChatButton } from "../../chat/OrderChatButton";
import { ORDER_LIST_PATHS, orderFilters } from "./listFilters";
import { OrderCodesDrawer } from "./OrderCodesDrawer";
import { RefundDialog } from "./RefundDialog";
import { formatTime } from "../../ui/time";

const STATE_COLOR: Record<OrderState, string> = { processing: "processing", success: "success", failure: "error" };

/**
 * The supplier reports a direct top-up: success with the upstream channel ID, or failure, which refunds the
 * purchaser at once and for good: that asks first, with the order, the amount and where it goes (issue 37).
 */
function FulfilDialog({ order, onClose }: { order: PurchaseOrder; onClose: () => void }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const text = useMessageText();
  const [form] = Form.useForm<{ result: "success" | "failure"; upstreamChannelId?: string; reason?: string }>();
  const result = Form.useWatch("result", form) ?? "success";
  const fulfil = useFulfilOrder();
  const report = async (req: FulfilReq) => {
    const res = await fulfil.mutateAsync({ id: order.id, ...req });
    if (reportFailure(res, form, ["upstreamChannelId", "reason"], (m) => void message.error(m))) return;
    void message.success(t("order.fulfilled"));
    onClose();
  };
  const submit = (v: { result: "success" | "failure"; upstreamChannelId?: string; reason?: string }) => {
    if (v.result === "success") {
      void report({ result: "success", upstreamChannelId: v.upstreamChannelId?.trim() ?? "" });
      return;
    }
    confirmMoney(modal, {
      action: t("order.failTopUp"),
      amount: order.amount,
      effect: t("order.failTopUpEffect", {
        orderNo: order.orderNo,
        amount: formatMoney(order.amount),
        purchaser: order.purchaserName,
        account: t(order.paidFrom === "rebate" ? "order.paidFromRebate" : "order.paidFromSup"),
      }),
      danger: true,
      testId: "fail-topup-confirm",
      onOk: () => report({ result: "failure", reason: v.reason?.trim() ?? "" }),
    });
  };
  return (
    <Modal open title={`${t("order.fulfil")} · ${order.orderNo}`} onCancel={onClose} footer={null} destroyOnHidden>
      <Form form={form} layout="vertical" initialValues={{ result: "success" }} onFinish={submit} requiredMark={false}>
        <Form.Item name="result" label={t("order.result")}>
          <Radio.Group
            optionType="button"
            options={[
              { value: "success", label: t("order.state.success") },
              { value: "failure", label: t("order.state.failure") },
            ]}
          />
        </Form.Item>
        {result === "success" ? (
          <Form.Item
            name="upstreamChannelId"
            label={t("order.upstreamChannelId")}
            rules={[{ required: true, whitespace: true, message: text("order.channelIdEmpty") }]}
          >
            <Input maxLength={64} data-testid="channel-id" />
          </Form.Item>
        ) : (
          <Form.Item
            name="reason"
            label={t("funds.reason")}
            rules={[{ required: true, whitespace: true, message: text("funds.reasonEmpty") }]}
          >
            <Input.TextArea rows={3} maxLength={200} />
          </Form.Item>
        )}
        <Button type="primary" htmlType="submit" block loading={fulfil.isPending} data-testid="fulfil-submit">
          {t("common.confirm")}
        </Button>
      </Form>
    </Modal>
  );
}

/**
 * Purchase orders (spec 01 §3 Purchase order): the purchaser's (with its codes) or the supplier's (with
 * fulfilment of direct top-ups).
 */
export function OrderList({ side, header }: { side: "purchaser" | "supplier"; header?: ReactNode }) {
  const { t } = useTranslation();
  const [codesOf, setCodesOf] = useState<PurchaseOrder | null>(null);
  const [fulfilling, setFulfilling] = useState<PurchaseOrder | null>(null);
  const [refunding, setRefunding] = useState<PurchaseOrder | null>(null);
  const columns: TableColumnsType<PurchaseOrder> = [
    {
      title: t("order.col.time"),
      dataIndex: "createdAt",
      width: 150,
      render: (v: string) => formatTime(v),
    },
    { title: t("order.col.orderNo"), dataIndex: "orderNo" },
    { title: t("order.col.goods"), key: "goods", render: (_: unknown, o) => `${o.goodsName} (${o.goodsId})` },
    side === "purchaser"
      ? {
          title: t("order.col.supplier"),
          key: "supplier",
          render: (_: unknown, o: PurchaseOrder) => `${o.supplierName} (${o.supplierId})`,
        }
      : {
          title: t("order.col.purchaser"),
          key: "purchaser",
          render: (_: unknown, o: PurchaseOrder) => `${o.purchaserName} (${o.purchaserId})`,
        },
    {
      title: t("order.col.price"),
      dataIndex: "unitPrice",
      align: "right",
      render: (v: PurchaseOrder["unitPrice"]) => formatMoney(v),
    },
    { title: t("order.col.quantity"), dataIndex: "quantity", align: "right" },
    {
      title: t("order.col.amount"),
      dataIndex: "amount",
      align: "right",
      render: (v: PurchaseOrder["amount"]) => formatMoney(v),
    },
    ...(side === "purchaser"
      ? [
          {
            title: t("order.payFrom"),
            key: "paidFrom",
            render: (_: unknown, o: PurchaseOrder) =>
              t(o.paidFrom === "rebate" ? "order.paidFromRebate" : "order.paidFromSup"),
          },
        ]
      : []),
    { title: t("order.col.account"), key: "account", render: (_: unknown, o) => o.topUpAccount ?? "-" },
    {
      title: t("order.col.state"),
      dataIndex: "state",
      render: (v: OrderState, o) => (
        <Space size={4} wrap>
          <Tag color={STATE_COLOR[v]} title={o.failReason ?? undefined}>
            {t(`order.state.${v}`)}
          </Tag>
          {o.refunded && <Tag>{t("order.refunded")}</Tag>}
          {o.upstreamChannelId && <Tag>{o.upstreamChannelId}</Tag>}
        </Space>
      ),
    },
    {
      title: t("funds.col.actions"),
      key: "actions",
      render: (_: unknown, o) => (
        <Space size={0} wrap>
          {side === "purchaser" && o.topUpAccount === null && o.state === "success" ? (
            <>
              <Button type="link" size="small" onClick={() => setCodesOf(o)} data-testid={`codes-${o.orderNo}`}>
                {t("order.codes")}
              </Button>
              <Button type="link" size="small" onClick={() => setRefunding(o)}>
                {t("refund.request")}
              </Button>
            </>
          ) : side === "supplier" && o.state === "processing" ? (
            <Button type="link" size="small" onClick={() => setFulfilling(o)} data-testid={`fulfil-${o.orderNo}`}>
              {t("order.fulfil")}
            </Button>
          ) : null}
          <OrderChatButton order={o} side={side} />
        </Space>
      ),
    },
  ];
  return (
    <>
      <ListPage<PurchaseOrder>
        header={header}
        rowKey="id"
        columns={columns}
        scrollX={1200}
        search={{
          dateMode: "date",
          dateLabel: t("order.col.time"),
          select: {
            keys: [
              {
                value: "state",
                label: t("order.col.state"),
                options: ORDER_STATES.map((s) => ({ value: s, label: t(`order.state.${s}`) })),
              },
            ],
          },
          input: {
            keys: [
              { value: "orderNo", label: t("order.col.orderNo") },
              { value: "goodsId", label: t("order.goodsId"), numeric: true },
              {
                value: "counterpartId",
                label: t(side === "purchaser" ? "order.supplierId" : "order.purchaserId"),
                numeric: true,
              },
            ],
          },
        }}
        query={(state) =>
          ordersQuery({ page: state.page, pageSize: state.pageSize, ...orderFilters(state.values) }, side)
        }
        exportFile={(values) => ({
          path: ORDER_LIST_PATHS[side].orders,
          query: orderFilters(values),
          fileName: `${t(side === "purchaser" ? "order.title.sale" : "order.title.business")}.xlsx`,
        })}
      />
      {codesOf && <OrderCodesDrawer order={codesOf} onClose={() => setCodesOf(null)} />}
      {fulfilling && <FulfilDialog order={fulfilling} onClose={() => setFulfilling(null)} />}
      {refunding && <RefundDialog order={refunding} onClose={() => setRefunding(null)} />}
    </>
  );
}
