import { App, Button, Form, Input, Modal, Space } from "antd";
import { useTranslation } from "react-i18next";
import { userPhoneReq } from "@tessera/contracts";
import { useBindPhone, useSendSmsCode } from "../../api/hooks/account";
import { CodeButton } from "../form/CodeButton";
import { reportFailure } from "../form/serverError";
import { useZodRules } from "../form/useZodRules";

interface Values {
  phone: string;
  smsCode: string;
}

/** Bind or change the mobile number: an SMS code (scene bindPhone), then PUT userPhone. */
export function BindPhoneDialog({ onClose, current }: { onClose: () => void; current: string | null }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const rule = useZodRules(userPhoneReq);
  const send = useSendSmsCode();
  const bind = useBindPhone();
  const toast = (m: string) => void message.error(m);

  const sendCode = async (): Promise<number | null> => {
    try {
      await form.validateFields(["phone"]);
    } catch {
      return null;
    }
    const result = await send.mutateAsync({ phone: (form.getFieldValue("phone") as string).trim(), scene: "bindPhone" });
    if (reportFailure(result, form, ["phone"], toast) || !result?.ok) return null;
    void message.success(t("code.sent"));
    return result.data.resendIn;
  };

  const submit = async (v: Values) => {
    const result = await bind.mutateAsync({ phone: v.phone.trim(), smsCode: v.smsCode.trim() });
    if (reportFailure(result, form, ["phone", "smsCode"], toast)) return;
    void message.success(t("home.phoneBound"));
    onClose();
  };

  return (
    <Modal
      open
      title={t(current ? "home.changePhone" : "home.bindPhone")}
      onCancel={onClose}
      footer={null}
      mask={{ closable: false }}
      destroyOnHidden
    >
      <Form<Values> form={form} layout="vertical" requiredMark={false} validateTrigger="onBlur" onFinish={(v) => void submit(v)} style={{ paddingTop: 8 }}>
        <Form.Item name="phone" label={t("home.phone")} rules={[rule("phone")]}>
          <Input placeholder={t("home.phonePlaceholder")} autoComplete="tel" inputMode="numeric" maxLength={11} />
        </Form.Item>
        <Form.Item label={t("home.smsCode")} required>
          <Space.Compact style={{ width: "100%" }}>
            <Form.Item name="smsCode" noStyle rules={[rule("smsCode")]}>
              <Input placeholder={t("home.smsCodePlaceholder")} autoComplete="one-time-code" maxLength={12} />
            </Form.Item>
            <CodeButton onSend={sendCode} />
          </Space.Compact>
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={bind.isPending}>
          {t("common.confirm")}
        </Button>
      </Form>
    </Modal>
  );
}
