import { Form, Input } from "antd";
import { useTranslation } from "react-i18next";
import { resetPasswordReq } from "@tessera/contracts";
import { useResetPassword, useSendEmailCode } from "../api";
import { CodeField, useCodeSender } from "../../../ui/form/CodeField";
import { FormDialog } from "../../../ui/form/FormDialog";
import { NewPasswordFields } from "../../../ui/form/NewPasswordFields";
import { useAction } from "../../../ui/form/useAction";
import { useZodRules } from "../../../ui/form/useZodRules";
import { useAuthDialogs } from "./context";

interface ResetValues {
  email: string;
  emailCode: string;
  password: string;
  confirmPassword: string;
}

/** Forgot password: a code to the email, then a new strong password. Ends every session of the account. */
export function ResetPasswordDialog({ initialEmail }: { initialEmail?: string }) {
  const { t } = useTranslation();
  const dialogs = useAuthDialogs();
  const [form] = Form.useForm<ResetValues>();
  const rule = useZodRules(resetPasswordReq);
  const reset = useResetPassword();
  const sendEmail = useSendEmailCode();
  const sendCode = useCodeSender(form, "email", (email) => sendEmail.mutateAsync({ email, scene: "resetPassword" }));
  const action = useAction(form, {
    run: (v) =>
      reset.mutateAsync({
        email: v.email.trim(),
        emailCode: v.emailCode.trim(),
        password: v.password,
        confirmPassword: v.confirmPassword,
      }),
    fields: ["email", "emailCode", "password", "confirmPassword"],
    success: t("auth.resetSuccess"),
    then: (_, v) => dialogs.open("login", { email: v.email.trim() }),
  });

  return (
    <FormDialog
      title={t("auth.resetTitle")}
      width={480}
      form={form}
      initialValues={{ email: initialEmail ?? "" }}
      onSubmit={action.submit}
      pending={action.pending}
      onClose={dialogs.close}
      submitText={t("auth.resetSubmit")}
      large
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
    </FormDialog>
  );
}
