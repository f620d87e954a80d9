import { App, Button, Form, Input, Modal, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { Currency, Money } from "@tessera/contracts";
import type { ApiResult } from "../../api/envelope";
import { newRequestKey } from "./api";
import { useMessageText } from "../../ui/form/useZodRules";
import { CURRENCY_SYMBOLS, formatMoney, parseMoney } from "../../ui/money";

interface Values {
  amount: string;
  reason?: string;
  merchantId?: string;
}

export interface AmountDialogProps {
  title: string;
  currency: Currency;
  /** Shown under the amount, e.g. the balance that can be moved. */
  available?: Money;
  /** Ask for a reason too (operator movements). */
  withReason?: boolean;
  /** Ask which merchant (operator movements). */
  withMerchantId?: boolean;
  onSubmit: (req: {
    amount: number;
    requestKey: string;
    reason: string;
    merchantId: string;
  }) => Promise<ApiResult<unknown> | undefined>;
  successText: string;
  onClose: () => void;
}

/**
 * Asks for an amount (and a reason when needed) and submits it once: the request key is made when the
 * dialog opens, so a double click or a retry after a network error cannot move money twice.
 */
export function AmountDialog(props: AmountDialogProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const text = useMessageText();
  const [form] = Form.useForm<Values>();
  const [requestKey] = useState(newRequestKey);
  const [pending, setPending] = useState(false);

  const submit = async (v: Values) => {
    const amount = parseMoney(v.amount, props.currency);
    if (!amount) return;
    setPending(true);
    try {
      const result = await props.onSubmit({
        amount,
        requestKey,
        reason: v.reason?.trim() ?? "",
        merchantId: v.merchantId?.trim() ?? "",
      });
      if (!result) return;
      if (!result.ok) {
        form.setFields([{ name: result.data?.field === "reason" ? "reason" : "amount", errors: [result.msg] }]);
        return;
      }
      void message.success(props.successText);
      props.onClose();
    } finally {
      setPending(false);
    }
  };

  return (
    <Modal open title={props.title} onCancel={props.onClose} footer={null} destroyOnHidden mask={{ closable: false }}>
      <Form<Values>
        form={form}
        layout="vertical"
        requiredMark={false}
        onFinish={(v) => void submit(v)}
        style={{ paddingTop: 8 }}
      >
        {props.withMerchantId && (
          <Form.Item
            name="merchantId"
            label={t("funds.col.merchantId")}
            rules={[{ required: true, pattern: /^\d{1,18}$/, message: t("funds.ops.merchantIdInvalid") }]}
          >
            <Input inputMode="numeric" maxLength={18} />
          </Form.Item>
        )}
        <Form.Item
          name="amount"
          label={t("funds.amount")}
          extra={props.available ? t("funds.available", { amount: formatMoney(props.available) }) : undefined}
          rules={[
            { required: true, whitespace: true, message: text("funds.amountEmpty") },
            {
              validator: (_r, v: string | undefined) =>
                !v || (parseMoney(v, props.currency) ?? 0) > 0
                  ? Promise.resolve()
                  : Promise.reject(new Error(text("funds.amountInvalid"))),
            },
          ]}
        >
          {/* An operator's movement is in the merchant's own currency, which the dialog does not know. */}
          <Input
            prefix={props.withMerchantId ? undefined : CURRENCY_SYMBOLS[props.currency]}
            inputMode="decimal"
            placeholder="0.00"
            data-testid="amount-input"
          />
        </Form.Item>
        {props.withReason && (
          <Form.Item
            name="reason"
            label={t("funds.reason")}
            rules={[{ required: true, whitespace: true, message: text("funds.reasonEmpty") }]}
          >
            <Input.TextArea rows={3} maxLength={200} showCount />
          </Form.Item>
        )}
        <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
          {t("funds.onceHint")}
        </Typography.Paragraph>
        <Button type="primary" htmlType="submit" block loading={pending}>
          {t("common.confirm")}
        </Button>
      </Form>
    </Modal>
  );
}
