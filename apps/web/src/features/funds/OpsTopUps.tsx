import { App, Button, Flex, Form, Input, Modal, Space } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { TopUpNotice } from "@tessera/contracts";
import { useOperatorMovement, useReviewTopUp } from "./api";
import { useMessageText } from "../../ui/form/useZodRules";
import { AmountDialog } from "./AmountDialog";
import { TopUpNotices } from "./TopUpNotices";
import { formatMoney } from "../../ui/money";
import { PageHint } from "../../ui/PageHint";
import { OpsOnly } from "../accounts/OpsOnly";

/** Asks for the reason of a rejection. */
function RejectDialog({ notice, onClose }: { notice: TopUpNotice; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const text = useMessageText();
  const [form] = Form.useForm<{ reason: string }>();
  const review = useReviewTopUp();
  const submit = async ({ reason }: { reason: string }) => {
    const result = await review.mutateAsync({ id: notice.id, decision: "reject", reason: reason.trim() });
    if (!result?.ok) {
      if (result) form.setFields([{ name: "reason", errors: [result.msg] }]);
      return;
    }
    void message.success(t("funds.ops.rejected"));
    onClose();
  };
  return (
    <Modal open title={t("funds.ops.rejectTitle")} onCancel={onClose} footer={null} destroyOnHidden>
      <Form form={form} layout="vertical" onFinish={(v) => void submit(v)} requiredMark={false}>
        <Form.Item
          name="reason"
          label={t("funds.reason")}
          rules={[{ required: true, whitespace: true, message: text("funds.reasonEmpty") }]}
        >
          <Input.TextArea rows={3} maxLength={200} showCount />
        </Form.Item>
        <Button type="primary" danger htmlType="submit" block loading={review.isPending}>
          {t("funds.ops.reject")}
        </Button>
      </Form>
    </Modal>
  );
}

/**
 * `/ops/TopUps`: purchasers' top-up notices. An operator confirms one against the bank statement
 * (the reserve account is credited less the fee) or rejects it with a reason; manual credits and
 * top-up refunds are made here too. Every action is in the audit log.
 */
export default function TopUps() {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const review = useReviewTopUp();
  const movement = useOperatorMovement();
  const [rejecting, setRejecting] = useState<TopUpNotice | null>(null);
  const [moving, setMoving] = useState<"credit" | "topUpRefund" | null>(null);

  const confirm = (n: TopUpNotice) => {
    modal.confirm({
      title: t("funds.ops.confirm"),
      content: t("funds.ops.confirmAsk", { amount: formatMoney(n.amount), merchant: n.merchantName, id: n.merchantId }),
      onOk: () =>
        review.mutateAsync({ id: n.id, decision: "confirm" }).then((result) => {
          if (result?.ok) void message.success(t("funds.ops.confirmed"));
        }),
    });
  };

  const header = (
    <Flex vertical gap={16}>
      <PageHint
        id="ops.TopUps"
        title={t("funds.hint.opsTopUpsTitle")}
        description={t("funds.hint.opsTopUps")}
        type="warning"
      />
      <Space>
        <Button onClick={() => setMoving("credit")}>{t("funds.ops.credit")}</Button>
        <Button onClick={() => setMoving("topUpRefund")}>{t("funds.ops.refund")}</Button>
      </Space>
    </Flex>
  );

  return (
    <OpsOnly>
      <TopUpNotices
        scope="ops"
        header={header}
        actions={(n) =>
          n.state === "pending" ? (
            <Space size={0}>
              <Button type="link" size="small" onClick={() => confirm(n)} data-testid={`confirm-topup-${n.id}`}>
                {t("funds.ops.confirm")}
              </Button>
              <Button type="link" size="small" danger onClick={() => setRejecting(n)}>
                {t("funds.ops.reject")}
              </Button>
            </Space>
          ) : null
        }
      />
      {rejecting && <RejectDialog notice={rejecting} onClose={() => setRejecting(null)} />}
      {moving && (
        <AmountDialog
          title={t(moving === "credit" ? "funds.ops.credit" : "funds.ops.refund")}
          currency="CNY"
          withReason
          withMerchantId
          successText={t("funds.ops.movementDone")}
          onSubmit={({ merchantId, ...req }) => movement.mutateAsync({ merchantId, kind: moving, ...req })}
          onClose={() => setMoving(null)}
        />
      )}
    </OpsOnly>
  );
}
