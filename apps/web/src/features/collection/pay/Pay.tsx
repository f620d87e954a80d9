import { useQuery } from "@tanstack/react-query";
import { Alert, Button, Card, Form, Input, Result, Spin, Typography } from "antd";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import type { PayOrder } from "@tessera/contracts";
import { formatMoney, parseMoney } from "../../../ui/money";
import { collectionApi, newRequestKey } from "../api";
import { PhoneScreen } from "../../stores/PhoneScreen";
import { PayAction } from "../../payments/PayAction";

type PendingPay = { amount: number; note: string; requestKey: string };

/**
 * `/pay/:token`: the payer's page a collection code opens (standing in for the wallet app): enter the
 * amount and pay through the local adapter's simulated wallet. One request key per visit: paying twice
 * by a double tap makes one order.
 */
export default function Pay() {
  const { t } = useTranslation();
  const { token = "" } = useParams();
  const info = useQuery({ queryKey: ["pay", token], queryFn: () => collectionApi.codeInfo(token), retry: false });
  // A payment WeChat Pay confirms later (NOTPAY with payAction) is kept for this visit and the return from
  // its cashier: the same request again is the poll.
  const saved = useMemo(() => {
    try {
      return JSON.parse(sessionStorage.getItem(`pay:${token}`) ?? "null") as PendingPay | null;
    } catch {
      return null;
    }
  }, [token]);
  const [key] = useState(() => saved?.requestKey ?? newRequestKey());
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<PayOrder | null>(null);
  const [pending, setPending] = useState<PendingPay | null>(saved);
  const [error, setError] = useState<string | null>(null);
  // Until WeChat Pay's word: the same request again every 3 s (the server asks WeChat Pay when it is late).
  const poll = useQuery({
    queryKey: ["pay-poll", token, pending?.requestKey],
    enabled: pending !== null && done === null,
    refetchInterval: 3_000,
    queryFn: async () => {
      const r = pending ? await collectionApi.pay(token, pending) : undefined;
      const order = r?.ok ? r.data : null;
      if (order && order.state !== "NOTPAY") {
        sessionStorage.removeItem(`pay:${token}`);
        setPending(null);
        if (order.state === "SUCCESS") setDone(order);
        else setError(t("collection.payClosed"));
      }
      return order;
    },
  });
  const pay = async (v: { amount?: string; note?: string }) => {
    if (!info.data) return;
    // A code with its own amount collects exactly that; otherwise the payer's amount, within the limit.
    const amount = info.data.amount ?? parseMoney(v.amount ?? "", info.data.currency);
    if (!amount) {
      setError(t("collection.amountInvalid"));
      return;
    }
    setBusy(true);
    const body = { amount, note: v.note ?? "", requestKey: key };
    const r = await collectionApi.pay(token, body);
    setBusy(false);
    if (r?.ok && r.data.state === "NOTPAY") {
      sessionStorage.setItem(`pay:${token}`, JSON.stringify(body));
      setPending(body);
    } else if (r?.ok) setDone(r.data);
    else if (r) setError(r.msg);
  };
  const action = poll.data?.payAction;
  return (
    <PhoneScreen title={info.data?.merchantName ?? t("collection.title.pay")}>
      {info.isError && <Result status="404" title={t("collection.codeGone")} />}
      {info.data && !done && pending && (
        <Card>
          {action ? (
            <PayAction
              action={action}
              returnTo={window.location.href}
              labels={{
                pay: t("collection.wechatPay"),
                scan: t("collection.wechatScan"),
                waiting: t("collection.wechatWaiting"),
              }}
            />
          ) : (
            <Spin />
          )}
        </Card>
      )}
      {info.data && !done && !pending && (
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
