import { App, Descriptions, Form, InputNumber, Modal, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { OcProduct } from "@tessera/contracts";
import { useUserInfo } from "../../api/common";
import { reportFailure } from "../../ui/form/serverError";
import { formatMoney } from "../../ui/money";
import { newRequestKey, ocSaleApi } from "./api";
import { validityText } from "./labels";

/**
 * Buys cards of one product in bulk, paid from the SUP account. The request key is made when the
 * dialog opens, so a retry after a lost reply buys once.
 */
export function BuyDialog({
  product,
  onClose,
  onBought,
}: {
  product: OcProduct;
  onClose: () => void;
  onBought: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ quantity: number }>();
  const [requestKey] = useState(() => newRequestKey("ocbuy"));
  const [saving, setSaving] = useState(false);
  const quantity = Form.useWatch("quantity", form) ?? 1;
  const sup = useUserInfo().data?.balances?.sup;
  const total = { amount: product.salePrice.amount * (Number(quantity) || 0), currency: product.salePrice.currency };
  const short = sup !== undefined && sup.amount < total.amount;

  const submit = async () => {
    const v = await form.validateFields();
    setSaving(true);
    try {
      const r = await ocSaleApi.purchase({ productId: product.id, quantity: v.quantity, requestKey });
      if (reportFailure(r, form, ["quantity"], (msg) => void message.error(msg)) || !r?.ok) return;
      void message.success(t("onecard.bo.bought", { count: r.data.quantity }));
      onBought();
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open
      title={`${t("onecard.bo.buy")} · ${product.name}`}
      onCancel={onClose}
      onOk={() => void submit()}
      okText={t("onecard.bo.buy")}
      okButtonProps={{ "data-testid": "buy-submit" }}
      confirmLoading={saving}
      maskClosable={false}
      destroyOnHidden
    >
      <Descriptions size="small" column={2} style={{ marginBottom: 16 }}>
        <Descriptions.Item label={t("onecard.bo.brand")}>{product.branderName}</Descriptions.Item>
        <Descriptions.Item label={t("onecard.bo.kindLabel")}>{t(`onecard.bo.kind.${product.kind}`)}</Descriptions.Item>
        <Descriptions.Item label={t("onecard.faceValue")}>{formatMoney(product.faceValue)}</Descriptions.Item>
        <Descriptions.Item label={t("onecard.bo.salePrice")}>{formatMoney(product.salePrice)}</Descriptions.Item>
        <Descriptions.Item label={t("onecard.bo.validity")}>{validityText(t, product.validity)}</Descriptions.Item>
        <Descriptions.Item label={t("onecard.bo.stock")}>{product.stock}</Descriptions.Item>
      </Descriptions>
      <Form form={form} layout="vertical" initialValues={{ quantity: 1 }}>
        <Form.Item
          name="quantity"
          label={t("onecard.bo.quantity")}
          rules={[{ required: true, message: t("onecard.bo.required") }]}
        >
          <InputNumber
            min={1}
            max={Math.max(1, Math.min(10_000, product.stock))}
            precision={0}
            style={{ width: 200 }}
            data-testid="buy-quantity"
          />
        </Form.Item>
      </Form>
      <Typography.Text strong data-testid="buy-total">
        {t("onecard.bo.total", { amount: formatMoney(total) })}
      </Typography.Text>
      {sup && (
        <div>
          <Typography.Text type={short ? "danger" : "secondary"}>
            {t("onecard.bo.supBalance", { amount: formatMoney(sup) })}
          </Typography.Text>
        </div>
      )}
    </Modal>
  );
}
