import { MinusCircleOutlined, PlusOutlined } from "@ant-design/icons";
import { App, AutoComplete, Button, Form, Input, InputNumber, Modal, Radio, Space, Switch } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { isMallMenuTarget, MALL_MENU_TARGETS, type MpConfig, type MpPlatform } from "@tessera/contracts";
import { reportFailure } from "../../ui/form/serverError";
import { mpApi } from "./api";

const THEME_COLOURS = ["#e4393c", "#1677ff", "#13a35b", "#222222"] as const;

interface ConfigForm {
  configCode: string;
  name: string;
  category: string;
  description: string;
  theme: number;
  navMenus: { title: string; target: string }[];
  bottomMenus: { title: string; target: string }[];
  customerService?: string;
  domain?: string;
  smsSignature?: string;
  payOnPlatform: boolean;
  validityDays?: number | null;
  allowTopupAccountChange: boolean;
}

/** The catalogue key of a storefront page: "/" is home, "/goods" goods. */
const pageKey = (p: string) => (p === "/" ? "home" : p.slice(1));

function MenuList({ name, label, max }: { name: "navMenus" | "bottomMenus"; label: string; max: number }) {
  const { t } = useTranslation();
  return (
    <Form.Item label={label}>
      <Form.List name={name}>
        {(fields, { add, remove }) => (
          <>
            {fields.map((f) => (
              <Space key={f.key} align="baseline" style={{ display: "flex" }}>
                <Form.Item
                  name={[f.name, "title"]}
                  rules={[{ required: true, whitespace: true, message: t("msg:mp.menuNameEmpty") }]}
                >
                  <Input placeholder={t("mp.menuTitle")} maxLength={20} data-testid={`${name}-title-${f.name}`} />
                </Form.Item>
                {/* A page of the storefront, or an https link typed in (issue 40 item 14). */}
                <Form.Item
                  name={[f.name, "target"]}
                  rules={[
                    {
                      validator: (_, v: string | undefined) =>
                        isMallMenuTarget(v ?? "")
                          ? Promise.resolve()
                          : Promise.reject(new Error(t("msg:mp.menuTargetInvalid"))),
                    },
                  ]}
                >
                  <AutoComplete
                    placeholder={t("mp.menuTarget")}
                    style={{ width: 220 }}
                    options={MALL_MENU_TARGETS.map((p) => ({
                      value: p,
                      label: `${t(`mp.menuPage.${pageKey(p)}`)} · ${p}`,
                    }))}
                    aria-label={t("mp.menuTarget")}
                    data-testid={`${name}-target-${f.name}`}
                  />
                </Form.Item>
                <MinusCircleOutlined onClick={() => remove(f.name)} aria-label={t("mp.remove")} />
              </Space>
            ))}
            {fields.length < max && (
              <Button
                type="dashed"
                icon={<PlusOutlined />}
                onClick={() => add({ title: "", target: "/" })}
                data-testid={`${name}-add`}
              >
                {t("mp.addMenu")}
              </Button>
            )}
          </>
        )}
      </Form.List>
    </Form.Item>
  );
}

