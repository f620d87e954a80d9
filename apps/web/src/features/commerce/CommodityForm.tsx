import { DeleteOutlined, PlusOutlined } from "@ant-design/icons";
import { useQuery } from "@tanstack/react-query";
import {
  App,
  AutoComplete,
  Button,
  Col,
  Flex,
  Form,
  Input,
  InputNumber,
  Radio,
  Row,
  Select,
  Table,
  Upload,
  type UploadFile,
} from "antd";
import { useMemo, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { COMMERCE_LIMITS, type Commodity, type CommodityKind, type Currency } from "@tessera/contracts";
import { reportFailure } from "../../ui/form/serverError";
import { parseMoney } from "../../ui/money";
import { brandApi, commerceKeys, type CommodityBody } from "./api";

interface SkuValues {
  price?: string;
  stock?: number;
  code?: string;
}
interface FormValues {
  kind: CommodityKind;
  name: string;
  category?: string;
  description?: string;
  specGroups?: { name?: string; values?: string[] }[];
  sku?: Record<string, SkuValues>;
  weightG?: number;
  freightFirst?: string;
  freightExtra?: string;
  freeOver?: string;
  sort?: number;
}

const FIELDS = [
  "name",
  "category",
  "description",
  "specGroups",
  "skus",
  "weightG",
  "freightFirst",
  "freightExtra",
  "freeOver",
] as const;
const major = (minor: number) => (minor / 100).toFixed(2);
const MAX_IMAGES = COMMERCE_LIMITS.maxImages;
const comboKey = (specs: string[]) => JSON.stringify(specs);

/** Every combination of the groups' values: colour × size. */
function combinations(groups: { values: string[] }[]): string[][] {
  return groups.reduce<string[][]>((acc, g) => acc.flatMap((prefix) => g.values.map((v) => [...prefix, v])), [[]]);
}

/**
 * A commodity's form (AddProducts, and editing in ProductList): name, category, description, images,
 * up to three specification groups whose combinations are the SKUs (price, stock, code each), weight
 * and the freight template. Money is typed in major units.
 */
export function CommodityForm({
  commodity,
  currency,
  onSaved,
  footer,
}: {
  commodity: Commodity | null;
  currency: Currency;
  onSaved: (c: Commodity) => void;
  footer?: (submit: () => void, saving: boolean) => ReactNode;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<FormValues>();
  const [saving, setSaving] = useState(false);
  const [initialValues] = useState<Partial<FormValues>>(() =>
    commodity
      ? {
          kind: commodity.kind,
          name: commodity.name,
          category: commodity.category,
          description: commodity.description,
          specGroups: commodity.specGroups,
          sku: Object.fromEntries(
            commodity.skus.map((s) => [
              comboKey(s.specs),
              { price: major(s.price.amount), stock: s.stock, code: s.code },
            ]),
          ),
          weightG: commodity.weightG,
          freightFirst: major(commodity.freightFirst),
          freightExtra: major(commodity.freightExtra),
          freeOver: commodity.freeOver === null ? undefined : major(commodity.freeOver),
          sort: commodity.sort,
        }
      : { kind: "physical", specGroups: [], sku: {}, weightG: 0, freightFirst: "0", freightExtra: "0", sort: 0 },
  );
  // Images through the image upload (issue 40 item 14): uploaded, previewed, stored by their address.
  const [images, setImages] = useState<UploadFile[]>(() =>
    (commodity?.images ?? []).map((url, i) => ({ uid: `saved-${i}`, name: url, status: "done", url, response: url })),
  );
  // The categories the brand already uses, offered as it types (a new one can still be typed).
  const categories = useQuery({
    queryKey: commerceKeys.commodities({ categories: true }),
    queryFn: () => brandApi.commodities({ page: 1, pagesize: 1000 }),
  });
  const categoryOptions = useMemo(
    () =>
      [...new Set((categories.data?.list ?? []).map((c) => c.category).filter(Boolean))]
        .sort()
        .map((value) => ({ value })),
    [categories.data],
  );
  const watched = Form.useWatch("specGroups", form);
  const kind = Form.useWatch("kind", form) ?? initialValues.kind;
  const groups = useMemo(
    () =>
      (watched ?? initialValues.specGroups ?? []).map((g) => ({
        name: g?.name ?? "",
        values: (g?.values ?? []).filter((v) => v.trim()),
      })),
    [watched, initialValues.specGroups],
  );
  const combos = useMemo(() => combinations(groups.filter((g) => g.values.length > 0)), [groups]);
  const idOf = new Map((commodity?.skus ?? []).map((s) => [comboKey(s.specs), s.id]));
  const required = { required: true, message: t("commerce.required") };
  const money = (v: string | undefined) => (v === undefined || v === "" ? 0 : (parseMoney(v, currency) ?? -1));

  const submit = async () => {
    const v = await form.validateFields();
    const specGroups = groups.filter((g) => g.name && g.values.length > 0);
    const skus = combinations(specGroups).map((specs) => {
      const s = v.sku?.[comboKey(specs)] ?? {};
      const id = idOf.get(comboKey(specs));
      return { ...(id && { id }), specs, price: money(s.price), stock: s.stock ?? 0, code: s.code ?? "" };
    });
    const body: CommodityBody = {
      kind: v.kind,
      name: v.name,
      category: v.category ?? "",
      description: v.description ?? "",
      images: images.flatMap((f) => (f.status === "done" && typeof f.response === "string" ? [f.response] : [])),
      specGroups,
      skus,
      sort: v.sort ?? 0,
      weightG: v.weightG ?? 0,
      freightFirst: money(v.freightFirst),
      freightExtra: money(v.freightExtra),
      freeOver: v.freeOver ? money(v.freeOver) : null,
    };
    setSaving(true);
    try {
      const r = commodity ? await brandApi.update(commodity.id, body) : await brandApi.add(body);
      if (reportFailure(r, form, FIELDS, (msg) => void message.error(msg)) || !r?.ok) return;
      void message.success(t("commerce.saved"));
      onSaved(r.data);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Form form={form} layout="vertical" initialValues={initialValues}>
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item name="name" label={t("commerce.name")} rules={[required]}>
            <Input maxLength={60} />
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item name="kind" label={t("commerce.kind.physical") + " / " + t("commerce.kind.virtual")}>
            <Radio.Group
              disabled={Boolean(commodity)}
              options={[
                { value: "physical", label: t("commerce.kind.physical") },
                { value: "virtual", label: t("commerce.kind.virtual") },
              ]}
            />
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item name="category" label={t("commerce.category")}>
            <AutoComplete
              maxLength={30}
              options={categoryOptions}
              placeholder={t("commerce.categoryPick")}
              showSearch={{
                filterOption: (input, option) =>
                  String(option?.value ?? "")
                    .toLowerCase()
                    .includes(input.toLowerCase()),
              }}
            />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name="description" label={t("commerce.description")}>
        <Input.TextArea rows={2} maxLength={2000} />
      </Form.Item>
      <Form.Item label={t("commerce.images")} extra={t("commerce.imagesHelp")}>
        <Upload
          listType="picture-card"
          accept="image/png,image/jpeg,image/webp,image/gif"
          fileList={images}
          maxCount={MAX_IMAGES}
          onChange={({ fileList }) => setImages(fileList)}
          customRequest={({ file, onSuccess, onError }) => {
            void brandApi
              .uploadImage(file as File)
              .then((r) => (r?.ok ? onSuccess?.(r.data.url) : onError?.(new Error(r?.msg ?? "upload"))));
          }}
        >
          {images.length < MAX_IMAGES && (
            <div>
              <PlusOutlined />
              <div style={{ marginTop: 8 }}>{t("commerce.uploadImage")}</div>
            </div>
          )}
        </Upload>
      </Form.Item>
      <Form.Item label={t("commerce.specs")}>
        <Form.List name="specGroups">
          {(fields, { add, remove }) => (
            <Flex vertical gap={8}>
              {fields.map((f) => (
                <Row gutter={8} key={f.key} align="top">
                  <Col xs={24} sm={6}>
                    <Form.Item name={[f.name, "name"]} rules={[required]} style={{ marginBottom: 8 }}>
                      <Input
                        placeholder={t("commerce.specGroup")}
                        maxLength={20}
                        aria-label={t("commerce.specGroup")}
                      />
                    </Form.Item>
                  </Col>
                  <Col xs={20} sm={16}>
                    <Form.Item
                      name={[f.name, "values"]}
                      rules={[required]}
                      style={{ marginBottom: 8 }}
                      extra={t("commerce.specValuesHelp")}
                    >
                      <Select
                        mode="tags"
                        open={false}
                        placeholder={t("commerce.specValues")}
                        aria-label={t("commerce.specValues")}
                        tokenSeparators={[",", "，"]}
                      />
                    </Form.Item>
                  </Col>
                  <Col xs={4} sm={2}>
                    <Button icon={<DeleteOutlined />} onClick={() => remove(f.name)} aria-label="remove" />
                  </Col>
                </Row>
              ))}
              {fields.length < 3 && (
                <Button icon={<PlusOutlined />} onClick={() => add({ name: "", values: [] })}>
                  {t("commerce.addSpecGroup")}
                </Button>
              )}
            </Flex>
          )}
        </Form.List>
      </Form.Item>
      <Form.Item label={t("commerce.skus")} required>
        <Table
          size="small"
          pagination={false}
          rowKey={(specs) => comboKey(specs)}
          dataSource={combos}
          scroll={{ x: 560 }}
          columns={[
            {
              title: t("commerce.sku"),
              key: "specs",
              render: (_: unknown, specs: string[]) => (specs.length ? specs.join(" / ") : "—"),
            },
            {
              title: t("commerce.price"),
              key: "price",
              width: 140,
              render: (_: unknown, specs: string[]) => (
                <Form.Item name={["sku", comboKey(specs), "price"]} rules={[required]} style={{ margin: 0 }}>
                  <Input inputMode="decimal" aria-label={`${t("commerce.price")} ${specs.join("/")}`} />
                </Form.Item>
              ),
            },
            {
              title: t("commerce.stock"),
              key: "stock",
              width: 120,
              render: (_: unknown, specs: string[]) => (
                <Form.Item name={["sku", comboKey(specs), "stock"]} rules={[required]} style={{ margin: 0 }}>
                  <InputNumber
                    min={0}
                    precision={0}
                    style={{ width: "100%" }}
                    aria-label={`${t("commerce.stock")} ${specs.join("/")}`}
                  />
                </Form.Item>
              ),
            },
            {
              title: t("commerce.code"),
              key: "code",
              width: 140,
              render: (_: unknown, specs: string[]) => (
                <Form.Item name={["sku", comboKey(specs), "code"]} style={{ margin: 0 }}>
                  <Input maxLength={40} />
                </Form.Item>
              ),
            },
          ]}
        />
      </Form.Item>
      {kind === "physical" && (
        <Row gutter={16}>
          <Col xs={12} md={6}>
            <Form.Item name="weightG" label={t("commerce.weight")}>
              <InputNumber min={0} precision={0} style={{ width: "100%" }} />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item name="freightFirst" label={t("commerce.freightFirst")}>
              <Input inputMode="decimal" />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item name="freightExtra" label={t("commerce.freightExtra")}>
              <Input inputMode="decimal" />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item name="freeOver" label={t("commerce.freeOver")}>
              <Input inputMode="decimal" />
            </Form.Item>
          </Col>
        </Row>
      )}
      <Form.Item name="sort" label={t("commerce.sort")}>
        <InputNumber min={0} precision={0} />
      </Form.Item>
      {footer ? (
        footer(() => void submit(), saving)
      ) : (
        <Button type="primary" loading={saving} onClick={() => void submit()}>
          {t("commerce.save")}
        </Button>
      )}
    </Form>
  );
}
