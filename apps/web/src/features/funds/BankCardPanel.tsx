import { CreditCardOutlined } from "@ant-design/icons";
import { Button, Card, Descriptions, Form, Input, Modal, Tag, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { bankCardReq, type BankCard, type BankCardReq } from "@tessera/contracts";
import { useSaveWithdrawalCard, useWithdrawalCard } from "./api";
import { useAction } from "../../ui/form/useAction";
import { useZodRules } from "../../ui/form/useZodRules";

const STATE_COLOR: Record<BankCard["state"], string> = {
  pending: "processing",
  approved: "success",
  rejected: "error",
};
const FIELDS = ["companyName", "bank", "city", "account"] as const;

function CardDialog({ current, onClose }: { current: BankCard | null; onClose: () => void }) {
  const { t } = useTranslation();

  const [form] = Form.useForm<BankCardReq>();
  const rule = useZodRules(bankCardReq);
  const save = useSaveWithdrawalCard();
  const { submit } = useAction(form, {
    run: (v: BankCardReq) => save.mutateAsync(v),
    fields: FIELDS,
    success: t("withdraw.cardSaved"),
    then: () => onClose(),
  });
  return (
    <Modal
      open
      title={t(current ? "withdraw.replaceCard" : "withdraw.addCard")}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
      mask={{ closable: false }}
    >
      <Form<BankCardReq>
        form={form}
        layout="vertical"
        requiredMark={false}
        validateTrigger="onBlur"
        onFinish={(v) => void submit(v)}
        initialValues={
          current ? { companyName: current.companyName, bank: current.bank, city: current.city } : undefined
        }
        style={{ paddingTop: 8 }}
      >
        {FIELDS.map((f) => (
          <Form.Item key={f} name={f} label={t(`withdraw.card.${f}`)} rules={[rule(f)]}>
            <Input
              maxLength={f === "companyName" ? 100 : f === "account" ? 40 : 50}
              inputMode={f === "account" ? "numeric" : undefined}
            />
          </Form.Item>
        ))}
        <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
          {t("withdraw.cardReviewHint")}
        </Typography.Paragraph>
        <Button type="primary" htmlType="submit" block loading={save.isPending}>
          {t("common.confirm")}
        </Button>
      </Form>
    </Modal>
  );
}

/** The withdrawal bank card (spec 01 §3): company name, bank, city, account, and its review state. */
export function BankCardPanel() {
  const { t } = useTranslation();
  const { data: card, isLoading } = useWithdrawalCard();
  const [editing, setEditing] = useState(false);
  return (
    <Card
      variant="borderless"
      loading={isLoading}
      title={
        <span>
          <CreditCardOutlined /> {t("withdraw.cardTitle")}
        </span>
      }
      extra={
        <Button onClick={() => setEditing(true)} data-testid="edit-card">
          {t(card ? "withdraw.replaceCard" : "withdraw.addCard")}
        </Button>
      }
      style={{ height: "100%" }}
    >
      {card ? (
        <Descriptions column={1} size="small">
          <Descriptions.Item label={t("withdraw.card.companyName")}>{card.companyName}</Descriptions.Item>
          <Descriptions.Item label={t("withdraw.card.bank")}>
            {card.bank} · {card.city}
          </Descriptions.Item>
          <Descriptions.Item label={t("withdraw.card.account")}>{card.account}</Descriptions.Item>
          <Descriptions.Item label={t("withdraw.card.state")}>
            <Tag color={STATE_COLOR[card.state]} data-testid="card-state">
              {t(`withdraw.cardState.${card.state}`)}
            </Tag>
            {card.rejectReason && <Typography.Text type="danger">{card.rejectReason}</Typography.Text>}
          </Descriptions.Item>
        </Descriptions>
      ) : (
        <Typography.Text type="secondary">{t("withdraw.noCard")}</Typography.Text>
      )}
      {editing && <CardDialog current={card ?? null} onClose={() => setEditing(false)} />}
    </Card>
  );
}
