import { App, Form, Input, Space, type FormInstance, type FormRule } from "antd";
import { useTranslation } from "react-i18next";
import type { SendCodeReply } from "@tessera/contracts";
import type { ApiResult } from "../../api/envelope";
import { CodeButton } from "./CodeButton";
import { reportFailure } from "./serverError";

/** A verification-code input with its "send code" button and countdown, as one form row. */
export function CodeField({
  name,
  label,
  placeholder,
  rule,
  onSend,
}: {
  name: string;
  label: string;
  placeholder: string;
  rule: FormRule;
  onSend: () => Promise<number | null>;
}) {
  return (
    <Form.Item label={label} required>
      <Space.Compact style={{ width: "100%" }}>
        <Form.Item name={name} noStyle rules={[rule]}>
          <Input placeholder={placeholder} autoComplete="one-time-code" maxLength={12} />
        </Form.Item>
        <CodeButton onSend={onSend} />
      </Space.Compact>
    </Form.Item>
  );
}

/**
 * The "send code" action of a form: checks the field the code goes to (an email or a phone), asks the
 * server, shows the outcome on the field or as a toast, and resolves to the seconds until a resend is
 * allowed (null when nothing was sent).
 */
export function useCodeSender(
  form: FormInstance,
  targetField: string,
  send: (target: string) => Promise<ApiResult<SendCodeReply> | undefined>,
): () => Promise<number | null> {
  const { t } = useTranslation();
  const { message } = App.useApp();
  return async () => {
    try {
      await form.validateFields([targetField]);
    } catch {
      return null;
    }
    const result = await send((form.getFieldValue(targetField) as string).trim());
    if (reportFailure(result, form, [targetField], (m) => void message.error(m)) || !result?.ok) return null;
    void message.success(t("code.sent"));
    return result.data.resendIn;
  };
}
