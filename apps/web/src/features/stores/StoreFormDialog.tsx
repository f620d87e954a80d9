import { App, Cascader, Col, Form, Input, InputNumber, Modal, Row, Select } from "antd";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { Store, StoreState } from "@tessera/contracts";
import { reportFailure } from "../../ui/form/serverError";
import { storeApi, storeKeys, type StoreBody } from "./api";
import { useRegions } from "./regions";

interface FormValues {
  name: string;
  region: string[];
  address: string;
  lng?: number | null;
  lat?: number | null;
  openingHours?: string;
  contactName?: string;
  contactPhone?: string;
  state: StoreState;
  districtId?: string | null;
}

const FIELDS = [
  "name",
  "address",
  "lng",
  "lat",
  "openingHours",
  "contactName",
  "contactPhone",
  "state",
  "districtId",
] as const;

/** Adds or changes one store: name, region (province/city/county), address, location, hours, contact, state, district. */
export function StoreFormDialog({
  store,
  onClose,
  onSaved,
}: {
  store: Store | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<FormValues>();
  const [saving, setSaving] = useState(false);
  const regions = useRegions();
  const districts = useQuery({
    queryKey: storeKeys.districts({ page: 1, pageSize: 1000 }),
    queryFn: () => storeApi.districts({ page: 1, pageSize: 1000 }),
  });
  const [initialValues] = useState<Partial<FormValues>>(() =>
    store
      ? {
          name: store.name,
          region: [store.provinceCode, store.cityCode, store.countyCode],
          address: store.address,
          lng: store.lng,
          lat: store.lat,
          openingHours: store.openingHours,
          contactName: store.contactName,
          contactPhone: store.contactPhone,
          state: store.state,
          districtId: store.districtId,
        }
      : { state: "open", districtId: null },
  );
  const required = { required: true, message: t("stores.required") };

  const submit = async () => {
    const v = await form.validateFields();
    const [provinceCode = "", cityCode = "", countyCode = ""] = v.region;
    const body: StoreBody = {
      name: v.name,
      provinceCode,
      cityCode,
      countyCode,
      address: v.address,
      lng: v.lng ?? null,
      lat: v.lat ?? null,
      openingHours: v.openingHours ?? "",
      contactName: v.contactName ?? "",
      contactPhone: v.contactPhone ?? "",
      state: v.state,
      districtId: v.districtId ?? null,
    };
    setSaving(true);
    try {
      const r = store ? await storeApi.update(store.id, body) : await storeApi.create(body);
      if (reportFailure(r, form, FIELDS, (msg) => void message.error(msg)) || !r?.ok) return;
      void message.success(t("stores.saved"));
      onSaved();
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open
      title={store ? t("stores.edit") : t("stores.add")}
      width={720}
      onCancel={onClose}
      onOk={() => void submit()}
      okText={t("stores.save")}
      okButtonProps={{ "data-testid": "store-save" }}
      confirmLoading={saving}
      maskClosable={false}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" initialValues={initialValues}>
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item name="name" label={t("stores.name")} rules={[required]}>
              <Input maxLength={60} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="region" label={t("stores.region")} rules={[required]}>
              <Cascader
                options={regions}
                showSearch
                placeholder={t("stores.regionPlaceholder")}
                aria-label={t("stores.region")}
              />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Form.Item name="address" label={t("stores.address")} rules={[required]}>
              <Input maxLength={200} />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item name="lng" label={t("stores.lng")}>
              <InputNumber min={-180} max={180} step={0.000001} style={{ width: "100%" }} />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item name="lat" label={t("stores.lat")}>
              <InputNumber min={-90} max={90} step={0.000001} style={{ width: "100%" }} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="openingHours" label={t("stores.openingHours")}>
              <Input maxLength={60} placeholder="09:00-21:00" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="contactName" label={t("stores.contactName")}>
              <Input maxLength={30} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="contactPhone" label={t("stores.contactPhone")}>
              <Input maxLength={20} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="state" label={t("stores.state")} rules={[required]}>
              <Select
                options={[
                  { value: "open", label: t("stores.open") },
                  { value: "closed", label: t("stores.closed") },
                ]}
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item
              name="districtId"
              label={t("stores.district")}
              extra={
                <Link to="/sale/BusinessDistrict" target="_blank">
                  {t("stores.manageDistricts")}
                </Link>
              }
            >
              <Select allowClear options={(districts.data?.list ?? []).map((d) => ({ value: d.id, label: d.name }))} />
            </Form.Item>
          </Col>
        </Row>
      </Form>
    </Modal>
  );
}
