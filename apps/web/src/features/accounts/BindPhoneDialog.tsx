import { App, Button, Form, Input, Modal } from "antd";
import { useTranslation } from "react-i18next";
import { userPhoneReq } from "@tessera/contracts";
import { useBindPhone, useSendSmsCode } from "../../api/hooks/account";
import { CodeField, useCodeSender } from "../../ui/form/CodeField";
import { reportFailure } from "../../ui/form/serverError";
import { useZodRules } from "../../ui/form/useZodRules";

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

  const sendCode = useCodeSender(form, "phone", (phone) => send.mutateAsync({ phone, scene: "bindPhone" }));

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
      <Form<Values>
        form={form}
        layout="vertical"
        requiredMark={false}
        validateTrigger="onBlur"
        onFinish={(v) => void submit(v)}
        style={{ paddingTop: 8 }}
      >
        <Form.Item name="phone" label={t("home.phone")} rules={[rule("phone")]}>
          <Input placeholder={t("home.phonePlaceholder")} autoComplete="tel" inputMode="numeric" maxLength={11} />
        </Form.Item>
        <CodeField
          name="smsCode"
          label={t("home.smsCode")}
          placeholder={t("home.smsCodePlaceholder")}
          rule={rule("smsCode")}
          onSend={sendCode}
        />
        <Button type="primary" htmlType="submit" block loading={bind.isPending}>
          {t("common.confirm")}
        </Button>
      </Form>
    </Modal>
  );
}
