import { App, Button, Form, Input, InputNumber, Modal } from "antd";
import { useTranslation } from "react-i18next";
import type { PurchaseOrder } from "@tessera/contracts";
import { useRequestRefund } from "./api";
import { reportFailure } from "../../ui/form/serverError";
import { useMessageText } from "../../ui/form/useZodRules";

/** The purchaser asks to return unused codes of an order (sale/OnlineRefundSheet). */
export function RefundDialog({ order, onClose }: { order: PurchaseOrder; onClose: () => void }) {
  const { t } = useTranslation();
  const text = useMessageText();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ quantity: number; reason: string }>();
  const request = useRequestRefund();
  const submit = async (v: { quantity: number; reason: string }) => {
    const result = await request.mutateAsync({ orderId: order.id, quantity: v.quantity, reason: v.reason.trim() });
    if (reportFailure(result, form, ["quantity", "reason"], (m) => void message.error(m))) return;
    void message.success(t("refund.requested"));
    onClose();
  };
  return (
    <Modal open title={`${t("refund.request")} · ${order.orderNo}`} onCancel={onClose} footer={null} destroyOnHidden>
      <Form
        form={form}
        layout="vertical"
        initialValues={{ quantity: 1 }}
        onFinish={(v) => void submit(v)}
        requiredMark={false}
      >
        <Form.Item
          name="quantity"
          label={t("order.col.quantity")}
          rules={[
            {
              required: true,
              type: "integer",
              min: 1,
              max: order.quantity,
              message: t("order.quantityRange", { max: order.quantity }),
            },
          ]}
        >
          <InputNumber min={1} max={order.quantity} precision={0} style={{ width: 160 }} />
        </Form.Item>
        <Form.Item
          name="reason"
          label={t("refund.col.reason")}
          rules={[{ required: true, whitespace: true, message: text("funds.reasonEmpty") }]}
        >
          <Input.TextArea rows={3} maxLength={200} showCount />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={request.isPending}>
          {t("refund.request")}
        </Button>
      </Form>
    </Modal>
  );
}
