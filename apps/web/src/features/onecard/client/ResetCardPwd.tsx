import { OC_NEW_PASSWORD_RE } from "@tessera/contracts";
import { App, Button, Card, Form, Input } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { customerCall } from "../../customer/customerApi";
import { Shell } from "../../customer/Shell";

/**
 * `/client/resetCardPwd`: a new password (8-32 letters and digits, both) for a card in the logged-in customer's card bag,
 * confirmed with an SMS code sent to their own phone. Clears a lock from wrong passwords. The server texts nobody for a
 * card number alone and names no phone (issue 38), so the page needs the customer's session.
 */
export default function ResetCardPwd() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ cardNo: string; smsCode: string; password: string }>();
  const [sent, setSent] = useState(false);
  const [busy, setBusy] = useState(false);
  const send = async () => {
    const cardNo = (form.getFieldValue("cardNo") as string | undefined) ?? "";
    const r = await customerCall("POST", "/api/card-public/onecard/resetPwd/sms", { body: { cardNo } });
    if (r.ok) setSent(true);
  };
  const submit = async (v: { cardNo: string; smsCode: string; password: string }) => {
    setBusy(true);
    const r = await customerCall("POST", "/api/card-public/onecard/resetPwd", { body: v });
    setBusy(false);
    if (r.ok) {
      void message.success(t("onecard.pwdReset"));
      form.resetFields();
      setSent(false);
    }
  };
  return (
    <Shell title={t("onecard.title.resetPwd")} needsLogin tabs={false}>
      <Card>
        <Form form={form} layout="vertical" onFinish={(v) => void submit(v)} requiredMark={false}>
          <Form.Item
            name="cardNo"
            label={t("onecard.cardNo")}
            rules={[{ required: true, message: t("onecard.cardNoRequired") }]}
          >
            <Input inputMode="numeric" maxLength={19} size="large" />
          </Form.Item>
          <Form.Item
            name="smsCode"
            label={t("onecard.smsCode")}
            extra={sent ? t("onecard.codeSent") : t("onecard.codeToBound")}
            rules={[{ required: true, message: t("onecard.smsRequired") }]}
          >
            <Input
              inputMode="numeric"
              maxLength={6}
              size="large"
              suffix={
                <Button type="link" size="small" onClick={() => void send()}>
                  {t("onecard.sendCode")}
                </Button>
              }
            />
          </Form.Item>
          <Form.Item
            name="password"
            label={t("onecard.newPassword")}
            rules={[{ required: true, pattern: OC_NEW_PASSWORD_RE, message: t("onecard.newPasswordRule") }]}
          >
            <Input.Password maxLength={32} size="large" autoComplete="new-password" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block size="large" loading={busy}>
            {t("onecard.resetPwd")}
          </Button>
        </Form>
      </Card>
    </Shell>
  );
}
