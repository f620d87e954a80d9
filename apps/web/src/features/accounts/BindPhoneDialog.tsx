import { Form, Input } from "antd";
import { useTranslation } from "react-i18next";
import { userPhoneReq } from "@tessera/contracts";
import { useBindPhone, useSendSmsCode } from "./api";
import { CodeField, useCodeSender } from "../../ui/form/CodeField";
import { FormDialog } from "../../ui/form/FormDialog";
import { useAction } from "../../ui/form/useAction";
import { useZodRules } from "../../ui/form/useZodRules";

interface Values {
  phone: string;
  smsCode: string;
}

/** Bind or change the mobile number: an SMS code (scene bindPhone), then PUT userPhone. */
export function BindPhoneDialog({ onClose, current }: { onClose: () => void; current: string | null }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const rule = useZodRules(userPhoneReq);
  const send = useSendSmsCode();
  const bind = useBindPhone();
  const sendCode = useCodeSender(form, "phone", (phone) => send.mutateAsync({ phone, scene: "bindPhone" }));
  const action = useAction(form, {
    run: (v) => bind.mutateAsync({ phone: v.phone.trim(), smsCode: v.smsCode.trim() }),
    fields: ["phone", "smsCode"],
    success: t("home.phoneBound"),
    then: onClose,
  });

  return (
    <FormDialog
      title={t(current ? "home.changePhone" : "home.bindPhone")}
      form={form}
      onSubmit={action.submit}
      pending={action.pending}
      onClose={onClose}
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
    </FormDialog>
  );
}
