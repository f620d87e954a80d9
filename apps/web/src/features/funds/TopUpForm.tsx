import { UploadOutlined } from "@ant-design/icons";
import { App, Button, Card, Descriptions, Form, Input, Radio, Upload, type UploadFile } from "antd";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { payerProblem, topUpReq, type Currency, type PayerType, type Version } from "@tessera/contracts";
import { newRequestKey, useSubmitTopUp, useUploadProof } from "./api";
import { reportFailure } from "../../ui/form/serverError";
import { useMessageText, useZodRules } from "../../ui/form/useZodRules";
import { CURRENCY_SYMBOLS, formatMoney, parseMoney } from "../../ui/money";

interface Values {
  amountText: string;
  payerType: PayerType;
  payerName: string;
  idNumber: string;
  otherAccount: string;
  transferRef: string;
}

/** Values the shared schema needs that are not typed by the user: checked elsewhere or set on submit. */
const SCHEMA_EXTRA = { amount: 1, confirmed: true, requestKey: "validation-only" } as const;
const FIELDS = ["payerName", "idNumber", "otherAccount", "transferRef", "payerType"] as const;

/**
 * The top-up notice (spec 01 §5 Top-up): amount, payer type, name and ID number, the paying account,
 * the transfer reference and an image of the transfer; the user confirms the details before it is
 * filed. An operator then confirms it against the bank statement.
 */
export function TopUpForm({ currency, version }: { currency: Currency; version: Version }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const text = useMessageText();
  const [form] = Form.useForm<Values>();
  const rule = useZodRules(topUpReq, SCHEMA_EXTRA);
  const upload = useUploadProof();
  const submit = useSubmitTopUp();
  const [proof, setProof] = useState<{ id: string; file: UploadFile } | null>(null);
  const [requestKey, setRequestKey] = useState(newRequestKey);
  const payerType = Form.useWatch("payerType", form) ?? "company";

  const payerRule = useMemo(
    () => (field: "payerName" | "idNumber") => ({
      validator: () => {
        const v = form.getFieldsValue();
        if (!v.payerName?.trim() || !v.idNumber?.trim()) return Promise.resolve();
        const problem = payerProblem(version, v.payerType, v.payerName.trim(), v.idNumber.trim());
        return problem?.field === field ? Promise.reject(new Error(text(problem.key))) : Promise.resolve();
      },
    }),
    [form, version, text],
  );

  const file = async (v: Values) => {
    const amount = parseMoney(v.amountText, currency);
    if (!amount) return;
    const result = await submit.mutateAsync({
      amount,
      payerType: v.payerType,
      payerName: v.payerName.trim(),
      idNumber: v.idNumber.trim(),
      otherAccount: v.otherAccount.trim(),
      transferRef: v.transferRef.trim(),
      ...(proof && { proofId: proof.id }),
      confirmed: true,
      requestKey,
    });
    if (reportFailure(result, form, FIELDS, (m) => void message.error(m))) return;
    void message.success(t("funds.topUpFiled"));
    form.resetFields();
    setProof(null);
    setRequestKey(newRequestKey());
  };

  /** Confirmation before submit (spec 01 §5): the user reads back what will be filed. */
  const confirm = (v: Values) => {
    const amount = parseMoney(v.amountText, currency) ?? 0;
    modal.confirm({
      title: t("funds.confirmTitle"),
      width: 520,
      content: (
        <Descriptions column={1} size="small" style={{ marginTop: 12 }}>
          <Descriptions.Item label={t("funds.amount")}>{formatMoney({ amount, currency })}</Descriptions.Item>
          <Descriptions.Item label={t("funds.payerType")}>{t(`funds.payer.${v.payerType}`)}</Descriptions.Item>
          <Descriptions.Item label={t("funds.payerName")}>{v.payerName}</Descriptions.Item>
          <Descriptions.Item label={t(`funds.idNumberOf.${v.payerType}`)}>{v.idNumber}</Descriptions.Item>
          <Descriptions.Item label={t("funds.otherAccount")}>{v.otherAccount}</Descriptions.Item>
          <Descriptions.Item label={t("funds.transferRef")}>{v.transferRef}</Descriptions.Item>
        </Descriptions>
      ),
      okText: t("funds.confirmSubmit"),
      onOk: () => file(v),
    });
  };

  return (
    <Card variant="borderless" title={t("funds.fileNotice")}>
      <Form<Values>
        form={form}
        layout="vertical"
        requiredMark={false}
        validateTrigger="onBlur"
        initialValues={{ payerType: "company" }}
        onFinish={confirm}
        style={{ maxWidth: 560 }}
      >
        <Form.Item
          name="amountText"
          label={t("funds.amount")}
          rules={[
            { required: true, whitespace: true, message: text("funds.amountEmpty") },
            {
              validator: (_r, v: string | undefined) =>
                !v || (parseMoney(v, currency) ?? 0) > 0
                  ? Promise.resolve()
                  : Promise.reject(new Error(text("funds.amountInvalid"))),
            },
          ]}
        >
          <Input prefix={CURRENCY_SYMBOLS[currency]} inputMode="decimal" placeholder="0.00" />
        </Form.Item>
        <Form.Item name="payerType" label={t("funds.payerType")} rules={[rule("payerType")]}>
          <Radio.Group
            optionType="button"
            options={[
              { value: "company", label: t("funds.payer.company") },
              { value: "personal", label: t("funds.payer.personal") },
            ]}
          />
        </Form.Item>
        <Form.Item
          name="payerName"
          label={t("funds.payerName")}
          rules={[rule("payerName"), payerRule("payerName")]}
          dependencies={["payerType"]}
        >
          <Input maxLength={100} placeholder={t(`funds.payerNamePlaceholder.${payerType}`)} />
        </Form.Item>
        <Form.Item
          name="idNumber"
          label={t(`funds.idNumberOf.${payerType}`)}
          rules={[rule("idNumber"), payerRule("idNumber")]}
          dependencies={["payerType"]}
        >
          <Input maxLength={30} />
        </Form.Item>
        <Form.Item name="otherAccount" label={t("funds.otherAccount")} rules={[rule("otherAccount")]}>
          <Input maxLength={34} inputMode="numeric" />
        </Form.Item>
        <Form.Item name="transferRef" label={t("funds.transferRef")} rules={[rule("transferRef")]}>
          <Input maxLength={64} />
        </Form.Item>
        <Form.Item label={t("funds.proof")} extra={t("funds.proofHint")}>
          <Upload
            accept="image/png,image/jpeg,image/webp,image/gif"
            maxCount={1}
            listType="picture"
            fileList={proof ? [proof.file] : []}
            onRemove={() => setProof(null)}
            customRequest={({ file: raw, onSuccess, onError }) => {
              const f = raw as File;
              void upload.mutateAsync(f).then((result) => {
                if (result?.ok) {
                  setProof({
                    id: result.data.proofId,
                    file: { uid: result.data.proofId, name: f.name, status: "done" },
                  });
                  onSuccess?.(result.data);
                } else {
                  if (result) void message.error(result.msg);
                  onError?.(new Error(result?.msg ?? "upload"));
                }
              });
            }}
          >
            <Button icon={<UploadOutlined />} loading={upload.isPending}>
              {t("funds.uploadProof")}
            </Button>
          </Upload>
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={submit.isPending}>
          {t("funds.submitNotice")}
        </Button>
      </Form>
    </Card>
  );
}
