import { PlusOutlined } from "@ant-design/icons";
import { App, Col, Form, Input, InputNumber, Modal, Row, Select, Switch, Upload, type UploadFile } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import {
  ARRIVAL_QUERY_METHODS,
  BUSINESS_TYPES,
  DEDUCTION_ACCOUNTS,
  EQUITY_TYPES,
  INVOICE_TYPES,
  SALES_SCOPES,
  TOP_UP_ACCOUNT_TYPES,
  type Brand,
  type Currency,
  type Goods,
  type GoodsReq,
} from "@tessera/contracts";
import { reportFailure } from "../../ui/form/serverError";
import { parseMoney } from "../../ui/money";
import { catalogApi } from "./api";
import { useDictLabels } from "./labels";

interface FormValues extends Omit<GoodsReq, "faceValue" | "price" | "settlementPrice" | "images"> {
  faceValue: string;
  price: string;
  settlementPrice: string;
}

const FIELDS = [
  "name",
  "brandId",
  "businessType",
  "equityType",
  "faceValue",
  "code",
  "perOrderMax",
  "deductionAccount",
  "invoiceType",
  "salesScope",
  "price",
  "settlementPrice",
  "weight",
  "description",
  "topUpRestrictions",
  "arrivalQueryMethod",
  "topUpAccountType",
  "recommendationIndex",
  "salesIndex",
  "smartPurchase",
  "lowStockThreshold",
] as const;

const major = (minor: number) => (minor / 100).toFixed(2);