export function ConfigDialog({
  platform,
  config,
  onClose,
  onSaved,
}: {
  platform: MpPlatform;
  config: MpConfig | null;
  onClose: () => void;
  onSaved: (c: MpConfig) => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<ConfigForm>();
  const [busy, setBusy] = useState(false);
  const initial: Partial<ConfigForm> = config
    ? {
        ...config,
        customerService: config.customerService ?? "",
        domain: config.domain ?? "",
        smsSignature: config.smsSignature ?? "",
      }
    : {
        theme: 1,
        navMenus: [{ title: "", target: "/" }],
        bottomMenus: [],
        payOnPlatform: false,
        allowTopupAccountChange: false,
      };
  const save = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    setBusy(true);
    const r = await mpApi.save({
      ...v,
      platform,
      validityDays: v.validityDays ?? null,
      ...(config && { id: Number(config.id), templateId: config.templateId ? Number(config.templateId) : null }),
    });
    setBusy(false);
    if (
      reportFailure(
        r,
        form,
        ["configCode", "name", "category", "description", "theme", "domain", "validityDays"],
        (msg) => void message.error(msg),
      ) ||
      !r?.ok
    ) {
      return;
    }
    onSaved(r.data);
  };
  return (
    <Modal
      open
      width={720}
      title={config ? t("mp.editConfig") : t("mp.newConfig")}
      onCancel={onClose}
      onOk={() => void save()}
      confirmLoading={busy}
      okButtonProps={{ "data-testid": "mp-config-save" }}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" initialValues={initial}>
        <Space size="middle" style={{ display: "flex" }} align="start">
          <Form.Item
            name="name"
            label={t("mp.name")}
            rules={[{ required: true, whitespace: true, message: t("msg:mp.nameEmpty") }]}
            style={{ width: 300 }}
          >
            <Input maxLength={30} data-testid="mp-name" />
          </Form.Item>
          <Form.Item
            name="configCode"
            label={t("mp.configCode")}
            rules={[{ required: true, whitespace: true, message: t("msg:mp.configIdEmpty") }]}
            style={{ width: 300 }}
          >
            <Input maxLength={40} data-testid="mp-code" />
          </Form.Item>
        </Space>
        <Space size="middle" style={{ display: "flex" }} align="start">
          <Form.Item
            name="category"
            label={t("mp.category")}
            rules={[{ required: true, whitespace: true, message: t("msg:mp.categoryEmpty") }]}
            style={{ width: 300 }}
          >
            <Input maxLength={60} data-testid="mp-category" />
          </Form.Item>
          <Form.Item
            name="description"
            label={t("mp.description")}
            rules={[{ required: true, whitespace: true, message: t("msg:mp.descEmpty") }]}
            style={{ width: 300 }}
          >
            <Input maxLength={200} data-testid="mp-description" />
          </Form.Item>
        </Space>
        <Form.Item name="theme" label={t("mp.theme")}>
          <Radio.Group data-testid="mp-theme">
            {[1, 2, 3, 4].map((n) => (
              <Radio.Button key={n} value={n} data-testid={`mp-theme-${n}`}>
                <span
                  style={{
                    display: "inline-block",
                    width: 12,
                    height: 12,
                    borderRadius: 6,
                    background: THEME_COLOURS[n - 1],
                    marginRight: 6,
                  }}
                />
                {t("mp.themeN", { n })}
              </Radio.Button>
            ))}
          </Radio.Group>
        </Form.Item>
        <MenuList name="navMenus" label={t("mp.navMenus")} max={10} />
        <MenuList name="bottomMenus" label={t("mp.bottomMenus")} max={5} />
        <Space size="middle" style={{ display: "flex" }} align="start">
          <Form.Item name="customerService" label={t("mp.customerService")} style={{ width: 200 }}>
            <Input maxLength={60} data-testid="mp-service" />
          </Form.Item>
          <Form.Item name="domain" label={t("mp.domain")} style={{ width: 220 }}>
            <Input maxLength={120} placeholder="mall.example.com" />
          </Form.Item>
          <Form.Item name="smsSignature" label={t("mp.smsSignature")} style={{ width: 160 }}>
            <Input maxLength={20} />
          </Form.Item>
        </Space>
        <Space size="large" style={{ display: "flex" }} align="start">
          <Form.Item name="validityDays" label={t("mp.validityDays")}>
            <InputNumber min={1} max={3650} precision={0} />
          </Form.Item>
          <Form.Item name="payOnPlatform" label={t("mp.payOnPlatform")} valuePropName="checked">
            <Switch />
          </Form.Item>
          <Form.Item name="allowTopupAccountChange" label={t("mp.allowTopupAccountChange")} valuePropName="checked">
            <Switch />
          </Form.Item>
        </Space>
      </Form>
    </Modal>
  );
}
