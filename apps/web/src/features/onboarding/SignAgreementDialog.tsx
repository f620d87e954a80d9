import { App, Alert, Button, Checkbox, Form, Input, Modal, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { signAgreementReq, type AgreementTemplateReply } from "@tessera/contracts";
import { useSendSmsCode } from "../accounts/api";
import { useSignAgreement } from "./api";
import { CodeField, useCodeSender } from "../../ui/form/CodeField";
import { reportFailure } from "../../ui/form/serverError";
import { useZodRules } from "../../ui/form/useZodRules";

interface Values {
  consent: boolean;
  phone: string;
  smsCode: string;
}

/**
 * The reserve-fund authorisation / e-signature dialog (spec 01 §2 screen 17, §5): the agreement text,
 * consent ticked, the phone and its SMS code (with the resend countdown), then sign.
 */
export function SignAgreementDialog({
  agreement,
  onClose,
}: {
  agreement: AgreementTemplateReply | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const sign = useSignAgreement();
  const sendSms = useSendSmsCode();
  const extra = agreement ? { kind: agreement.kind, version: agreement.version } : undefined;
  const rule = useZodRules(signAgreementReq, extra, ["consent"]);
  const onSend = useCodeSender(form, "phone", (phone) => sendSms.mutateAsync({ phone, scene: "signAgreement" }));

  const submit = async (v: Values) => {
    if (!agreement) return;
    const result = await sign.mutateAsync({
      kind: agreement.kind,
      version: agreement.version,
      consent: true,
      phone: v.phone,
      smsCode: v.smsCode,
    });
    if (reportFailure(result, form, ["phone", "smsCode", "consent"], (m) => void message.error(m))) return;
    void message.success(t("onboarding.agreement.signed"));
    onClose();
  };

  return (
    <Modal
      open={agreement !== null}
      title={agreement?.title}
      onCancel={onClose}
      maskClosable={false}
      destroyOnHidden
      width={640}
      footer={
        <Button type="primary" loading={sign.isPending} onClick={() => form.submit()} data-testid="agreement-sign">
          {t("onboarding.agreement.sign")}
        </Button>
      }
    >
      {agreement && (
        <>
          <Typography.Text type="secondary">
            {t("onboarding.agreement.version", { version: agreement.version })}
          </Typography.Text>
          <div
            style={{
              maxHeight: 220,
              overflow: "auto",
              whiteSpace: "pre-wrap",
              background: "#fafafa",
              border: "1px solid #f0f0f0",
              borderRadius: 6,
              padding: 12,
              margin: "8px 0 16px",
            }}
          >
            {agreement.body}
          </div>
          <Form form={form} layout="vertical" requiredMark={false} onFinish={(v) => void submit(v)} preserve={false}>
            <Form.Item
              name="consent"
              valuePropName="checked"
              rules={[
                {
                  validator: (_, v) =>
                    v === true ? Promise.resolve() : Promise.reject(new Error(t("msg:agreement.consentRequired"))),
                },
              ]}
            >
              <Checkbox data-testid="agreement-consent">
                {t("onboarding.agreement.consent", { title: agreement.title })}
              </Checkbox>
            </Form.Item>
            <Form.Item name="phone" label={t("onboarding.agreement.phone")} rules={[rule("phone")]}>
              <Input maxLength={11} data-testid="agreement-phone" />
            </Form.Item>
            <CodeField
              name="smsCode"
              label={t("onboarding.agreement.smsCode")}
              placeholder={t("onboarding.agreement.smsCodeHint")}
              rule={rule("smsCode")}
              onSend={onSend}
            />
          </Form>
          <Alert type="info" showIcon title={t("onboarding.agreement.recorded")} />
        </>
      )}
    </Modal>
  );
}
