import { Button, Card, Form, Input } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import type { CustomerLoginReply } from "@tessera/contracts";
import { customerCall, customerSession, type CallResult } from "../../customer/customerApi";

interface Props {
  /** Sends the SMS code: the card bag's own call, or a mall's (counted against that mall's SMS packages). */
  sendCode: (phone: string) => Promise<CallResult<{ resendIn: number }>>;
  /** Where to go after logging in, from the page's `back` parameter (null when absent). */
  next: (back: string | null) => string;
  /** The login button's colour (a mall's theme). */
  primary?: string;
}

/**
 * The end customer's login by phone and SMS code (no password): one customer account for the card bag and
 * every mini-program mall. A countdown holds the send button until the code may be sent again.
 */
export function CustomerLoginForm({ sendCode, next, primary }: Props) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const [form] = Form.useForm<{ phone: string; smsCode: string }>();
  const [wait, setWait] = useState(0);
  const [busy, setBusy] = useState(false);
  const send = async () => {
    const phone = (form.getFieldValue("phone") as string | undefined)?.trim() ?? "";
    const r = await sendCode(phone);
    if (!r.ok) return;
    let left = r.data.resendIn;
    setWait(left);
    const timer = window.setInterval(() => {
      left -= 1;
      setWait(left);
      if (left <= 0) window.clearInterval(timer);
    }, 1000);
  };
  const submit = async (v: { phone: string; smsCode: string }) => {
    setBusy(true);
    const r = await customerCall<CustomerLoginReply>("POST", "/api/mall/customer/login", {
      body: { phone: v.phone.trim(), smsCode: v.smsCode.trim() },
    });
    setBusy(false);
    if (!r.ok) return;
    customerSession.set(r.data.token, r.data.phone);
    window.location.assign(next(params.get("back")));
  };
  return (
    <Card>
      <Form form={form} layout="vertical" onFinish={(v) => void submit(v)} requiredMark={false}>
        <Form.Item
          name="phone"
          label={t("onecard.phone")}
          rules={[{ required: true, message: t("onecard.phoneRequired") }]}
        >
          <Input inputMode="tel" maxLength={11} size="large" autoComplete="tel" />
        </Form.Item>
        <Form.Item
          name="smsCode"
          label={t("onecard.smsCode")}
          rules={[{ required: true, message: t("onecard.smsRequired") }]}
        >
          <Input
            inputMode="numeric"
            maxLength={6}
            size="large"
            autoComplete="one-time-code"
            suffix={
              <Button type="link" size="small" disabled={wait > 0} onClick={() => void send()}>
                {wait > 0 ? t("onecard.resendIn", { s: wait }) : t("onecard.sendCode")}
              </Button>
            }
          />
        </Form.Item>
        <Button
          type="primary"
          htmlType="submit"
          block
          size="large"
          loading={busy}
          style={primary ? { background: primary } : undefined}
        >
          {t("onecard.login")}
        </Button>
      </Form>
    </Card>
  );
}
