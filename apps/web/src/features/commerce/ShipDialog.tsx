import { App, Form, Input, Modal } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { CommerceOrder } from "@tessera/contracts";
import { reportFailure } from "../../ui/form/serverError";
import { CompanyField } from "./AftersaleDialog";
import { brandApi } from "./api";

/** Ships an order (`order/express/create`): the courier issues the waybill, or the brand types its own. */
export function ShipDialog({
  order,
  onClose,
  onShipped,
}: {
  order: CommerceOrder;
  onClose: () => void;
  onShipped: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ companyCode: string; waybillNo?: string }>();
  const [saving, setSaving] = useState(false);
  const submit = async () => {
    const v = await form.validateFields();
    setSaving(true);
    try {
      const r = await brandApi.ship({
        orderId: order.id,
        companyCode: v.companyCode,
        ...(v.waybillNo && { waybillNo: v.waybillNo }),
      });
      if (reportFailure(r, form, ["companyCode", "waybillNo"], (msg) => void message.error(msg)) || !r?.ok) return;
      void message.success(t("commerce.shipped"));
      onShipped();
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open
      title={t("commerce.shipTitle", { no: order.orderNo })}
      onCancel={onClose}
      onOk={() => void submit()}
      confirmLoading={saving}
      okText={t("commerce.ship")}
      destroyOnHidden
    >
      <Form form={form} layout="vertical">
        <CompanyField />
        <Form.Item name="waybillNo" label={t("commerce.waybillNo")} extra={t("commerce.waybillHelp")}>
          <Input maxLength={32} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
