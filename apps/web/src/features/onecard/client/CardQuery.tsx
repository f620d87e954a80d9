import { Button, Card, Descriptions, Form, Input, Tag } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { OcBalance } from "@tessera/contracts";
import { customerCall } from "../../customer/customerApi";
import { day, fmt, STATE_COLOR } from "./format";
import { Shell } from "../../customer/Shell";

/**
 * `/oneCardQuery` (public) and `/client/cardQuery`: a card's balance by number and password. Wrong
 * passwords lock the card for a while and too many guesses from one client are refused (server side).
 */
export default function CardQuery() {
  const { t } = useTranslation();
  const [result, setResult] = useState<OcBalance | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (v: { cardNo: string; password: string }) => {
    setBusy(true);
    const r = await customerCall<OcBalance>("POST", "/api/card-public/onecard/balance", { body: v });
    setBusy(false);
    setResult(r.ok ? r.data : null);
  };
  return (
    <Shell title={t("onecard.title.query")} needsLogin={false} tabs={window.location.pathname.startsWith("/client")}>
      <Card>
        <Form
          layout="vertical"
          onFinish={(v: { cardNo: string; password: string }) => void submit(v)}
          requiredMark={false}
        >
          <Form.Item
            name="cardNo"
            label={t("onecard.cardNo")}
            rules={[{ required: true, message: t("onecard.cardNoRequired") }]}
          >
            <Input inputMode="numeric" maxLength={19} size="large" />
          </Form.Item>
          <Form.Item
            name="password"
            label={t("onecard.password")}
            rules={[{ required: true, message: t("onecard.passwordRequired") }]}
          >
            <Input.Password size="large" maxLength={32} autoComplete="off" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block size="large" loading={busy}>
            {t("onecard.query")}
          </Button>
        </Form>
      </Card>
      {result && (
        <Card style={{ marginTop: 12 }} data-testid="balance-result">
          <Descriptions column={1} size="small">
            <Descriptions.Item label={t("onecard.cardNo")}>{result.cardNo}</Descriptions.Item>
            <Descriptions.Item
              label={t("onecard.product")}
            >{`${result.branderName} · ${result.productName}`}</Descriptions.Item>
            <Descriptions.Item label={t("onecard.stateLabel")}>
              <Tag color={STATE_COLOR[result.state]}>{t(`onecard.state.${result.state}`)}</Tag>
            </Descriptions.Item>
            <Descriptions.Item label={t("onecard.balance")}>
              <strong style={{ fontSize: 18 }}>{fmt(result.balance)}</strong>
            </Descriptions.Item>
            <Descriptions.Item label={t("onecard.faceValue")}>{fmt(result.faceValue)}</Descriptions.Item>
            <Descriptions.Item label={t("onecard.expiresAt")}>
              {result.expiresAt ? day(result.expiresAt) : t("onecard.noExpiry")}
            </Descriptions.Item>
          </Descriptions>
        </Card>
      )}
    </Shell>
  );
}
