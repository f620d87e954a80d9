import { LockOutlined, MailOutlined } from "@ant-design/icons";
import { App, Button, Card, Form, Input, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { loginReq } from "@tessera/contracts";
import { useLogin } from "../../accounts/api";
import { reportFailure } from "../../../ui/form/serverError";
import { useZodRules } from "../../../ui/form/useZodRules";

interface Values {
  email: string;
  password: string;
}
const FIELDS = ["email", "password"] as const;

/**
 * The clerk's login on the verification page itself (issue 40, item 11): a clerk opens `/verify` on a phone,
 * signs in with the sub-account the brand made for them and stays here, instead of the desktop login and
 * the system chooser. A forgotten password is reset by the brand's administrator.
 */
export function ClerkLogin({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const login = useLogin("domestic");
  const rule = useZodRules(loginReq);
  const submit = async (v: Values) => {
    const result = await login.mutateAsync({ email: v.email.trim(), password: v.password, version: "domestic" });
    if (reportFailure(result, form, FIELDS, (m) => void message.error(m))) return;
    onDone();
  };
  return (
    <Card data-testid="clerk-login">
      <Typography.Paragraph type="secondary">{t("writeoff.loginFirst")}</Typography.Paragraph>
      <Form<Values> form={form} layout="vertical" requiredMark={false} onFinish={(v) => void submit(v)}>
        <Form.Item name="email" label={t("auth.email")} rules={[rule("email")]} validateFirst>
          <Input prefix={<MailOutlined />} autoComplete="username" inputMode="email" size="large" />
        </Form.Item>
        <Form.Item name="password" label={t("auth.password")} rules={[rule("password")]}>
          <Input.Password prefix={<LockOutlined />} autoComplete="current-password" size="large" />
        </Form.Item>
        <Button type="primary" htmlType="submit" block size="large" loading={login.isPending}>
          {t("auth.login")}
        </Button>
      </Form>
      <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0, fontSize: 12 }}>
        {t("writeoff.forgotHint")}
      </Typography.Paragraph>
    </Card>
  );
}
