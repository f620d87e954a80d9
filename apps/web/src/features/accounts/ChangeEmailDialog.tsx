import { Form, Input } from "antd";
import { useTranslation } from "react-i18next";
import { userEmailReq } from "@tessera/contracts";
import { useChangeEmail, useSendEmailCode } from "./api";
import { CodeField, useCodeSender } from "../../ui/form/CodeField";
import { FormDialog } from "../../ui/form/FormDialog";
import { useAction } from "../../ui/form/useAction";
import { useZodRules } from "../../ui/form/useZodRules";

interface Values {
  email: string;
  emailCode: string;
}

/** Change the login email: a code goes to the NEW address (scene changeEmail), then PUT userEmail. */
export function ChangeEmailDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const rule = useZodRules(userEmailReq);
  const send = useSendEmailCode();
  const change = useChangeEmail();
  const sendCode = useCodeSender(form, "email", (email) => send.mutateAsync({ email, scene: "changeEmail" }));
  const action = useAction(form, {
    run: (v) => change.mutateAsync({ email: v.email.trim(), emailCode: v.emailCode.trim() }),
    fields: ["email", "emailCode"],
    success: t("home.emailChanged"),
    then: onClose,
  });

  return (
    <FormDialog
      title={t("home.changeEmail")}
      form={form}
      onSubmit={action.submit}
      pending={action.pending}
      onClose={onClose}
    >
      <Form.Item name="email" label={t("home.newEmail")} rules={[rule("email")]}>
        <Input placeholder={t("auth.emailPlaceholder")} autoComplete="email" />
      </Form.Item>
      <CodeField
        name="emailCode"
        label={t("auth.emailCode")}
        placeholder={t("auth.emailCodePlaceholder")}
        rule={rule("emailCode")}
        onSend={sendCode}
      />
    </FormDialog>
  );
}
