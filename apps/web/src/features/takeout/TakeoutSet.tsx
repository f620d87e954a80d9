import { DeleteOutlined, PlusOutlined } from "@ant-design/icons";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import {
  App,
  Button,
  Card,
  Checkbox,
  Col,
  Flex,
  Form,
  Input,
  InputNumber,
  Radio,
  Row,
  Spin,
  Switch,
  Typography,
} from "antd";
import { useTranslation } from "react-i18next";
import type { TakeoutShop } from "@tessera/contracts";
import { useUserInfo } from "../../api/common";
import { reportFailure } from "../../ui/form/serverError";
import { parseMoney } from "../../ui/money";
import { PageHint } from "../../ui/PageHint";
import { takeoutApi, takeoutKeys } from "./api";

interface FormValues {
  name: string;
  open: boolean;
  hours: { days: number[]; from: string; to: string }[];
  address?: string;
  lat: number;
  lng: number;
  areaKind: "radius" | "polygon";
  radiusM?: number;
  polygon?: string;
  deliveryFee: string;
  minOrder: string;
  packingFee: string;
  tableware: boolean;
  scheduled: boolean;
  prepMinutes: number;
}
const major = (minor: number) => (minor / 100).toFixed(2);
const FIELDS = ["name", "hours", "lat", "lng", "radiusM", "polygon", "deliveryFee", "minOrder", "packingFee"] as const;

function initial(s: TakeoutShop | null, name: string): Partial<FormValues> {
  if (!s) {
    return {
      name,
      open: true,
      hours: [{ days: [1, 2, 3, 4, 5, 6, 7], from: "10:00", to: "21:00" }],
      // No default point: the shop's own coordinates (a point elsewhere would refuse every customer's address).
      areaKind: "radius",
      radiusM: 3000,
      deliveryFee: "5.00",
      minOrder: "20.00",
      packingFee: "1.00",
      tableware: true,
      scheduled: false,
      prepMinutes: 30,
    };
  }
  return {
    name: s.name,
    open: s.open,
    hours: s.hours,
    address: s.address,
    lat: s.lat,
    lng: s.lng,
    areaKind: s.areaKind,
    radiusM: s.radiusM,
    polygon: s.polygon.map(([a, b]) => `${a},${b}`).join("\n"),
    deliveryFee: major(s.deliveryFee.amount),
    minOrder: major(s.minOrder.amount),
    packingFee: major(s.packingFee.amount),
    tableware: s.tableware,
    scheduled: s.scheduled,
    prepMinutes: s.prepMinutes,
  };
}

