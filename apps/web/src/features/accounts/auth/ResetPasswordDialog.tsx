import { App, Button, Form, Input, Modal } from "antd";
import { useTranslation } from "react-i18next";
import { resetPasswordReq } from "@tessera/contracts";
import { useResetPassword, useSendEmailCode } from "../../../api/hooks/account";
import { CodeField, useCodeSender } from "../../../ui/form/CodeField";
import { NewPasswordFields } from "../../../ui/form/NewPasswordFields";
import { reportFailure } from "../../../ui/form/serverError";
import { useZodRules } from "../../../ui/form/useZodRules";
import { useAuthDialogs } from "./context";

interface ResetValues {
  email: string;
  emailCode: string;
  password: string;
  confirmPassword: string;
}
const FIELDS = ["email", "emailCode", "password", "confirmPassword"] as const;

/** Forgot password: a code to the email, then a new strong password. Ends every session of the account. */
export function ResetPasswordDialog({ initialEmail }: { initialEmail?: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const dialogs = useAuthDialogs();
  const [form] = Form.useForm<ResetValues>();
  const rule = useZodRules(resetPasswordReq);
  const reset = useResetPassword();
  const sendEmail = useSendEmailCode();
  const toast = (m: string) => void message.error(m);

  const sendCode = useCodeSender(form, "email", (email) => sendEmail.mutateAsync({ email, scene: "resetPassword" }));

  const submit = async (v: ResetValues) => {
    const email = v.email.trim();
    const result = await reset.mutateAsync({
      email,
      emailCode: v.emailCode.trim(),
      password: v.password,
      confirmPassword: v.confirmPassword,
    });
    if (reportFailure(result, form, FIELDS, toast)) return;
    void message.success(t("auth.resetSuccess"));
    dialogs.open("login", { email });
  };

  return (
    <Modal
      open
      width={480}
      title={t("auth.resetTitle")}
      footer={null}
      onCancel={dialogs.close}
      mask={{ closable: false }}
      destroyOnHidden
    >
      <Form<ResetValues>
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{ email: initialEmail ?? "" }}
        onFinish={(v) => void submit(v)}
        validateTrigger="onBlur"
        style={{ paddingTop: 8 }}
      >
        <Form.Item name="email" label={t("auth.email")} rules={[rule("email")]}>
          <Input placeholder={t("auth.emailPlaceholder")} autoComplete="email" />
        </Form.Item>
        <CodeField
          name="emailCode"
          label={t("auth.emailCode")}
          placeholder={t("auth.emailCodePlaceholder")}
          rule={rule("emailCode")}
          onSend={sendCode}
        />
        <NewPasswordFields rule={rule} passwordLabel={t("auth.newPassword")} />
        <Button type="primary" htmlType="submit" block size="large" loading={reset.isPending}>
          {t("auth.resetSubmit")}
        </Button>
      </Form>
    </Modal>
  );
}
