import { useQuery } from "@tanstack/react-query";
import { Alert, App, Col, DatePicker, Form, Input, InputNumber, Modal, Radio, Row, Select, Switch } from "antd";
import dayjs, { type Dayjs } from "dayjs";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { Currency, OcProduct, OnecardKind } from "@tessera/contracts";
import { reportFailure } from "../../ui/form/serverError";
import { parseMoney } from "../../ui/money";
import { ocBrandApi, type ProductBody } from "./brandApi";

interface FormValues {
  name: string;
  faceValue: string;
  salePrice?: string;
  named: boolean;
  validityKind: "fixed" | "days" | "none";
  until?: Dayjs;
  days?: number;
  rechargeAllowed: boolean;
  /** The names of the brand's stores where the card is used; none: all of them. */
  scope?: string[];
  terms?: string;
}

/** The stores of a card product's scope are kept as their names, joined (the card shows them as text). */
const SCOPE_JOIN = "、";

const FIELDS = ["name", "faceValue", "salePrice", "scope", "terms"] as const;
const major = (minor: number) => (minor / 100).toFixed(2);

/**
 * Defines or changes a card product of one kind. Money is typed in major units. A face-value card
 * sells at its face value (no price field); a discount card below it; a guide card may carry no value.
 * Once cards are issued the server refuses changes to the value, holder type and validity.
 */
