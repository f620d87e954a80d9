import { Form, Input, type FormRule } from "antd";
import { useTranslation } from "react-i18next";

/** New password and its confirmation, with the strength rule shown under the first (spec 01 §5). */
export function NewPasswordFields({
  rule,
  passwordLabel,
}: {
  rule: (field: string) => FormRule;
  passwordLabel: string;
}) {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item
        name="password"
        label={passwordLabel}
        rules={[rule("password")]}
        extra={t("msg:validation.passwordRule")}
      >
        <Input.Password placeholder={t("auth.newPasswordPlaceholder")} autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        name="confirmPassword"
        label={t("auth.confirmPassword")}
        dependencies={["password"]}
        rules={[rule("confirmPassword")]}
      >
        <Input.Password placeholder={t("auth.confirmPasswordPlaceholder")} autoComplete="new-password" />
      </Form.Item>
    </>
  );
}
