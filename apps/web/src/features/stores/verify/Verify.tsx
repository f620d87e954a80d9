import { ScanOutlined } from "@ant-design/icons";
import { useQuery } from "@tanstack/react-query";
import { Alert, Button, Card, Descriptions, Form, Input, Result, Segmented, Space, Typography } from "antd";
import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import type { Redemption, WriteOffKind, WriteOffPreview } from "@tessera/contracts";
import { tokens } from "../../../api/http";
import { formatMoney, parseMoney } from "../../../ui/money";
import { writeOffApi } from "../api";
import { PhoneScreen } from "../PhoneScreen";
import { canScan, Scanner } from "./Scanner";
import { ClerkLogin } from "./ClerkLogin";
import { formatDay } from "../../../ui/time";

interface Values {
  code: string;
  secret: string;
  amount?: string;
}
const newKey = () => `wo-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;

/** A scanned text: `code`, or `code` and secret separated by a newline, `|`, `,` or a space. */
function splitScan(text: string): { code: string; secret?: string } {
  const [code = "", secret] = text.trim().split(/[\n|, ]+/);
  return secret ? { code, secret } : { code };
}

/**
 * `/verify`: the clerk's verification page (核销), phone first. The clerk (a sub-account bound to a
 * store, logged in on the back office) enters or scans a code (camera where the browser has
 * BarcodeDetector), sees what it is worth, and redeems it once; a one-card card takes an amount. Each
 * redemption carries its own request key, so a retry after a lost reply cannot redeem twice. A customer's
 * dynamic code (18 digits or its QR, from the card bag, valid 60 s) stands for a card without its password.
 */
export default function Verify() {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const [kind, setKind] = useState<WriteOffKind>("coupon");
  // A card (number + password) or a customer's dynamic code: both take an amount off a one-card card.
  const takesAmount = kind !== "coupon";
  const [preview, setPreview] = useState<WriteOffPreview | null>(null);
  const [done, setDone] = useState<Redemption | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [scanning, setScanning] = useState(false);
  const [requestKey, setRequestKey] = useState(newKey);
  // Logging in on this page changes the token without a navigation: re-read it then.
  const [, setLoginTick] = useState(0);
  const loggedIn = Boolean(tokens.getToken("domestic"));
  const me = useQuery({ queryKey: ["verify", "me"], queryFn: () => writeOffApi.me(), enabled: loggedIn, retry: false });

  const onScan = useCallback(
    (text: string) => {
      setScanning(false);
      const s = splitScan(text);
      form.setFieldsValue({ code: s.code, ...(s.secret && { secret: s.secret }) });
    },
    [form],
  );
  const reset = () => {
    setPreview(null);
    setDone(null);
    setError(null);
    setRequestKey(newKey());
    form.resetFields();
  };
  const check = async () => {
    const v = await form.validateFields(kind === "dynamic" ? ["code"] : ["code", "secret"]);
    setBusy(true);
    setError(null);
    setDone(null);
    const r = await writeOffApi.check({ kind, code: v.code, ...(kind !== "dynamic" && { secret: v.secret }) });
    setBusy(false);
    if (!r) return;
    if (r.ok) setPreview(r.data);
    else {
      setPreview(null);
      setError(r.msg);
    }
  };
  const redeem = async () => {
    const v = form.getFieldsValue();
    const amount =
      takesAmount && preview ? (parseMoney(v.amount ?? "", preview.value.currency) ?? undefined) : undefined;
    if (takesAmount && !amount) {
      form.setFields([{ name: "amount", errors: [t("writeoff.amountRequired")] }]);
      return;
    }
    setBusy(true);
    const r = await writeOffApi.redeem({
      kind,
      code: v.code,
      ...(kind !== "dynamic" && { secret: v.secret }),
      amount,
      requestKey,
    });
    setBusy(false);
    if (!r) return;
    if (r.ok) {
      setDone(r.data);
      setPreview(null);
      setRequestKey(newKey());
    } else setError(r.msg);
  };

  if (!loggedIn) {
    return (
      <PhoneScreen title={t("writeoff.title.verify")}>
        <ClerkLogin onDone={() => setLoginTick((n) => n + 1)} />
      </PhoneScreen>
    );
  }
  return (
    <PhoneScreen title={t("writeoff.title.verify")}>
      <Space orientation="vertical" style={{ width: "100%" }} size={12}>
        {me.data ? (
          <Typography.Text type="secondary" data-testid="verify-store">
            {me.data.branderName} · {me.data.storeName}
          </Typography.Text>
        ) : (
          me.isFetched && <Alert type="warning" showIcon title={t("writeoff.noStore")} />
        )}
        <Segmented
          block
          value={kind}
          onChange={(v) => {
            setKind(v === "onecard" || v === "dynamic" ? v : "coupon");
            reset();
          }}
          options={[
            { value: "coupon", label: t("writeoff.kind.coupon") },
            { value: "onecard", label: t("writeoff.kind.onecard") },
            { value: "dynamic", label: t("writeoff.kind.dynamic") },
          ]}
        />
        <Card>
          <Form
            form={form}
            layout="vertical"
            requiredMark={false}
            onValuesChange={(changed: Partial<Values>) => {
              // A new code or secret needs a new check; typing the amount keeps the preview.
              if ("code" in changed || "secret" in changed) setPreview(null);
            }}
          >
            <Form.Item
              name="code"
              label={
                kind === "coupon"
                  ? t("writeoff.code")
                  : kind === "onecard"
                    ? t("writeoff.cardNo")
                    : t("writeoff.dynamicCode")
              }
              rules={[{ required: true, message: t("writeoff.codeRequired") }]}
            >
              <Input
                size="large"
                autoComplete="off"
                maxLength={64}
                {...(kind === "dynamic" && { inputMode: "numeric" as const, placeholder: t("writeoff.dynamicHint") })}
                suffix={
                  canScan() ? (
                    <ScanOutlined aria-label={t("writeoff.scan")} onClick={() => setScanning(true)} />
                  ) : undefined
                }
              />
            </Form.Item>
            {kind !== "dynamic" && (
              <Form.Item
                name="secret"
                label={kind === "coupon" ? t("writeoff.secret") : t("writeoff.password")}
                rules={[{ required: true, message: t("writeoff.secretRequired") }]}
              >
                <Input.Password size="large" autoComplete="off" maxLength={64} />
              </Form.Item>
            )}
            {takesAmount && preview && (
              <Form.Item name="amount" label={t("writeoff.amount")}>
                <Input size="large" inputMode="decimal" placeholder="0.00" />
              </Form.Item>
            )}
            {!preview ? (
              <Button
                type="primary"
                size="large"
                block
                loading={busy}
                onClick={() => void check()}
                data-testid="verify-check"
              >
                {t("writeoff.check")}
              </Button>
            ) : (
              <Button
                type="primary"
                size="large"
                block
                loading={busy}
                onClick={() => void redeem()}
                data-testid="verify-redeem"
              >
                {t("writeoff.redeem")}
              </Button>
            )}
          </Form>
        </Card>
        {error && <Alert type="error" showIcon title={error} data-testid="verify-error" />}
        {preview && (
          <Card data-testid="verify-preview">
            <Descriptions column={1} size="small">
              <Descriptions.Item label={t("writeoff.item")}>{preview.itemName}</Descriptions.Item>
              <Descriptions.Item label={t("writeoff.code")}>{preview.codeMask}</Descriptions.Item>
              <Descriptions.Item label={kind === "coupon" ? t("writeoff.value") : t("writeoff.balance")}>
                <strong style={{ fontSize: 18 }}>{formatMoney(preview.value)}</strong>
              </Descriptions.Item>
              <Descriptions.Item label={t("writeoff.expires")}>
                {preview.expiresOn ? formatDay(preview.expiresOn) : t("writeoff.noExpiry")}
              </Descriptions.Item>
              <Descriptions.Item label={t("writeoff.store")}>{preview.storeName}</Descriptions.Item>
            </Descriptions>
          </Card>
        )}
        {done && (
          <Result
            status="success"
            title={t("writeoff.redeemed")}
            subTitle={`${done.itemName} · ${done.codeMask} · ${formatMoney(done.value)}`}
            extra={
              <Button type="primary" onClick={reset} data-testid="verify-next">
                {t("writeoff.next")}
              </Button>
            }
            data-testid="verify-done"
          />
        )}
      </Space>
      {scanning && <Scanner onResult={onScan} onClose={() => setScanning(false)} />}
    </PhoneScreen>
  );
}
