import { useQuery, useQueryClient } from "@tanstack/react-query";
import { App, Button, Form, Input, Modal, Select, Space, type TableColumnsType } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { QrCode } from "@tessera/contracts";
import { reportFailure } from "../../ui/form/serverError";
import { ListPage } from "../../ui/list/ListPage";
import { PageHint } from "../../ui/PageHint";
import { storeApi, storeKeys } from "./api";
import { QrCodeDialog } from "./QrCodeDialog";
import { formatTime } from "../../ui/time";

/**
 * `/business/brandMallCode`: the brand's QR codes (spec 01 §7 mallCodes, qrCodes): mall codes open the
 * brand's mall (optionally attributed to a store), shop codes open a store; each downloads as a PNG.
 */
export default function BrandMallCode() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const qc = useQueryClient();
  const [form] = Form.useForm<{ name: string; storeId?: string }>();
  const [adding, setAdding] = useState(false);
  const [shown, setShown] = useState<QrCode | null>(null);
  const stores = useQuery({
    queryKey: storeKeys.list("mallcode", { page: 1, pageSize: 1000 }),
    queryFn: () => storeApi.list({ page: 1, pageSize: 1000 }),
    enabled: adding,
  });
  const refresh = () => void qc.invalidateQueries({ queryKey: storeKeys.all });

  const save = async () => {
    const v = await form.validateFields();
    const r = await storeApi.createMallCode({ name: v.name, storeId: v.storeId ?? null });
    if (reportFailure(r, form, ["name", "storeId"], (msg) => void message.error(msg)) || !r?.ok) return;
    setAdding(false);
    form.resetFields();
    refresh();
    setShown(r.data);
  };
  const retire = (c: QrCode) =>
    void modal.confirm({
      title: t("stores.retireCode", { name: c.name }),
      okButtonProps: { danger: true },
      onOk: async () => {
        const r = await storeApi.deleteMallCode(c.id);
        if (r?.ok) refresh();
      },
    });

  const columns: TableColumnsType<QrCode> = [
    { title: t("stores.codeName"), dataIndex: "name", width: 200 },
    {
      title: t("stores.codeKind"),
      dataIndex: "kind",
      width: 110,
      render: (k: QrCode["kind"]) => t(`stores.qrKind.${k}`),
    },
    { title: t("stores.name"), dataIndex: "storeName", width: 180, render: (v: string | null) => v ?? "-" },
    { title: t("stores.link"), dataIndex: "url", ellipsis: true },
    {
      title: t("stores.createdAt"),
      dataIndex: "createdAt",
      width: 180,
      render: (v: string) => formatTime(v, { seconds: true }),
    },
    {
      title: t("stores.actions"),
      key: "actions",
      width: 150,
      render: (_: unknown, c) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => setShown(c)}>
            {t("stores.showCode")}
          </Button>
          {c.kind === "mall" && (
            <Button type="link" size="small" danger onClick={() => retire(c)}>
              {t("stores.delete")}
            </Button>
          )}
        </Space>
      ),
    },
  ];

  return (
    <>
      <ListPage<QrCode>
        header={
          <PageHint
            id="business.brandMallCode"
            title={t("stores.title.brandMallCode")}
            description={t("stores.hint.mallCode")}
          />
        }
        rowKey="id"
        columns={columns}
        search={{
          add: { label: t("stores.addMallCode"), onClick: () => setAdding(true) },
          select: {
            keys: [
              {
                value: "kind",
                label: t("stores.codeKind"),
                options: [
                  { value: "mall", label: t("stores.qrKind.mall") },
                  { value: "shop", label: t("stores.qrKind.shop") },
                ],
              },
            ],
          },
        }}
        query={(state) => {
          const sel = typeof state.values.selVal === "string" ? state.values.selVal : undefined;
          const kind: QrCode["kind"] | undefined = sel === "mall" || sel === "shop" ? sel : undefined;
          const q = { page: state.page, pageSize: state.pageSize, kind };
          return { queryKey: storeKeys.codes(q), queryFn: () => storeApi.codes(q) };
        }}
      />
      <Modal
        open={adding}
        title={t("stores.addMallCode")}
        onCancel={() => setAdding(false)}
        onOk={() => void save()}
        forceRender
      >
        <Form form={form} layout="vertical">
          <Form.Item
            name="name"
            label={t("stores.codeName")}
            rules={[{ required: true, message: t("stores.required") }]}
          >
            <Input maxLength={40} />
          </Form.Item>
          <Form.Item name="storeId" label={t("stores.name")}>
            <Select allowClear options={(stores.data?.list ?? []).map((s) => ({ value: s.id, label: s.name }))} />
          </Form.Item>
        </Form>
      </Modal>
      {shown && <QrCodeDialog code={shown} onClose={() => setShown(null)} />}
    </>
  );
}
