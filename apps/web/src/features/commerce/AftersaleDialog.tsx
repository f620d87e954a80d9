import { useQuery } from "@tanstack/react-query";
import { App, Form, Input, InputNumber, Modal, Radio, Select } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { AfterSaleWay, CommerceOrder } from "@tessera/contracts";
import { reportFailure } from "../../ui/form/serverError";
import { formatMoney, parseMoney } from "../../ui/money";
import { buyerApi, commerceKeys, newRequestKey, sharedApi } from "./api";
import { skuLabel } from "./labels";

interface FormValues {
  orderItemId: string;
  way: AfterSaleWay;
  quantity: number;
  amount: string;
  reason: string;
}
const FIELDS = ["orderItemId", "way", "quantity", "amount", "reason"] as const;

/** Applies for after-sales on one line of an order: refund only, or return and refund once shipped. */
export function AftersaleDialog({
  order,
  onClose,
  onDone,
}: {
  order: CommerceOrder;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<FormValues>();
  const [saving, setSaving] = useState(false);
  const [requestKey] = useState(() => newRequestKey("cmas"));
  const itemId = Form.useWatch("orderItemId", form);
  const item = order.items.find((i) => i.id === itemId) ?? order.items[0];
  const quantity = Form.useWatch("quantity", form);
  // What was paid for the units asked for (the server adds the freight with the order's last units and has the last word).
  const left = item ? item.quantity - item.returnedQty : 0;
  const units = typeof quantity === "number" ? Math.min(quantity, left) : left;
  const lineLeft = item ? item.amount.amount - item.refunded.amount : 0;
  const refundable =
    item && units < left ? Math.min(lineLeft, Math.floor((item.amount.amount * units) / item.quantity)) : lineLeft;
  const currency = order.payAmount.currency;
  const shipped = order.state !== "to_ship";
  const required = { required: true, message: t("commerce.required") };

  const submit = async () => {
    const v = await form.validateFields();
    const amount = parseMoney(v.amount, currency);
    if (amount === null) {
      form.setFields([{ name: "amount", errors: [t("commerce.required")] }]);
      return;
    }
    setSaving(true);
    try {
      const r = await buyerApi.applyAftersale({
        orderItemId: v.orderItemId,
        way: v.way,
        quantity: v.quantity,
        amount,
        reason: v.reason,
        requestKey,
      });
      if (reportFailure(r, form, FIELDS, (msg) => void message.error(msg)) || !r?.ok) return;
      void message.success(t("commerce.as.submitted"));
      onDone();
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open
      title={t("commerce.as.applyTitle")}
      onCancel={onClose}
      onOk={() => void submit()}
      confirmLoading={saving}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={{
          orderItemId: order.items[0]?.id,
          way: shipped ? "return_and_refund" : "refund",
          quantity: order.items[0]?.quantity ?? 1,
          amount: order.items[0]
            ? ((order.items[0].amount.amount - order.items[0].refunded.amount) / 100).toFixed(2)
            : "",
        }}
      >
        <Form.Item name="orderItemId" label={t("commerce.items")} rules={[required]}>
          <Select
            options={order.items.map((i) => ({ value: i.id, label: `${i.name} ${skuLabel(i.specs)} × ${i.quantity}` }))}
          />
        </Form.Item>
        <Form.Item name="way" label={t("commerce.as.apply")} rules={[required]}>
          <Radio.Group
            options={[
              { value: "refund", label: t("commerce.as.way.refund") },
              { value: "return_and_refund", label: t("commerce.as.way.return_and_refund"), disabled: !shipped },
            ]}
          />
        </Form.Item>
        <Form.Item name="quantity" label={t("commerce.as.quantity")} rules={[required]}>
          <InputNumber min={1} max={item?.quantity ?? 1} precision={0} style={{ width: "100%" }} />
        </Form.Item>
        <Form.Item
          name="amount"
          label={t("commerce.as.amount")}
          extra={t("commerce.as.maxAmount", { max: formatMoney({ amount: refundable, currency }) })}
          rules={[required]}
        >
          <Input inputMode="decimal" />
        </Form.Item>
        <Form.Item name="reason" label={t("commerce.as.reason")} rules={[required]}>
          <Input.TextArea maxLength={200} rows={2} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** The purchaser sends the goods back: express company and waybill number. */
export function ShipBackDialog({ id, onClose, onDone }: { id: string; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ companyCode: string; waybillNo: string }>();
  const [saving, setSaving] = useState(false);
  const required = { required: true, message: t("commerce.required") };
  const submit = async () => {
    const v = await form.validateFields();
    setSaving(true);
    try {
      const r = await buyerApi.shipBack(id, v);
      if (reportFailure(r, form, ["companyCode", "waybillNo"], (msg) => void message.error(msg)) || !r?.ok) return;
      void message.success(t("commerce.as.done"));
      onDone();
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open
      title={t("commerce.as.shipBackTitle")}
      onCancel={onClose}
      onOk={() => void submit()}
      confirmLoading={saving}
      destroyOnHidden
    >
      <Form form={form} layout="vertical">
        <CompanyField />
        <Form.Item name="waybillNo" label={t("commerce.waybillNo")} rules={[required]}>
          <Input maxLength={32} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** The express company select (`express_company/pager`). */
export function CompanyField() {
  const { t } = useTranslation();
  const { data } = useQuery({ queryKey: commerceKeys.companies, queryFn: sharedApi.companies, staleTime: Infinity });
  return (
    <Form.Item
      name="companyCode"
      label={t("commerce.company")}
      rules={[{ required: true, message: t("commerce.required") }]}
    >
      <Select
        showSearch
        optionFilterProp="label"
        options={(data ?? []).map((c) => ({ value: c.code, label: c.name }))}
        aria-label="company"
      />
    </Form.Item>
  );
}
