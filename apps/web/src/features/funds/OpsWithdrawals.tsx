import { App, Button, Flex, Form, Input, Modal, Space } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { Withdrawal, WithdrawalAction } from "@tessera/contracts";
import { useUserInfo } from "../../api/common";
import { useWithdrawalAction } from "./api";
import { http } from "../../api/http";
import { useMessageText } from "../../ui/form/useZodRules";
import { WithdrawalList } from "./WithdrawalList";
import { formatMoney } from "../../ui/money";
import { PageHint } from "../../ui/PageHint";
import { OpsOnly } from "../accounts/OpsOnly";

/** The actions an operator may take in each state; the second review is for another operator. */
function actionsFor(w: Withdrawal, me: string | undefined): WithdrawalAction[] {
  switch (w.state) {
    case "under_review":
      return ["firstReview", "reject"];
    case "first_review_passed":
      return w.firstReviewedBy === me ? ["reject"] : ["secondReview", "reject"];
    case "bank_paying":
      return ["markPaid", "markFailed"];
    case "success":
    case "failed":
      return [];
  }
}

const NEEDS_REASON: readonly WithdrawalAction[] = ["reject", "markFailed"];

function ReasonDialog({ w, action, onClose }: { w: Withdrawal; action: WithdrawalAction; onClose: () => void }) {
  const { t } = useTranslation();
  const text = useMessageText();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ reason: string }>();
  const act = useWithdrawalAction();
  const submit = async ({ reason }: { reason: string }) => {
    const result = await act.mutateAsync({ id: w.id, action, reason: reason.trim() });
    if (!result?.ok) {
      if (result) form.setFields([{ name: "reason", errors: [result.msg] }]);
      return;
    }
    void message.success(t("withdraw.ops.done"));
    onClose();
  };
  return (
    <Modal
      open
      title={`${t(`withdraw.ops.${action}`)} · ${formatMoney(w.amount)}`}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" onFinish={(v) => void submit(v)} requiredMark={false}>
        <Form.Item
          name="reason"
          label={t("withdraw.ops.reasonTitle")}
          rules={[{ required: true, whitespace: true, message: text("funds.reasonEmpty") }]}
        >
          <Input.TextArea rows={3} maxLength={200} showCount />
        </Form.Item>
        <Button type="primary" danger htmlType="submit" block loading={act.isPending}>
          {t(`withdraw.ops.${action}`)}
        </Button>
      </Form>
    </Modal>
  );
}

/**
 * `/ops/Withdrawals`: every merchant's withdrawals. First and second reviews by two different
 * operators, then the payout goes to the bank; the bank's answer is recorded as paid or failed.
 */
export default function Withdrawals() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const { data: me } = useUserInfo();
  const act = useWithdrawalAction();
  const [asking, setAsking] = useState<{ w: Withdrawal; action: WithdrawalAction } | null>(null);

  const run = (w: Withdrawal, action: WithdrawalAction) => {
    if (NEEDS_REASON.includes(action)) {
      setAsking({ w, action });
      return;
    }
    modal.confirm({
      title: `${t(`withdraw.ops.${action}`)} · ${formatMoney(w.amount)}`,
      content: `${w.merchantName} (${w.merchantId}) → ${w.card.companyName} ${w.card.bank} ${w.card.account}`,
      onOk: () =>
        act.mutateAsync({ id: w.id, action }).then((result) => {
          if (result?.ok) void message.success(t("withdraw.ops.done"));
          else if (result) void message.error(result.msg);
        }),
    });
  };

  const autoPayout = async () => {
    const result = await http.post<{ created: number; held: number; skipped: number }>(
      "/api/ops/withdrawals/autoPayout",
      {},
    );
    if (result?.ok) void message.success(t("withdraw.ops.autoPayoutDone", result.data));
  };

  const header = (
    <Flex vertical gap={16}>
      <PageHint
        id="ops.Withdrawals"
        title={t("withdraw.ops.hintTitle")}
        description={t("withdraw.ops.hint")}
        type="warning"
      />
      <Space>
        <Button onClick={() => void autoPayout()}>{t("withdraw.ops.autoPayout")}</Button>
      </Space>
    </Flex>
  );
  return (
    <OpsOnly>
      <WithdrawalList
        scope="ops"
        header={header}
        actions={(w) => (
          <Space size={0} wrap>
            {actionsFor(w, me?.userId).map((a) => (
              <Button
                key={a}
                type="link"
                size="small"
                danger={NEEDS_REASON.includes(a)}
                onClick={() => run(w, a)}
                data-testid={`wd-${a}-${w.id}`}
              >
                {t(`withdraw.ops.${a}`)}
              </Button>
            ))}
          </Space>
        )}
      />
      {asking && <ReasonDialog w={asking.w} action={asking.action} onClose={() => setAsking(null)} />}
    </OpsOnly>
  );
}
