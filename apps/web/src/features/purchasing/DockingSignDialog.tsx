import { App, Button, Form, Input, Modal, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { dockingConfirmReq, type Docking } from "@tessera/contracts";
import { useSendSmsCode } from "../accounts/api";
import { useSignDocking } from "../docking/api";
import { CodeField, useCodeSender } from "../../ui/form/CodeField";
import { reportFailure } from "../../ui/form/serverError";
import { useZodRules } from "../../ui/form/useZodRules";

interface Values {
  phone: string;
  verifyCode: string;
}

/** Signing the docking agreement: the signer's phone and the SMS code sent to it (spec 01 §5). */
export function DockingSignDialog({ docking, onClose }: { docking: Docking; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const rule = useZodRules(dockingConfirmReq);
  const send = useSendSmsCode();
  const sign = useSignDocking();
  const onSend = useCodeSender(form, "phone", (phone) => send.mutateAsync({ phone, scene: "signAgreement" }));
  const submit = async (v: Values) => {
    const result = await sign.mutateAsync({ id: docking.id, phone: v.phone.trim(), verifyCode: v.verifyCode.trim() });
    if (reportFailure(result, form, ["phone", "verifyCode"], (m) => void message.error(m))) return;
    void message.success(t("docking.signed"));
    onClose();
  };
  return (
    <Modal
      open
      title={t("docking.signTitle")}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
      mask={{ closable: false }}
    >
      <Typography.Paragraph type="secondary">
        {t("docking.signBody", { name: docking.counterpartName, id: docking.counterpartId })}
      </Typography.Paragraph>
      <Form<Values>
        form={form}
        layout="vertical"
        requiredMark={false}
        validateTrigger="onBlur"
        onFinish={(v) => void submit(v)}
      >
        <Form.Item name="phone" label={t("home.phone")} rules={[rule("phone")]}>
          <Input inputMode="numeric" maxLength={11} placeholder={t("home.phonePlaceholder")} data-testid="sign-phone" />
        </Form.Item>
        <CodeField
          name="verifyCode"
          label={t("home.smsCode")}
          placeholder={t("home.smsCodePlaceholder")}
          rule={rule("verifyCode")}
          onSend={onSend}
        />
        <Button type="primary" htmlType="submit" block loading={sign.isPending} data-testid="sign-submit">
          {t("docking.sign")}
        </Button>
      </Form>
    </Modal>
  );
}
