import { useQuery } from "@tanstack/react-query";
import { App, Col, Form, Input, InputNumber, Modal, Row, Select } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { Commodity } from "@tessera/contracts";
import { reportFailure } from "../../ui/form/serverError";
import { formatMoney } from "../../ui/money";
import { buyerApi, commerceKeys, newRequestKey, sharedApi } from "./api";
import { skuLabel } from "./labels";

interface FormValues {
  skuId: string;
  quantity: number;
  name?: string;
  phone?: string;
  provinceCode?: string;
  cityCode?: string;
  countyCode?: string;
  address?: string;
  remark?: string;
}
const FIELDS = [
  "items",
  "consignee",
  "consignee.name",
  "consignee.phone",
  "consignee.countyCode",
  "consignee.address",
] as const;

/** A consignee's province, city and county from the region lists (`province/list`, `city/list`, `county/list`). */
function RegionFields() {
  const { t } = useTranslation();
  const form = Form.useFormInstance<FormValues>();
  const province = Form.useWatch("provinceCode", form);
  const city = Form.useWatch("cityCode", form);
  const provinces = useQuery({
    queryKey: commerceKeys.regions("p", ""),
    queryFn: sharedApi.provinces,
    staleTime: Infinity,
  });
  const cities = useQuery({
    queryKey: commerceKeys.regions("c", province ?? ""),
    queryFn: () => sharedApi.cities(province ?? ""),
    enabled: Boolean(province),
    staleTime: Infinity,
  });
  const counties = useQuery({
    queryKey: commerceKeys.regions("k", city ?? ""),
    queryFn: () => sharedApi.counties(city ?? ""),
    enabled: Boolean(city),
    staleTime: Infinity,
  });
  const opts = (list: { code: string; name: string }[] | undefined) =>
    (list ?? []).map((r) => ({ value: r.code, label: r.name }));
  const required = { required: true, message: t("commerce.required") };
  return (
    <Form.Item label={t("commerce.region")} required style={{ marginBottom: 0 }}>
      <Row gutter={8}>
        <Col xs={24} sm={8}>
          <Form.Item name="provinceCode" rules={[required]}>
            <Select
              showSearch
              optionFilterProp="label"
              options={opts(provinces.data)}
              aria-label="province"
              onChange={() => form.setFieldsValue({ cityCode: undefined, countyCode: undefined })}
            />
          </Form.Item>
        </Col>
        <Col xs={24} sm={8}>
          <Form.Item name="cityCode" rules={[required]}>
            <Select
              showSearch
              optionFilterProp="label"
              options={opts(cities.data)}
              aria-label="city"
              onChange={() => form.setFieldsValue({ countyCode: undefined })}
            />
          </Form.Item>
        </Col>
        <Col xs={24} sm={8}>
          <Form.Item name="countyCode" rules={[required]}>
            <Select showSearch optionFilterProp="label" options={opts(counties.data)} aria-label="county" />
          </Form.Item>
        </Col>
      </Row>
    </Form.Item>
  );
}

/** Orders a commodity for a customer: one SKU and quantity, the delivery address for physical goods. */
export function OrderDialog({
  commodity,
  onClose,
  onOrdered,
}: {
  commodity: Commodity;
  onClose: () => void;
  onOrdered: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<FormValues>();
  const [saving, setSaving] = useState(false);
  const [requestKey] = useState(() => newRequestKey("cmorder"));
  const physical = commodity.kind === "physical";
  const required = { required: true, message: t("commerce.required") };
  const firstInStock = commodity.skus.find((s) => s.stock > 0);

  const submit = async () => {
    const v = await form.validateFields();
    setSaving(true);
    try {
      const r = await buyerApi.order({
        items: [{ skuId: v.skuId, quantity: v.quantity }],
        ...(physical && {
          consignee: {
            name: v.name ?? "",
            phone: v.phone ?? "",
            provinceCode: v.provinceCode ?? "",
            cityCode: v.cityCode ?? "",
            countyCode: v.countyCode ?? "",
            address: v.address ?? "",
          },
        }),
        remark: v.remark ?? "",
        requestKey,
      });
      if (reportFailure(r, form, FIELDS, (msg) => void message.error(msg)) || !r?.ok) return;
      void message.success(t("commerce.ordered"));
      onOrdered();
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open
      title={t("commerce.orderTitle", { name: commodity.name })}
      onCancel={onClose}
      onOk={() => void submit()}
      confirmLoading={saving}
      okText={t("commerce.buy")}
      width={640}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" initialValues={{ skuId: firstInStock?.id, quantity: 1 }}>
        <Row gutter={12}>
          <Col xs={24} sm={16}>
            <Form.Item name="skuId" label={t("commerce.sku")} rules={[required]}>
              <Select
                aria-label="sku"
                options={commodity.skus.map((s) => ({
                  value: s.id,
                  disabled: s.stock === 0,
                  label: `${skuLabel(s.specs)} · ${formatMoney(s.price)} · ${t("commerce.stock")} ${s.stock}`,
                }))}
              />
            </Form.Item>
          </Col>
          <Col xs={24} sm={8}>
            <Form.Item name="quantity" label={t("commerce.quantity")} rules={[required]}>
              <InputNumber min={1} max={999} precision={0} style={{ width: "100%" }} />
            </Form.Item>
          </Col>
        </Row>
        {physical && (
          <>
            <Row gutter={12}>
              <Col xs={24} sm={12}>
                <Form.Item name="name" label={t("commerce.consignee")} rules={[required]}>
                  <Input maxLength={30} />
                </Form.Item>
              </Col>
              <Col xs={24} sm={12}>
                <Form.Item name="phone" label={t("commerce.phone")} rules={[required]}>
                  <Input maxLength={11} inputMode="numeric" />
                </Form.Item>
              </Col>
            </Row>
            <RegionFields />
            <Form.Item name="address" label={t("commerce.address")} rules={[required]}>
              <Input maxLength={120} />
            </Form.Item>
          </>
        )}
        <Form.Item name="remark" label={t("commerce.remark")}>
          <Input maxLength={200} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
