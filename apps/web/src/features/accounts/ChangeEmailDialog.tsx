import { App, Button, Form, Input, Modal } from "antd";
import { useTranslation } from "react-i18next";
import { userEmailReq } from "@tessera/contracts";
import { useChangeEmail, useSendEmailCode } from "../../api/hooks/account";
import { CodeField, useCodeSender } from "../../ui/form/CodeField";
import { reportFailure } from "../../ui/form/serverError";
import { useZodRules } from "../../ui/form/useZodRules";

interface Values {
  email: string;
  emailCode: string;
}

/** Change the login email: a code goes to the NEW address (scene changeEmail), then PUT userEmail. */
export function ChangeEmailDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const rule = useZodRules(userEmailReq);
  const send = useSendEmailCode();
  const change = useChangeEmail();
  const toast = (m: string) => void message.error(m);

  const sendCode = useCodeSender(form, "email", (email) => send.mutateAsync({ email, scene: "changeEmail" }));

  const submit = async (v: Values) => {
    const result = await change.mutateAsync({ email: v.email.trim(), emailCode: v.emailCode.trim() });
    if (reportFailure(result, form, ["email", "emailCode"], toast)) return;
    void message.success(t("home.emailChanged"));
    onClose();
  };

  return (
    <Modal
      open
      title={t("home.changeEmail")}
      onCancel={onClose}
      footer={null}
      mask={{ closable: false }}
      destroyOnHidden
    >
      <Form<Values>
        form={form}
        layout="vertical"
        requiredMark={false}
        validateTrigger="onBlur"
        onFinish={(v) => void submit(v)}
        style={{ paddingTop: 8 }}
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
        <Button type="primary" htmlType="submit" block loading={change.isPending}>
          {t("common.confirm")}
        </Button>
      </Form>
    </Modal>
  );
}
