import { MinusCircleOutlined, PlusOutlined } from "@ant-design/icons";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import {
  App,
  Button,
  Form,
  Input,
  Modal,
  Popconfirm,
  Radio,
  Segmented,
  Select,
  Space,
  Table,
  Tag,
  type TableColumnsType,
} from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { MpPlatform, MpTemplate } from "@tessera/contracts";
import { unwrap } from "../../api/errors";
import { http } from "../../api/http";
import { PageHint } from "../../ui/PageHint";
import { OpsOnly } from "../accounts/OpsOnly";

interface TemplateForm {
  name: string;
  templateType: 0 | 1;
  userVersion: string;
  description?: string;
  params: { key: string; label: string; type: string; default?: string }[];
}

/** `/ops/MpTemplates`: the platform template library (≤ 200 per platform) and each template's params. */
export default function MpTemplates() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [platform, setPlatform] = useState<MpPlatform>("wechat");
  const [editing, setEditing] = useState<MpTemplate | "new" | null>(null);
  const { data = [], isFetching } = useQuery({
    queryKey: ["mp-ops-templates", platform],
    queryFn: async () =>
      unwrap(
        await http.get<{ list: MpTemplate[] }>("/api/ops/miniprogram/templates", {
          query: { platform },
          overlay: false,
        }),
      ).list,
  });
  const refresh = () => void qc.invalidateQueries({ queryKey: ["mp-ops-templates"] });
  const columns: TableColumnsType<MpTemplate> = [
    { title: "ID", dataIndex: "id", width: 70 },
    { title: t("mp.ops.templateName"), dataIndex: "name", width: 200 },
    {
      title: t("mp.ops.templateType"),
      dataIndex: "templateType",
      width: 110,
      render: (v: number) => <Tag>{v === 1 ? t("mp.standard") : t("mp.normal")}</Tag>,
    },
    { title: t("mp.userVersion"), dataIndex: "userVersion", width: 90 },
    {
      title: t("mp.ops.params"),
      key: "params",
      render: (_: unknown, r) => r.params.map((p) => `${p.label} (${p.key})`).join(", "),
    },
    {
      title: t("mp.actions"),
      key: "actions",
      width: 160,
      render: (_: unknown, r) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => setEditing(r)}>
            {t("mp.edit")}
          </Button>
          <Popconfirm
            title={t("mp.ops.deleteConfirm")}
            onConfirm={() => void http.del(`/api/ops/miniprogram/templates/${r.id}`).then((x) => x?.ok && refresh())}
          >
            <Button type="link" size="small" danger>
              {t("mp.ops.delete")}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];
  return (
    <OpsOnly>
      <PageHint id="ops.MpTemplates" title={t("mp.ops.templates")} description={t("mp.ops.templatesHint")} />
      <Space style={{ marginBottom: 12 }}>
        <Segmented<MpPlatform>
          value={platform}
          onChange={setPlatform}
          options={[
            { value: "wechat", label: t("mp.wechat") },
            { value: "douyin", label: t("mp.douyin") },
          ]}
        />
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing("new")} data-testid="mp-template-new">
          {t("mp.ops.newTemplate")}
        </Button>
      </Space>
      <Table<MpTemplate>
        rowKey="id"
        size="small"
        loading={isFetching}
        columns={columns}
        dataSource={data}
        pagination={false}
      />
      {editing && (
        <TemplateDialog
          platform={platform}
          tpl={editing === "new" ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void message.success(t("mp.saved"));
            refresh();
          }}
        />
      )}
    </OpsOnly>
  );
}

function TemplateDialog({
  platform,
  tpl,
  onClose,
  onSaved,
}: {
  platform: MpPlatform;
  tpl: MpTemplate | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<TemplateForm>();
  const [busy, setBusy] = useState(false);
  const save = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    setBusy(true);
    const body = {
      platform,
      ...v,
      description: v.description ?? "",
      params: v.params.map((p) => ({ ...p, default: p.default ?? "" })),
    };
    const r = tpl
      ? await http.put(`/api/ops/miniprogram/templates/${tpl.id}`, body, { toast: false })
      : await http.post("/api/ops/miniprogram/templates", body, { toast: false });
    setBusy(false);
    if (!r) return;
    if (!r.ok) {
      form.setFields([{ name: r.data?.field === "userVersion" ? "userVersion" : "name", errors: [r.msg] }]);
      return;
    }
    onSaved();
  };
  return (
    <Modal
      open
      width={680}
      title={tpl ? tpl.name : t("mp.ops.newTemplate")}
      onCancel={onClose}
      onOk={() => void save()}
      confirmLoading={busy}
      okButtonProps={{ "data-testid": "mp-template-ok" }}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" initialValues={tpl ?? { templateType: 0, userVersion: "1.0.0", params: [] }}>
        <Form.Item
          name="name"
          label={t("mp.ops.templateName")}
          rules={[{ required: true, whitespace: true, message: t("msg:mp.templateNameEmpty") }]}
        >
          <Input maxLength={40} data-testid="mp-template-name" />
        </Form.Item>
        <Space size="large">
          <Form.Item name="templateType" label={t("mp.ops.templateType")}>
            <Radio.Group
              options={[
                { value: 0, label: t("mp.normal") },
                { value: 1, label: t("mp.standard") },
              ]}
            />
          </Form.Item>
          <Form.Item
            name="userVersion"
            label={t("mp.userVersion")}
            rules={[{ required: true, pattern: /^\d+\.\d+\.\d+$/, message: t("msg:mp.userVersionInvalid") }]}
          >
            <Input style={{ width: 120 }} />
          </Form.Item>
        </Space>
        <Form.Item name="description" label={t("mp.description")}>
          <Input maxLength={200} />
        </Form.Item>
        <Form.List name="params">
          {(fields, { add, remove }) => (
            <>
              {fields.map((f) => (
                <Space key={f.key} align="baseline" style={{ display: "flex" }}>
                  <Form.Item
                    name={[f.name, "key"]}
                    rules={[
                      { required: true, pattern: /^[A-Za-z][A-Za-z0-9_]{0,29}$/, message: t("msg:mp.paramKeyInvalid") },
                    ]}
                  >
                    <Input placeholder="key" style={{ width: 120 }} />
                  </Form.Item>
                  <Form.Item
                    name={[f.name, "label"]}
                    rules={[{ required: true, message: t("msg:mp.paramLabelEmpty") }]}
                  >
                    <Input placeholder={t("mp.ops.paramLabel")} style={{ width: 140 }} />
                  </Form.Item>
                  <Form.Item name={[f.name, "type"]} initialValue="text">
                    <Select
                      style={{ width: 100 }}
                      options={["text", "color", "boolean", "number"].map((v) => ({ value: v, label: v }))}
                    />
                  </Form.Item>
                  <Form.Item name={[f.name, "default"]}>
                    <Input placeholder={t("mp.ops.paramDefault")} style={{ width: 140 }} />
                  </Form.Item>
                  <MinusCircleOutlined onClick={() => remove(f.name)} />
                </Space>
              ))}
              <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ type: "text" })}>
                {t("mp.ops.addParam")}
              </Button>
            </>
          )}
        </Form.List>
      </Form>
    </Modal>
  );
}
