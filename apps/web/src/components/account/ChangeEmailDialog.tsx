import { App, Button, Form, Input, Modal, Space } from "antd";
import { useTranslation } from "react-i18next";
import { userEmailReq } from "@tessera/contracts";
import { useChangeEmail, useSendEmailCode } from "../../api/hooks/account";
import { CodeButton } from "../form/CodeButton";
import { reportFailure } from "../form/serverError";
import { useZodRules } from "../form/useZodRules";

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

  const sendCode = async (): Promise<number | null> => {
    try {
      await form.validateFields(["email"]);
    } catch {
      return null;
    }
    const result = await send.mutateAsync({ email: (form.getFieldValue("email") as string).trim(), scene: "changeEmail" });
    if (reportFailure(result, form, ["email"], toast) || !result?.ok) return null;
    void message.success(t("code.sent"));
    return result.data.resendIn;
  };

  const submit = async (v: Values) => {
    const result = await change.mutateAsync({ email: v.email.trim(), emailCode: v.emailCode.trim() });
    if (reportFailure(result, form, ["email", "emailCode"], toast)) return;
    void message.success(t("home.emailChanged"));
    onClose();
  };

  return (
    <Modal open title={t("home.changeEmail")} onCancel={onClose} footer={null} mask={{ closable: false }} destroyOnHidden>
      <Form<Values> form={form} layout="vertical" requiredMark={false} validateTrigger="onBlur" onFinish={(v) => void submit(v)} style={{ paddingTop: 8 }}>
        <Form.Item name="email" label={t("home.newEmail")} rules={[rule("email")]}>
          <Input placeholder={t("auth.emailPlaceholder")} autoComplete="email" />
        </Form.Item>
        <Form.Item label={t("auth.emailCode")} required>
          <Space.Compact style={{ width: "100%" }}>
            <Form.Item name="emailCode" noStyle rules={[rule("emailCode")]}>
              <Input placeholder={t("auth.emailCodePlaceholder")} autoComplete="one-time-code" maxLength={12} />
            </Form.Item>
            <CodeButton onSend={sendCode} />
          </Space.Compact>
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={change.isPending}>
          {t("common.confirm")}
        </Button>
      </Form>
    </Modal>
  );
}