/** Add or edit a goods with every field of spec 01 §3 Goods; money is typed in major units, sent as minor units. */
export function GoodsFormDialog({
  open,
  goods,
  brands,
  currency,
  onClose,
  onSaved,
}: {
  open: boolean;
  goods: Goods | null;
  brands: Brand[];
  currency: Currency;
  onClose: () => void;
  onSaved: (g: Goods) => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const labels = useDictLabels();
  const [form] = Form.useForm<FormValues>();
  // The parent mounts a fresh dialog per goods (key), so the initial values are read once here.
  const [files, setFiles] = useState<UploadFile[]>(() =>
    (goods?.images ?? []).map((img) => ({
      uid: img.key,
      name: img.key,
      status: "done",
      url: img.url,
      thumbUrl: img.thumbUrl,
      response: img.key,
    })),
  );
  const [initialValues] = useState<Partial<FormValues>>(() =>
    goods
      ? {
          ...goods,
          faceValue: major(goods.faceValue),
          price: major(goods.price),
          settlementPrice: major(goods.settlementPrice),
        }
      : {
          brandId: brands[0]?.id,
          businessType: "card_secret",
          equityType: "video",
          perOrderMax: 10,
          deductionAccount: "sup",
          invoiceType: "vat_6",
          salesScope: "all",
          weight: 0,
          arrivalQueryMethod: "none",
          topUpAccountType: "none",
          recommendationIndex: 0,
          salesIndex: 0,
          smartPurchase: false,
          lowStockThreshold: 0,
        },
  );
  const [saving, setSaving] = useState(false);

  const opts = (values: readonly string[], prefix: string) =>
    values.map((v) => ({ value: v, label: t(`${prefix}.${v}`) }));
  const moneyRule = {
    required: true,
    validator: (_: unknown, v: string | undefined) =>
      v && parseMoney(v, currency) !== null
        ? Promise.resolve()
        : Promise.reject(new Error(t("catalog.msg.amountInvalid"))),
  };
  const required = { required: true, message: t("catalog.msg.required") };

  const submit = async () => {
    const v = await form.validateFields();
    const body: GoodsReq = {
      ...v,
      faceValue: parseMoney(v.faceValue, currency) ?? 0,
      price: parseMoney(v.price, currency) ?? 0,
      settlementPrice: parseMoney(v.settlementPrice, currency) ?? 0,
      images: files.map((f) => (typeof f.response === "string" ? f.response : "")).filter(Boolean),
    };
    setSaving(true);
    try {
      const result = goods ? await catalogApi.update({ ...body, id: goods.id }) : await catalogApi.add(body);
      if (reportFailure(result, form, FIELDS, (msg) => void message.error(msg)) || !result?.ok) return;
      void message.success(t("catalog.msg.saved"));
      onSaved(result.data);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={goods ? t("catalog.action.edit") : t("catalog.action.add")}
      width={860}
      onCancel={onClose}
      onOk={() => void submit()}
      okText={t("catalog.action.save")}
      confirmLoading={saving}
      maskClosable={false}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" requiredMark initialValues={initialValues}>
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item name="name" label={t("catalog.field.name")} rules={[required]}>
              <Input maxLength={100} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="brandId" label={t("catalog.field.brand")} rules={[required]}>
              <Select options={brands.map((b) => ({ value: b.id, label: b.name }))} />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item
              name="businessType"
              label={t("catalog.field.businessType")}
              rules={[required]}
              // Only card vouchers are redeemed at stores (issue 40 item 14): coupons are redeemed online.
              extra={t("catalog.field.businessTypeStores")}
            >
              <Select options={BUSINESS_TYPES.map((v) => ({ value: v, label: labels.businessType(v) }))} />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="equityType" label={t("catalog.field.equityType")} rules={[required]}>
              <Select options={opts(EQUITY_TYPES, "catalog.equity")} />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="code" label={t("catalog.field.code")} rules={[required]}>
              <Input maxLength={32} />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="faceValue" label={`${t("catalog.field.faceValue")} (${currency})`} rules={[moneyRule]}>
              <Input inputMode="decimal" />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="price" label={`${t("catalog.field.price")} (${currency})`} rules={[moneyRule]}>
              <Input inputMode="decimal" />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item
              name="settlementPrice"
              label={`${t("catalog.field.settlementPrice")} (${currency})`}
              rules={[moneyRule]}
            >
              <Input inputMode="decimal" />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="perOrderMax" label={t("catalog.field.perOrderMax")} rules={[required]}>
              <InputNumber min={1} max={10000} precision={0} style={{ width: "100%" }} />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="deductionAccount" label={t("catalog.field.deductionAccount")}>
              <Select options={opts(DEDUCTION_ACCOUNTS, "catalog.deduction")} />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="invoiceType" label={t("catalog.field.invoiceType")} rules={[required]}>
              <Select options={INVOICE_TYPES.map((v) => ({ value: v, label: labels.invoiceType(v) }))} />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="salesScope" label={t("catalog.field.salesScope")}>
              <Select options={opts(SALES_SCOPES, "catalog.scope")} />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="topUpAccountType" label={t("catalog.field.topUpAccountType")}>
              <Select options={opts(TOP_UP_ACCOUNT_TYPES, "catalog.topUpAccount")} />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="arrivalQueryMethod" label={t("catalog.field.arrivalQueryMethod")}>
              <Select options={opts(ARRIVAL_QUERY_METHODS, "catalog.arrival")} />
            </Form.Item>
          </Col>
          <Col span={6}>
            <Form.Item name="recommendationIndex" label={t("catalog.field.recommendationIndex")}>
              <InputNumber min={0} max={100} precision={0} style={{ width: "100%" }} />
            </Form.Item>
          </Col>
          <Col span={6}>
            <Form.Item name="salesIndex" label={t("catalog.field.salesIndex")}>
              <InputNumber min={0} max={100} precision={0} style={{ width: "100%" }} />
            </Form.Item>
          </Col>
          <Col span={6}>
            <Form.Item name="weight" label={t("catalog.field.weight")}>
              <InputNumber min={0} max={9999} precision={0} style={{ width: "100%" }} />
            </Form.Item>
          </Col>
          <Col span={6}>
            <Form.Item name="lowStockThreshold" label={t("catalog.field.lowStockThreshold")}>
              <InputNumber min={0} max={1000000} precision={0} style={{ width: "100%" }} />
            </Form.Item>
          </Col>
          <Col span={6}>
            <Form.Item name="smartPurchase" label={t("catalog.field.smartPurchase")} valuePropName="checked">
              <Switch />
            </Form.Item>
          </Col>
          <Col span={18}>
            <Form.Item name="topUpRestrictions" label={t("catalog.field.topUpRestrictions")}>
              <Input maxLength={500} />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Form.Item name="description" label={t("catalog.field.description")}>
              <Input.TextArea rows={3} maxLength={5000} />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Form.Item label={t("catalog.field.images")}>
              <Upload
                listType="picture-card"
                accept="image/png,image/jpeg,image/webp,image/gif"
                fileList={files}
                maxCount={9}
                onChange={({ fileList }) => setFiles(fileList)}
                customRequest={({ file, onSuccess, onError }) => {
                  void catalogApi
                    .uploadImage(file as File)
                    .then((r) => (r?.ok ? onSuccess?.(r.data.key) : onError?.(new Error(r?.msg ?? "upload"))));
                }}
              >
                {files.length < 9 && (
                  <div>
                    <PlusOutlined />
                    <div style={{ marginTop: 8 }}>{t("catalog.action.uploadImage")}</div>
                  </div>
                )}
              </Upload>
            </Form.Item>
          </Col>
        </Row>
      </Form>
    </Modal>
  );
}
