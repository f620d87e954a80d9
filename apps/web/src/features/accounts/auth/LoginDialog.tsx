import { LockOutlined, MailOutlined } from "@ant-design/icons";
import { App, Button, Flex, Form, Input, Modal, Typography } from "antd";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { loginReq, type Version } from "@tessera/contracts";
import { chooserPathOf } from "../../../api/area";
import { takeReturnTo } from "../../../api/returnTo";
import { useLogin } from "../api";
import { reportFailure } from "../../../ui/form/serverError";
import { useZodRules } from "../../../ui/form/useZodRules";
import { useAuthDialogs } from "./context";
import { VersionSwitch } from "./VersionSwitch";

interface LoginValues {
  email: string;
  password: string;
}
const FIELDS = ["email", "password"] as const;

/** Login dialog: email + password, forgot-password, register and agreement links, version switch. */
export function LoginDialog({ version, initialEmail }: { version: Version; initialEmail?: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const dialogs = useAuthDialogs();
  const navigate = useNavigate();
  const [form] = Form.useForm<LoginValues>();
  const extra = useMemo(() => ({ version }), [version]);
  const rule = useZodRules(loginReq, extra);
  const login = useLogin(version);

  const submit = async (values: LoginValues) => {
    const result = await login.mutateAsync({ email: values.email.trim(), password: values.password, version });
    if (reportFailure(result, form, FIELDS, (m) => void message.error(m))) return;
    void message.success(t("auth.loginSuccess"));
    dialogs.close();
    void navigate(takeReturnTo(version) ?? chooserPathOf(version));
  };

  return (
    <Modal
      open
      width={440}
      title={t(version === "international" ? "auth.intlLoginTitle" : "auth.loginTitle")}
      footer={null}
      onCancel={dialogs.close}
      destroyOnHidden
    >
      <Flex vertical gap={20} style={{ paddingTop: 8 }}>
        <VersionSwitch version={version} />
        <Form<LoginValues>
          form={form}
          layout="vertical"
          requiredMark={false}
          initialValues={{ email: initialEmail ?? "" }}
          onFinish={(v) => void submit(v)}
          validateTrigger="onBlur"
        >
          <Form.Item name="email" label={t("auth.email")} rules={[rule("email")]} validateFirst>
            <Input
              prefix={<MailOutlined />}
              placeholder={t("auth.emailPlaceholder")}
              autoComplete="username"
              size="large"
              autoFocus
            />
          </Form.Item>
          <Form.Item name="password" label={t("auth.password")} rules={[rule("password")]}>
            <Input.Password
              prefix={<LockOutlined />}
              placeholder={t("auth.passwordPlaceholder")}
              autoComplete="current-password"
              size="large"
            />
          </Form.Item>
          <Flex justify="flex-end" style={{ marginTop: -12, marginBottom: 16 }}>
            <Typography.Link
              onClick={() => dialogs.open("reset", { email: form.getFieldValue("email") as string | undefined })}
            >
              {t("auth.forgotPassword")}
            </Typography.Link>
          </Flex>
          <Button type="primary" htmlType="submit" block size="large" loading={login.isPending}>
            {t("auth.login")}
          </Button>
        </Form>
        <Flex vertical align="center" gap={6}>
          <Typography.Text type="secondary">
            {t("auth.noAccount")}{" "}
            <Typography.Link onClick={() => dialogs.open("register")}>{t("auth.registerNow")}</Typography.Link>
          </Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t("auth.loginAgreementPrefix")}
            <Typography.Link onClick={dialogs.openAgreement} style={{ fontSize: 12 }}>
              {t("agreement.linkText")}
            </Typography.Link>
          </Typography.Text>
        </Flex>
      </Flex>
    </Modal>
  );
}
