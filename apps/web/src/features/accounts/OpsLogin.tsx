import { LockOutlined, MailOutlined } from "@ant-design/icons";
import { App, Button, Card, Flex, Form, Input, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { loginReq, type UserInfo } from "@tessera/contracts";
import { useLogin } from "./api";
import { http, tokens } from "../../api/http";
import { reportFailure } from "../../ui/form/serverError";
import { useZodRules } from "../../ui/form/useZodRules";
import { takeReturnTo } from "../../api/returnTo";

/** `/ops/login`: platform operators sign in to the operator console. Merchant accounts are turned away. */
export default function OpsLogin() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const login = useLogin("domestic");
  const [form] = Form.useForm<{ email: string; password: string }>();
  const rule = useZodRules(loginReq);

  const submit = async (values: { email: string; password: string }) => {
    const result = await login.mutateAsync({ ...values, version: "domestic" });
    if (reportFailure(result, form, ["email", "password"], (m) => void message.error(m))) return;
    const info = await http.get<UserInfo>("/api/card-user/userInfo");
    if (info?.ok && info.data.kind !== "operator") {
      // A merchant's session is valid, but not for the console: keep it, and send the user on.
      void message.warning(t("ops.login.notOperator"));
      void navigate("/SelectUser");
      return;
    }
    if (!tokens.getToken("domestic")) return;
    void navigate(takeReturnTo("ops") ?? "/ops/Reviews");
  };

  return (
    <Flex justify="center" align="center" style={{ minHeight: "70vh", padding: 24 }}>
      <Card
        style={{ width: 400 }}
        title={
          <Typography.Title level={4} style={{ margin: 0 }}>
            {t("ops.login.title")}
          </Typography.Title>
        }
      >
        <Typography.Paragraph type="secondary">{t("ops.login.subtitle")}</Typography.Paragraph>
        <Form form={form} layout="vertical" requiredMark={false} onFinish={(v) => void submit(v)}>
          <Form.Item name="email" label={t("ops.login.email")} rules={[rule("email")]}>
            <Input prefix={<MailOutlined />} autoComplete="username" data-testid="ops-email" />
          </Form.Item>
          <Form.Item name="password" label={t("ops.login.password")} rules={[rule("password")]}>
            <Input.Password prefix={<LockOutlined />} autoComplete="current-password" data-testid="ops-password" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={login.isPending} data-testid="ops-login">
            {t("ops.login.submit")}
          </Button>
        </Form>
      </Card>
    </Flex>
  );
}