function ShopForm({ shop }: { shop: TakeoutShop | null }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const info = useUserInfo().data;
  const currency = info?.merchant?.currency ?? "CNY";
  const [form] = Form.useForm<FormValues>();
  const areaKind = Form.useWatch("areaKind", form) ?? shop?.areaKind ?? "radius";
  const required = { required: true, message: t("takeout.required") };
  const days = [1, 2, 3, 4, 5, 6, 7].map((d) => ({ value: d, label: t(`takeout.day.${d}`) }));
  const submit = async () => {
    const v = await form.validateFields();
    const money = (s: string) => parseMoney(s, currency) ?? -1;
    const polygon = (v.polygon ?? "")
      .split("\n")
      .map((line) => line.split(",").map((x) => Number(x.trim())))
      .filter((p): p is [number, number] => p.length === 2 && p.every((x) => Number.isFinite(x)));
    const r = await takeoutApi.saveShop({
      name: v.name,
      open: v.open,
      hours: v.hours,
      address: v.address ?? "",
      lat: v.lat,
      lng: v.lng,
      areaKind: v.areaKind,
      radiusM: v.radiusM ?? 3000,
      polygon,
      deliveryFee: money(v.deliveryFee),
      minOrder: money(v.minOrder),
      packingFee: money(v.packingFee),
      tableware: v.tableware,
      scheduled: v.scheduled,
      prepMinutes: v.prepMinutes,
    });
    if (reportFailure(r, form, FIELDS, (msg) => void message.error(msg)) || !r?.ok) return;
    void message.success(t("takeout.saved"));
    void qc.invalidateQueries({ queryKey: takeoutKeys.all });
  };
  const link = `${window.location.origin}/takeout/${info?.merchant?.merchantId ?? ""}`;
  return (
    <Form form={form} layout="vertical" initialValues={initial(shop, info?.merchant?.name ?? "")}>
      {shop && (
        <Typography.Paragraph>
          {t("takeout.customerLink")}:{" "}
          <Typography.Link href={link} target="_blank" copyable data-testid="takeout-link">
            {link}
          </Typography.Link>
        </Typography.Paragraph>
      )}
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item name="name" label={t("takeout.shopName")} rules={[required]}>
            <Input maxLength={40} />
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item name="open" label={t("takeout.open")} valuePropName="checked">
            <Switch />
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item name="prepMinutes" label={t("takeout.prepMinutes")}>
            <InputNumber min={0} max={600} precision={0} />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item label={t("takeout.hours")} required>
        <Form.List name="hours">
          {(fields, { add, remove }) => (
            <Flex vertical gap={8}>
              {fields.map((f) => (
                <Flex key={f.key} gap={8} wrap align="center">
                  <Form.Item name={[f.name, "days"]} rules={[required]} style={{ margin: 0 }}>
                    <Checkbox.Group options={days} />
                  </Form.Item>
                  <Form.Item name={[f.name, "from"]} rules={[required]} style={{ margin: 0 }}>
                    <Input style={{ width: 80 }} placeholder="09:00" aria-label={t("takeout.from")} />
                  </Form.Item>
                  –
                  <Form.Item name={[f.name, "to"]} rules={[required]} style={{ margin: 0 }}>
                    <Input style={{ width: 80 }} placeholder="21:00" aria-label={t("takeout.to")} />
                  </Form.Item>
                  <Button icon={<DeleteOutlined />} onClick={() => remove(f.name)} aria-label="remove" />
                </Flex>
              ))}
              <Button
                icon={<PlusOutlined />}
                onClick={() => add({ days: [1, 2, 3, 4, 5], from: "10:00", to: "21:00" })}
                style={{ alignSelf: "start" }}
              >
                {t("takeout.addHours")}
              </Button>
            </Flex>
          )}
        </Form.List>
      </Form.Item>
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item name="address" label={t("takeout.shopAddress")} extra={t("takeout.locationHelp")}>
            <Input maxLength={120} />
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item name="lat" label={t("takeout.lat")} rules={[required]}>
            <InputNumber min={-90} max={90} step={0.0001} style={{ width: "100%" }} />
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item name="lng" label={t("takeout.lng")} rules={[required]}>
            <InputNumber min={-180} max={180} step={0.0001} style={{ width: "100%" }} />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name="areaKind" label={t("takeout.area")}>
        <Radio.Group
          options={[
            { value: "radius", label: t("takeout.radius") },
            { value: "polygon", label: t("takeout.polygon") },
          ]}
        />
      </Form.Item>
      {areaKind === "radius" ? (
        <Form.Item name="radiusM" label={t("takeout.radiusM")}>
          <InputNumber min={100} max={50000} precision={0} />
        </Form.Item>
      ) : (
        <Form.Item name="polygon" label={t("takeout.polygon")} extra={t("takeout.polygonHelp")}>
          <Input.TextArea rows={4} />
        </Form.Item>
      )}
      <Row gutter={16}>
        <Col xs={12} md={6}>
          <Form.Item name="deliveryFee" label={t("takeout.deliveryFeeLabel")} rules={[required]}>
            <Input inputMode="decimal" />
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item name="minOrder" label={t("takeout.minOrderLabel")} rules={[required]}>
            <Input inputMode="decimal" />
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item name="packingFee" label={t("takeout.packingFee")} rules={[required]}>
            <Input inputMode="decimal" />
          </Form.Item>
        </Col>
        <Col xs={6} md={3}>
          <Form.Item name="tableware" label={t("takeout.tableware")} valuePropName="checked">
            <Switch />
          </Form.Item>
        </Col>
        <Col xs={6} md={3}>
          <Form.Item name="scheduled" label={t("takeout.scheduled")} valuePropName="checked">
            <Switch />
          </Form.Item>
        </Col>
      </Row>
      <Button type="primary" onClick={() => void submit()}>
        {t("takeout.save")}
      </Button>
    </Form>
  );
}

/** `/business/TakeoutSet`: the takeout shop's settings: hours, delivery area (radius or polygon), fees, minimum order, tableware, scheduled delivery. */
export default function TakeoutSet() {
  const { t } = useTranslation();
  const { data, isLoading } = useQuery({ queryKey: takeoutKeys.shop, queryFn: takeoutApi.shop });
  return (
    <Flex vertical gap={16}>
      <PageHint id="business.TakeoutSet" title={t("takeout.page.TakeoutSet")} description={t("takeout.hint.set")} />
      <Card variant="borderless">{isLoading ? <Spin /> : <ShopForm shop={data ?? null} />}</Card>
    </Flex>
  );
}
