import { MinusCircleOutlined, PlusOutlined } from "@ant-design/icons";
import { useQueryClient } from "@tanstack/react-query";
import {
  Alert,
  App,
  Button,
  Form,
  Input,
  InputNumber,
  Modal,
  Popconfirm,
  Select,
  Space,
  Typography,
  type TableColumnsType,
} from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { digitsOnly, type OcGift, type OcPackage } from "@tessera/contracts";
import { reportFailure } from "../../ui/form/serverError";
import { ListPage } from "../../ui/list/ListPage";
import { formatMoney } from "../../ui/money";
import { PageHint } from "../../ui/PageHint";
import { newRequestKey, ocKeys, ocSaleApi } from "./api";
import { time } from "./labels";
import { useSaleOptions } from "./useSaleOptions";

interface PackageForm {
  name: string;
  message?: string;
  items: { productId: string; count: number }[];
}

/**
 * `/sale/GiftPackage`: gift packages: a named set of the purchaser's card products and counts, sent to
 * many recipients at once, one gift per mobile number (an SMS tells them) or per link to pass on. Each
 * gift takes activated cards not yet given; "can make" says how many packages those cards make now.
 * The gifts are in GiftReceiveRecord.
 */
export default function GiftPackage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);
  const [sending, setSending] = useState<OcPackage | null>(null);
  const refresh = () => void qc.invalidateQueries({ queryKey: ocKeys.all });

  const columns: TableColumnsType<OcPackage> = [
    { title: t("onecard.bo.packageName"), dataIndex: "name", width: 180, ellipsis: true },
    {
      title: t("onecard.bo.packageItems"),
      key: "items",
      width: 300,
      render: (_: unknown, p) => p.items.map((i) => `${i.productName} × ${i.count}`).join("，"),
    },
    {
      title: t("onecard.bo.packageValue"),
      dataIndex: "value",
      width: 120,
      align: "right",
      render: (m: OcPackage["value"]) => formatMoney(m),
    },
    { title: t("onecard.bo.canMake"), dataIndex: "available", width: 100, align: "right" },
    { title: t("onecard.bo.sentCount"), dataIndex: "sent", width: 90, align: "right" },
    { title: t("onecard.bo.claimedCount"), dataIndex: "claimed", width: 90, align: "right" },
    { title: t("onecard.bo.createdAt"), dataIndex: "createdAt", width: 150, render: time },
    {
      title: t("onecard.bo.actions"),
      key: "actions",
      width: 200,
      fixed: "right",
      render: (_: unknown, p) => (
        <Space size={0}>
          <Button
            type="link"
            size="small"
            disabled={p.available === 0}
            onClick={() => setSending(p)}
            data-testid={`send-package-${p.id}`}
          >
            {t("onecard.bo.sendPackage")}
          </Button>
          <Button
            type="link"
            size="small"
            onClick={() => void navigate(`../GiftReceiveRecord?packageId=${p.id}`, { relative: "path" })}
          >
            {t("onecard.bo.page.GiftReceiveRecord")}
          </Button>
          <Popconfirm
            title={t("onecard.bo.archiveConfirm")}
            onConfirm={() => void ocSaleApi.archivePackage(p.id).then((r) => r?.ok && refresh())}
          >
            <Button type="link" size="small" danger>
              {t("onecard.bo.archive")}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <>
      <ListPage<OcPackage>
        header={
          <PageHint
            id="sale.GiftPackage"
            title={t("onecard.bo.page.GiftPackage")}
            description={t("onecard.bo.hintPackage")}
          />
        }
        rowKey="id"
        columns={columns}
        scrollX={1300}
        search={{ add: { label: t("onecard.bo.newPackage"), onClick: () => setCreating(true) } }}
        query={(state) => {
          const q = { page: state.page, pageSize: state.pageSize };
          return { queryKey: ocKeys.packages(q), queryFn: () => ocSaleApi.packages(q) };
        }}
      />
      {creating && (
        <NewPackageDialog
          onClose={() => setCreating(false)}
          onSaved={() => {
            setCreating(false);
            void message.success(t("onecard.bo.done"));
            refresh();
          }}
        />
      )}
      {sending && <SendDialog pkg={sending} onClose={() => setSending(null)} onSent={refresh} />}
    </>
  );
}

/** The card products the purchaser bought (from its latest purchases), as options. */
function useOwnedProducts() {
  const sales = useSaleOptions();
  const seen = new Map<string, string>();
  for (const s of sales) if (!seen.has(s.productId)) seen.set(s.productId, s.productName);
  return [...seen].map(([value, label]) => ({ value, label }));
}

function NewPackageDialog({ onClose, onSaved }: { onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<PackageForm>();
  const [busy, setBusy] = useState(false);
  const products = useOwnedProducts();
  const save = async () => {
    const v = await form.validateFields();
    setBusy(true);
    const r = await ocSaleApi.createPackage({ name: v.name, message: v.message ?? "", items: v.items });
    setBusy(false);
    if (reportFailure(r, form, ["name", "items"], (msg) => void message.error(msg)) || !r?.ok) return;
    onSaved();
  };
  return (
    <Modal
      open
      title={t("onecard.bo.newPackage")}
      onCancel={onClose}
      onOk={() => void save()}
      confirmLoading={busy}
      okButtonProps={{ "data-testid": "package-save" }}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" initialValues={{ items: [{ count: 1 }] }}>
        <Form.Item
          name="name"
          label={t("onecard.bo.packageName")}
          rules={[{ required: true, message: t("onecard.bo.packageNameRequired") }]}
        >
          <Input maxLength={40} data-testid="package-name" />
        </Form.Item>
        <Form.Item name="message" label={t("onecard.bo.giftMessage")}>
          <Input maxLength={100} showCount />
        </Form.Item>
        <Form.List name="items">
          {(fields, { add, remove }) => (
            <>
              {fields.map((f) => (
                <Space key={f.key} align="baseline" style={{ display: "flex" }}>
                  <Form.Item
                    name={[f.name, "productId"]}
                    rules={[{ required: true, message: t("onecard.bo.chooseProduct") }]}
                    style={{ width: 300 }}
                  >
                    <Select
                      options={products}
                      placeholder={t("onecard.product")}
                      data-testid={`package-product-${f.name}`}
                    />
                  </Form.Item>
                  <Form.Item name={[f.name, "count"]} rules={[{ required: true }]}>
                    <InputNumber min={1} max={20} precision={0} addonAfter={t("onecard.bo.cardsUnit")} />
                  </Form.Item>
                  {fields.length > 1 && (
                    <MinusCircleOutlined onClick={() => remove(f.name)} aria-label={t("onecard.bo.remove")} />
                  )}
                </Space>
              ))}
              {fields.length < 10 && (
                <Button type="dashed" block icon={<PlusOutlined />} onClick={() => add({ count: 1 })}>
                  {t("onecard.bo.addProduct")}
                </Button>
              )}
            </>
          )}
        </Form.List>
      </Form>
    </Modal>
  );
}

/** Phones one per line (or separated by commas or spaces), and a number of links. */
function SendDialog({ pkg, onClose, onSent }: { pkg: OcPackage; onClose: () => void; onSent: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ phones?: string; links?: number }>();
  const [requestKey, setRequestKey] = useState(() => newRequestKey("ocpkg"));
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState<OcGift[] | null>(null);
  const send = async () => {
    const v = await form.validateFields();
    const phones = (v.phones ?? "")
      .split(/[\s,，;；]+/)
      .map(digitsOnly)
      .filter(Boolean);
    setBusy(true);
    const r = await ocSaleApi.sendPackage(pkg.id, { phones, links: v.links ?? 0, requestKey });
    setBusy(false);
    if (reportFailure(r, form, ["phones", "links"], (msg) => void message.error(msg)) || !r?.ok) return;
    setSent(r.data.gifts);
    onSent();
  };
  const links = (sent ?? []).flatMap((g) => (g.link ? [`${window.location.origin}${g.link}`] : []));
  return (
    <Modal
      open
      title={`${t("onecard.bo.sendPackage")} · ${pkg.name}`}
      onCancel={onClose}
      onOk={() => (sent ? onClose() : void send())}
      okText={sent ? t("onecard.bo.done") : t("onecard.bo.sendPackage")}
      confirmLoading={busy}
      okButtonProps={{ "data-testid": "package-send" }}
      destroyOnHidden
    >
      {sent ? (
        <>
          <Alert
            type="success"
            showIcon
            title={t("onecard.bo.packageSent", { count: sent.length })}
            style={{ marginBottom: 12 }}
          />
          {links.length > 0 && (
            <Typography.Paragraph copyable={{ text: links.join("\n") }} data-testid="package-links">
              {links.map((l) => (
                <div key={l}>{l}</div>
              ))}
            </Typography.Paragraph>
          )}
        </>
      ) : (
        <Form form={form} layout="vertical" onValuesChange={() => setRequestKey(newRequestKey("ocpkg"))}>
          <Typography.Paragraph type="secondary">
            {t("onecard.bo.canMakeNow", { count: pkg.available })}
          </Typography.Paragraph>
          <Form.Item name="phones" label={t("onecard.bo.recipientPhones")}>
            <Input.TextArea rows={4} placeholder="13800000000" data-testid="package-phones" />
          </Form.Item>
          <Form.Item name="links" label={t("onecard.bo.linkCount")}>
            <InputNumber min={0} max={200} precision={0} data-testid="package-links-count" />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}
