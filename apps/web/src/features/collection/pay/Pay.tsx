import { useQuery } from "@tanstack/react-query";
import { Alert, Button, Card, Form, Input, Result, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import type { PayOrder } from "@tessera/contracts";
import { formatMoney, parseMoney } from "../../../ui/money";
import { collectionApi, newRequestKey } from "../api";
import { PhoneScreen } from "../../stores/PhoneScreen";

/**
 * `/pay/:token`: the payer's page a collection code opens (standing in for the wallet app): enter the
 * amount and pay through the local adapter's simulated wallet. One request key per visit: paying twice
 * by a double tap makes one order.
 */
export default function Pay() {
  const { t } = useTranslation();
  const { token = "" } = useParams();
  const info = useQuery({ queryKey: ["pay", token], queryFn: () => collectionApi.codeInfo(token), retry: false });
  const [key] = useState(newRequestKey);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<PayOrder | null>(null);
  const [error, setError] = useState<string | null>(null);
  const pay = async (v: { amount?: string; note?: string }) => {
    if (!info.data) return;
    // A code with its own amount collects exactly that; otherwise the payer's amount, within the limit.
    const amount = info.data.amount ?? parseMoney(v.amount ?? "", info.data.currency);
    if (!amount) {
      setError(t("collection.amountInvalid"));
      return;
    }
    setBusy(true);
    const r = await collectionApi.pay(token, { amount, note: v.note ?? "", requestKey: key });
    setBusy(false);
    if (r?.ok) setDone(r.data);
    else if (r) setError(r.msg);
  };
  return (
    <PhoneScreen title={info.data?.merchantName ?? t("collection.title.pay")}>
      {info.isError && <Result status="404" title={t("collection.codeGone")} />}
      {info.data && !done && (
        <Card>
          <Typography.Paragraph type="secondary">{info.data.codeName}</Typography.Paragraph>
          <Form
            layout="vertical"
            onFinish={(v: { amount?: string; note?: string }) => void pay(v)}
            requiredMark={false}
          >
            {info.data.amount !== null ? (
              <Form.Item label={t("collection.fixedAmount")}>
                <Typography.Title level={2} style={{ margin: 0 }} data-testid="pay-fixed-amount">
                  {formatMoney({ amount: info.data.amount, currency: info.data.currency })}
                </Typography.Title>
              </Form.Item>
            ) : (
              <Form.Item
                name="amount"
                label={t("collection.payAmount")}
                extra={t("collection.payLimit", {
                  limit: formatMoney({ amount: info.data.limit, currency: info.data.currency }),
                })}
                rules={[{ required: true, message: t("collection.amountInvalid") }]}
              >
                <Input
                  size="large"
                  inputMode="decimal"
                  placeholder="0.00"
                  prefix={info.data.currency === "CNY" ? "¥" : info.data.currency}
                />
              </Form.Item>
            )}
            <Form.Item name="note" label={t("collection.note")}>
              <Input maxLength={60} />
            </Form.Item>
            {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 12 }} />}
            <Button type="primary" htmlType="submit" block size="large" loading={busy} data-testid="pay-submit">
              {t("collection.payNow")}
            </Button>
            <Typography.Paragraph type="secondary" style={{ marginTop: 12, fontSize: 12 }}>
              {t("collection.simulated")}
            </Typography.Paragraph>
          </Form>
        </Card>
      )}
      {done && (
        <Result
          status="success"
          title={t("collection.paid")}
          subTitle={`${formatMoney(done.amount)} · ${done.orderNo}`}
          data-testid="pay-done"
        />
      )}
    </PhoneScreen>
  );
}
