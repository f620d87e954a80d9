import { App, Form, InputNumber, Modal, Typography } from "antd";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { ONECARD_LIMITS, ocBatchReq, type OcProduct } from "@tessera/contracts";
import { reportFailure } from "../../ui/form/serverError";
import { useZodRules } from "../../ui/form/useZodRules";
import { newRequestKey } from "./api";
import { ocBrandApi } from "./brandApi";

/** Issues a batch of cards of a product: numbers in sequence with a check digit, random passwords (idempotent per dialog). */
export function IssueDialog({
  product,
  onClose,
  onIssued,
}: {
  product: OcProduct;
  onClose: () => void;
  onIssued: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ count: number }>();
  const [requestKey] = useState(() => newRequestKey("ocbatch"));
  const [saving, setSaving] = useState(false);
  const rule = useZodRules(
    ocBatchReq,
    useMemo(() => ({ productId: product.id, requestKey }), [product.id, requestKey]),
  );
  const submit = async () => {
    const v = await form.validateFields();
    setSaving(true);
    try {
      const r = await ocBrandApi.issue({ productId: product.id, count: v.count, requestKey });
      if (reportFailure(r, form, ["count"], (msg) => void message.error(msg)) || !r?.ok) return;
      void message.success(
        t("onecard.bo.issuedMsg", { count: r.data.count, first: r.data.firstNo, last: r.data.lastNo }),
      );
      onIssued();
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open
      title={`${t("onecard.bo.issue")} · ${product.name}`}
      onCancel={onClose}
      onOk={() => void submit()}
      okText={t("onecard.bo.issue")}
      okButtonProps={{ "data-testid": "issue-submit" }}
      confirmLoading={saving}
      maskClosable={false}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" initialValues={{ count: 100 }}>
        {/* No min on the input: it would quietly turn a typed 0 into 1 card. The shared rule refuses 0 in words (issue 37). */}
        <Form.Item
          name="count"
          label={t("onecard.bo.count")}
          validateFirst
          rules={[{ required: true, message: t("onecard.bo.required") }, rule("count")]}
          extra={t("onecard.bo.issueHint", { max: ONECARD_LIMITS.maxBatch })}
        >
          <InputNumber precision={0} style={{ width: 220 }} data-testid="issue-count" />
        </Form.Item>
      </Form>
      <Typography.Text type="secondary">{t("onecard.bo.issueSecret")}</Typography.Text>
    </Modal>
  );
}
