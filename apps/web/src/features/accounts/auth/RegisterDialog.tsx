import { App, Button, Checkbox, Flex, Form, Input, Modal, Radio, Select, Typography } from "antd";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { INTERNATIONAL_CURRENCIES, isLang, registerReq, type RegisterReq, type Version } from "@tessera/contracts";
import { useRegister, useSendEmailCode } from "../api";
import { CodeField, useCodeSender } from "../../../ui/form/CodeField";
import { NewPasswordFields } from "../../../ui/form/NewPasswordFields";
import { reportFailure } from "../../../ui/form/serverError";
import { useZodRules } from "../../../ui/form/useZodRules";
import { regionOptions } from "../../../ui/regions";
import { useAuthDialogs } from "./context";

interface RegisterValues {
  email: string;
  emailCode: string;
  password: string;
  confirmPassword: string;
  orgName: string;
  country?: string;
  currency?: "USD" | "HKD";
  agree: boolean;
}
const FIELDS = ["email", "emailCode", "password", "confirmPassword", "orgName", "country", "currency"] as const;
const OPTIONAL = ["currency"] as const;

/**
 * Registration (spec 01 §3, §5): email with a code, password with the strength rule, confirmation,
 * organisation name and the agreement. The international version adds the country or region (only
 * Hong Kong, Singapore, Europe and the Americas are accepted) and the settlement currency.
 */
export function RegisterDialog({ version }: { version: Version }) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const dialogs = useAuthDialogs();
  const [form] = Form.useForm<RegisterValues>();
  const extra = useMemo(() => ({ version }), [version]);
  const rule = useZodRules(registerReq, extra, OPTIONAL);
  const register = useRegister();
  const sendEmail = useSendEmailCode();
  const international = version === "international";
  const lang = isLang(i18n.language) ? i18n.language : "cn";
  const regions = useMemo(() => (international ? regionOptions(lang) : []), [international, lang]);
  const toast = (m: string) => void message.error(m);

  const sendCode = useCodeSender(form, "email", (email) => sendEmail.mutateAsync({ email, scene: "register" }));

  const submit = async (v: RegisterValues) => {
    const req: RegisterReq = {
      email: v.email.trim(),
      emailCode: v.emailCode.trim(),
      password: v.password,
      confirmPassword: v.confirmPassword,
      orgName: v.orgName.trim(),
      version,
      ...(international ? { country: v.country, currency: v.currency } : {}),
    };
    const result = await register.mutateAsync(req);
    if (reportFailure(result, form, FIELDS, toast)) return;
    void message.success(t("auth.registerSuccess"));
    dialogs.open("login", { email: req.email });
  };

  return (
    <Modal
      open
      width={520}
      title={t(international ? "auth.intlRegisterTitle" : "auth.registerTitle")}
      footer={null}
      onCancel={dialogs.close}
      mask={{ closable: false }}
      destroyOnHidden
    >
      <Form<RegisterValues>
        form={form}
        layout="vertical"
        requiredMark={false}
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
        <NewPasswordFields rule={rule} passwordLabel={t("auth.password")} />
        <Form.Item name="orgName" label={t("auth.orgName")} rules={[rule("orgName")]}>
          <Input placeholder={t("auth.orgNamePlaceholder")} maxLength={100} autoComplete="organization" />
        </Form.Item>
        {international && (
          <>
            <Form.Item name="country" label={t("auth.country")} rules={[rule("country")]} extra={t("auth.countryHint")}>
              <Select
                options={regions}
                placeholder={t("auth.countryPlaceholder")}
                showSearch={{ optionFilterProp: "label" }}
                virtual
              />
            </Form.Item>
            <Form.Item name="currency" label={t("auth.currency")} rules={[rule("currency")]}>
              <Radio.Group
                options={INTERNATIONAL_CURRENCIES.map((c) => ({ value: c, label: t(`currency.${c}`) }))}
                optionType="button"
              />
            </Form.Item>
          </>
        )}
        <Form.Item
          name="agree"
          valuePropName="checked"
          validateTrigger="onChange"
          rules={[
            { validator: (_, v) => (v ? Promise.resolve() : Promise.reject(new Error(t("auth.agreeRequired")))) },
          ]}
        >
          <Checkbox>
            {t("auth.agreePrefix")}
            <Typography.Link
              onClick={(e) => {
                e.preventDefault();
                dialogs.openAgreement();
              }}
            >
              {t("agreement.linkText")}
            </Typography.Link>
          </Checkbox>
        </Form.Item>
        <Button type="primary" htmlType="submit" block size="large" loading={register.isPending}>
          {t("auth.register")}
        </Button>
        <Flex justify="center" style={{ marginTop: 16 }}>
          <Typography.Text type="secondary">
            {t("auth.haveAccount")}{" "}
            <Typography.Link onClick={() => dialogs.open("login")}>{t("auth.loginNow")}</Typography.Link>
          </Typography.Text>
        </Flex>
      </Form>
    </Modal>
  );
}
