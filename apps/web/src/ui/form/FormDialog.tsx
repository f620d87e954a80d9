import { Button, Form, Modal, type FormInstance } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";

export interface FormDialogProps<V> {
  title: ReactNode;
  form: FormInstance<V>;
  /** The form's submit (useAction's `submit`). */
  onSubmit: (values: V) => unknown;
  /** True while the submit runs: the button spins and a second click does nothing. */
  pending: boolean;
  onClose: () => void;
  /** The submit button's text (default 确认 / Confirm). */
  submitText?: ReactNode;
  initialValues?: Partial<V>;
  width?: number;
  /** A large submit button (the sign-in dialogs). */
  large?: boolean;
  children: ReactNode;
}

/**
 * A dialog holding one form (issue 39's UI kit): a vertical form validated on blur, its fields, and one
 * full-width submit button. A click outside does not close it (what was typed stays until Cancel), and
 * it forgets its fields when closed.
 */
export function FormDialog<V>(props: FormDialogProps<V>) {
  const { t } = useTranslation();
  return (
    <Modal
      open
      title={props.title}
      onCancel={props.onClose}
      footer={null}
      mask={{ closable: false }}
      destroyOnHidden
      {...(props.width !== undefined && { width: props.width })}
    >
      <Form<V>
        form={props.form}
        layout="vertical"
        requiredMark={false}
        validateTrigger="onBlur"
        onFinish={(v) => void props.onSubmit(v)}
        style={{ paddingTop: 8 }}
        {...(props.initialValues !== undefined && { initialValues: props.initialValues })}
      >
        {props.children}
        <Button
          type="primary"
          htmlType="submit"
          block
          loading={props.pending}
          {...(props.large && { size: "large" as const })}
        >
          {props.submitText ?? t("common.confirm")}
        </Button>
      </Form>
    </Modal>
  );
}