export function ProductFormDialog({
  kind,
  product,
  currency,
  onClose,
  onSaved,
}: {
  kind: OnecardKind;
  product: OcProduct | null;
  currency: Currency;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<FormValues>();
  const [saving, setSaving] = useState(false);
  const [initialValues] = useState<Partial<FormValues>>(() =>
    product
      ? {
          name: product.name,
          faceValue: major(product.faceValue.amount),
          salePrice: major(product.salePrice.amount),
          named: product.named,
          validityKind: product.validity.kind,
          until: product.validity.until ? dayjs(product.validity.until) : undefined,
          days: product.validity.days ?? undefined,
          rechargeAllowed: product.rechargeAllowed,
          scope: product.scope ? product.scope.split(SCOPE_JOIN).filter(Boolean) : [],
          terms: product.terms,
        }
      : {
          named: false,
          validityKind: "days",
          days: 1095,
          rechargeAllowed: true,
          faceValue: kind === "guide" ? "0" : undefined,
        },
  );
  const validityKind = Form.useWatch("validityKind", form) ?? initialValues.validityKind;
  // The brand's stores to choose the card's stores from (issue 40 item 14), not names typed in.
  const stores = useQuery({ queryKey: ["onecard", "brandStores"], queryFn: () => ocBrandApi.stores() });
  const required = { required: true, message: t("onecard.bo.required") };
  const moneyRule = {
    required: true,
    validator: (_: unknown, v: string | undefined) =>
      v && parseMoney(v, currency) !== null
        ? Promise.resolve()
        : Promise.reject(new Error(t("onecard.bo.amountInvalid"))),
  };

  const submit = async () => {
    const v = await form.validateFields();
    const faceValue = parseMoney(v.faceValue, currency) ?? 0;
    const body: ProductBody = {
      kind,
      name: v.name,
      faceValue,
      salePrice: kind === "face_value" ? faceValue : (parseMoney(v.salePrice ?? "", currency) ?? 0),
      named: v.named,
      validity:
        v.validityKind === "fixed"
          ? { kind: "fixed", until: (v.until ?? dayjs()).format("YYYY-MM-DD") }
          : v.validityKind === "days"
            ? { kind: "days", days: v.days ?? 1 }
            : { kind: "none" },
      rechargeAllowed: v.rechargeAllowed,
      scope: (v.scope ?? []).join(SCOPE_JOIN),
      terms: v.terms ?? "",
    };
    setSaving(true);
    try {
      const r = product ? await ocBrandApi.update(product.id, body) : await ocBrandApi.create(body);
      if (reportFailure(r, form, FIELDS, (msg) => void message.error(msg)) || !r?.ok) return;
      void message.success(t("onecard.bo.saved"));
      onSaved();
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open
      title={`${product ? t("onecard.bo.edit") : t("onecard.bo.newProduct")} · ${t(`onecard.bo.kind.${kind}`)}`}
      width={760}
      onCancel={onClose}
      onOk={() => void submit()}
      okText={t("onecard.bo.save")}
      okButtonProps={{ "data-testid": "product-save" }}
      confirmLoading={saving}
      maskClosable={false}
      destroyOnHidden
    >
      {kind === "guide" && (
        <Alert type="info" showIcon style={{ marginBottom: 16 }} title={t("onecard.bo.guideNote")} />
      )}
      {product && product.issued > 0 && (
        <Alert type="warning" showIcon style={{ marginBottom: 16 }} title={t("msg:onecard.productIssued")} />
      )}
      <Form form={form} layout="vertical" requiredMark initialValues={initialValues}>
        <Row gutter={16}>
          <Col span={24}>
            <Form.Item name="name" label={t("onecard.bo.name")} rules={[required]}>
              <Input maxLength={60} data-testid="product-name" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="faceValue" label={`${t("onecard.faceValue")} (${currency})`} rules={[moneyRule]}>
              <Input inputMode="decimal" data-testid="product-face" />
            </Form.Item>
          </Col>
          {kind !== "face_value" && (
            <Col xs={24} md={12}>
              <Form.Item name="salePrice" label={`${t("onecard.bo.salePrice")} (${currency})`} rules={[moneyRule]}>
                <Input inputMode="decimal" data-testid="product-price" />
              </Form.Item>
            </Col>
          )}
          <Col xs={24} md={12}>
            <Form.Item name="named" label={t("onecard.bo.holder")} extra={t("onecard.bo.holderHint")}>
              <Radio.Group
                options={[
                  { value: false, label: t("onecard.bo.bearer") },
                  { value: true, label: t("onecard.bo.named") },
                ]}
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item
              name="rechargeAllowed"
              label={t("onecard.bo.rechargeAllowed")}
              valuePropName="checked"
              extra={
                <>
                  {t("onecard.bo.rechargeNeeds")}{" "}
                  <a href="/sale/SupplierDocking" target="_blank" rel="noreferrer">
                    {t("onecard.bo.rechargeSetup")}
                  </a>
                </>
              }
            >
              <Switch />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="validityKind" label={t("onecard.bo.validity")}>
              <Radio.Group
                options={[
                  { value: "days", label: t("onecard.bo.validDays") },
                  { value: "fixed", label: t("onecard.bo.validFixed") },
                  { value: "none", label: t("onecard.noExpiry") },
                ]}
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            {validityKind === "days" && (
              <Form.Item name="days" label={t("onecard.bo.validDays")} rules={[required]}>
                <InputNumber min={1} max={36_500} precision={0} style={{ width: "100%" }} />
              </Form.Item>
            )}
            {validityKind === "fixed" && (
              <Form.Item name="until" label={t("onecard.bo.validFixed")} rules={[required]}>
                <DatePicker style={{ width: "100%" }} disabledDate={(d) => d.isBefore(dayjs().startOf("day"))} />
              </Form.Item>
            )}
          </Col>
          <Col span={24}>
            <Form.Item name="scope" label={t("onecard.bo.scope")} extra={t("onecard.bo.scopeHelp")}>
              <Select
                mode="multiple"
                allowClear
                loading={stores.isLoading}
                placeholder={t("onecard.bo.scopeAll")}
                optionFilterProp="label"
                options={(stores.data?.list ?? []).map((st) => ({ value: st.name, label: st.name }))}
                notFoundContent={t("onecard.bo.noStores")}
                aria-label={t("onecard.bo.scope")}
              />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Form.Item name="terms" label={t("onecard.bo.terms")}>
              <Input.TextArea rows={3} maxLength={4000} />
            </Form.Item>
          </Col>
        </Row>
      </Form>
    </Modal>
  );
}
