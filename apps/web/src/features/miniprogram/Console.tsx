import { MinusCircleOutlined, PlusOutlined } from "@ant-design/icons";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import {
  Alert,
  App,
  Button,
  Checkbox,
  Descriptions,
  Drawer,
  Form,
  Image,
  Input,
  InputNumber,
  Modal,
  Radio,
  Select,
  Space,
  Steps,
  Switch,
  Table,
  Tag,
  Typography,
  type TableColumnsType,
} from "antd";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocation, useNavigate } from "react-router";
import {
  DOUYIN_HOSTS,
  MP_ADVISED_SUBMIT_HOUR,
  type MpConfig,
  type MpPlatform,
  type MpVersion,
} from "@tessera/contracts";
import { reportFailure } from "../../components/form/serverError";
import { ListPage } from "../../components/list/ListPage";
import { PageHint } from "../../components/PageHint";
import { mpApi, mpKeys, type MpCategory } from "./api";

const THEME_COLOURS = ["#e4393c", "#1677ff", "#13a35b", "#222222"] as const;
const AUDIT_COLOUR: Record<string, string> = {
  not_submitted: "default",
  auditing: "processing",
  delayed: "warning",
  approved: "success",
  rejected: "error",
  withdrawn: "default",
};
const time = (s: string | null) => (s ? s.slice(0, 16).replace("T", " ") : "—");

/**
 * A merchant's mini-program malls on one platform (`/sale/EquityApplet`, `/international/sale/EquityApplet`:
 * WeChat; `/providers/TiktokApplet`: Douyin): create the config, authorise on the platform, choose the
 * template, configure pages, upload code (force option), experience QR, submit for review (17:00 advised),
 * see the review and its rejection feedback, resubmit, release, roll back, history.
 */
export function MiniProgramConsole({ platform, hintId }: { platform: MpPlatform; hintId: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const location = useLocation();
  const navigate = useNavigate();
  const [editing, setEditing] = useState<MpConfig | "new" | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const handled = useRef(false);
  const refresh = () => void qc.invalidateQueries({ queryKey: mpKeys.all });

  // Back from the platform's consent page with ?configId=&auth_code=: bind the app.
  useEffect(() => {
    const q = new URLSearchParams(location.search);
    const configId = q.get("configId");
    const code = q.get("auth_code");
    if (!configId || !code || handled.current) return;
    handled.current = true;
    void mpApi.authCallback(configId, code).then((r) => {
      void navigate(location.pathname, { replace: true });
      if (r?.ok) {
        void message.success(t("mp.authorised"));
        refresh();
        setOpen(configId);
      }
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [location.search]);

  const columns: TableColumnsType<MpConfig> = [
    { title: t("mp.configCode"), dataIndex: "configCode", width: 120 },
    { title: t("mp.name"), dataIndex: "name", width: 180, ellipsis: true },
    {
      title: t("mp.appId"),
      dataIndex: "appId",
      width: 170,
      render: (v: string | null, r) =>
        r.authorized && v ? (
          <Typography.Text code>{v}</Typography.Text>
        ) : (
          <Tag color="warning">{t("mp.notAuthorised")}</Tag>
        ),
    },
    { title: t("mp.template"), dataIndex: "templateName", width: 140, render: (v: string | null) => v ?? "—" },
    {
      title: t("mp.theme"),
      dataIndex: "theme",
      width: 90,
      render: (v: number) => <Tag color={THEME_COLOURS[v - 1]}>{t("mp.themeN", { n: v })}</Tag>,
    },
    {
      title: t("mp.auditState"),
      dataIndex: "auditState",
      width: 110,
      render: (v: string) => <Tag color={AUDIT_COLOUR[v]}>{t(`mp.audit.${v}`)}</Tag>,
    },
    {
      title: t("mp.publishState"),
      dataIndex: "publishState",
      width: 100,
      render: (v: string) => <Tag color={v === "published" ? "success" : "default"}>{t(`mp.publish.${v}`)}</Tag>,
    },
    { title: t("mp.online"), key: "online", width: 90, render: (_: unknown, r) => r.online?.userVersion ?? "—" },
    { title: t("mp.updatedAt"), dataIndex: "updatedAt", width: 140, render: time },
    {
      title: t("mp.actions"),
      key: "actions",
      width: 160,
      fixed: "right",
      render: (_: unknown, r) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => setOpen(r.id)} data-testid={`mp-manage-${r.configCode}`}>
            {t("mp.manage")}
          </Button>
          <Button type="link" size="small" onClick={() => setEditing(r)}>
            {t("mp.edit")}
          </Button>
        </Space>
      ),
    },
  ];

  return (
    <>
      <ListPage<MpConfig>
        header={
          <PageHint
            id={hintId}
            title={t(platform === "wechat" ? "mp.page.EquityApplet" : "mp.page.TiktokApplet")}
            description={t("mp.hint")}
          />
        }
        rowKey="id"
        columns={columns}
        scrollX={1400}
        search={{ add: { label: t("mp.newConfig"), onClick: () => setEditing("new") } }}
        query={(state) => {
          const q = { page: state.page, pageSize: state.pageSize, platform };
          return { queryKey: mpKeys.list(q), queryFn: () => mpApi.list(q) };
        }}
      />
      {editing && (
        <ConfigDialog
          platform={platform}
          config={editing === "new" ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(c) => {
            setEditing(null);
            void message.success(t("mp.saved"));
            refresh();
            if (editing === "new") setOpen(c.id);
          }}
        />
      )}
      {open && <ManageDrawer id={open} onClose={() => setOpen(null)} onEdit={(c) => setEditing(c)} />}
    </>
  );
}

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
                <Form.Item name={[f.name, "target"]}>
                  <Input placeholder={t("mp.menuTarget")} maxLength={200} style={{ width: 180 }} />
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

function ConfigDialog({
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

function ManageDrawer({ id, onClose, onEdit }: { id: string; onClose: () => void; onEdit: (c: MpConfig) => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const { data: cfg } = useQuery({ queryKey: mpKeys.one(id), queryFn: () => mpApi.one(id) });
  const refresh = () => void qc.invalidateQueries({ queryKey: mpKeys.all });
  if (!cfg) return <Drawer open width={860} onClose={onClose} loading />;
  const step = !cfg.authorized
    ? 0
    : !cfg.templateId
      ? 1
      : !cfg.trial
        ? 2
        : cfg.auditState === "not_submitted" || cfg.auditState === "rejected" || cfg.auditState === "withdrawn"
          ? 3
          : cfg.auditState !== "approved"
            ? 4
            : 5;
  return (
    <Drawer
      open
      width={900}
      title={`${cfg.name} · ${cfg.platform === "wechat" ? t("mp.wechat") : t("mp.douyin")}`}
      onClose={onClose}
      data-testid="mp-drawer"
    >
      <Steps
        size="small"
        current={step}
        style={{ marginBottom: 16 }}
        items={[
          t("mp.step.authorise"),
          t("mp.step.template"),
          t("mp.step.commit"),
          t("mp.step.submit"),
          t("mp.step.review"),
          t("mp.step.release"),
        ].map((title) => ({ title }))}
      />
      <Descriptions size="small" column={3} bordered style={{ marginBottom: 16 }}>
        <Descriptions.Item label={t("mp.appId")}>{cfg.appId ?? "—"}</Descriptions.Item>
        <Descriptions.Item label={t("mp.auditState")}>
          <Tag color={AUDIT_COLOUR[cfg.auditState]} data-testid="mp-audit-state">
            {t(`mp.audit.${cfg.auditState}`)}
          </Tag>
        </Descriptions.Item>
        <Descriptions.Item label={t("mp.publishState")}>
          <Tag color={cfg.publishState === "published" ? "success" : "default"} data-testid="mp-publish-state">
            {t(`mp.publish.${cfg.publishState}`)}
          </Tag>
        </Descriptions.Item>
        <Descriptions.Item label={t("mp.trial")}>{cfg.trial?.userVersion ?? "—"}</Descriptions.Item>
        <Descriptions.Item label={t("mp.online")}>{cfg.online?.userVersion ?? "—"}</Descriptions.Item>
        <Descriptions.Item label={t("mp.theme")}>
          <Tag color={THEME_COLOURS[cfg.theme - 1]}>{t("mp.themeN", { n: cfg.theme })}</Tag>
          <Button size="small" type="link" onClick={() => onEdit(cfg)} data-testid="mp-edit">
            {t("mp.edit")}
          </Button>
        </Descriptions.Item>
      </Descriptions>
      <AuthoriseSection cfg={cfg} />
      {cfg.authorized && <TemplateSection cfg={cfg} onDone={refresh} />}
      {cfg.authorized && cfg.templateId && <CommitSection key={cfg.trial?.id ?? "none"} cfg={cfg} onDone={refresh} />}
      {cfg.trial && <ReviewSection cfg={cfg} onDone={refresh} />}
      {cfg.trial && <History id={cfg.id} />}
    </Drawer>
  );
}

function Section({ title, children, extra }: { title: string; children: React.ReactNode; extra?: React.ReactNode }) {
  return (
    <div style={{ marginBottom: 20 }}>
      <Space style={{ marginBottom: 8 }}>
        <Typography.Title level={5} style={{ margin: 0 }}>
          {title}
        </Typography.Title>
        {extra}
      </Space>
      <div>{children}</div>
    </div>
  );
}

function AuthoriseSection({ cfg }: { cfg: MpConfig }) {
  const { t } = useTranslation();
  const location = useLocation();
  const authorise = async () => {
    const r = await mpApi.authUrl(cfg.id, location.pathname);
    if (r?.ok) window.location.assign(r.data.url);
  };
  return (
    <Section
      title={t("mp.step.authorise")}
      extra={
        cfg.authorized ? (
          <Tag color="success">{t("mp.authorisedTag")}</Tag>
        ) : (
          <Tag color="warning">{t("mp.notAuthorised")}</Tag>
        )
      }
    >
      <Space>
        <Typography.Text type="secondary">
          {cfg.authorized
            ? t("mp.authorisedHint", { appId: cfg.appId })
            : cfg.appId
              ? t("msg:mp.authRevoked")
              : t("mp.authoriseHint")}
        </Typography.Text>
        <Button
          type={cfg.authorized ? "default" : "primary"}
          onClick={() => void authorise()}
          data-testid="mp-authorise"
        >
          {cfg.authorized ? t("mp.reauthorise") : t("mp.authorise")}
        </Button>
      </Space>
    </Section>
  );
}

function TemplateSection({ cfg, onDone }: { cfg: MpConfig; onDone: () => void }) {
  const { data: params } = useQuery({ queryKey: mpKeys.params(cfg.id), queryFn: () => mpApi.params(cfg.id) });
  if (!params) return null;
  return (
    <TemplateEditor
      key={`${params.templateId ?? "none"}-${JSON.stringify(params.values)}`}
      cfg={cfg}
      initialValues={params.values}
      onDone={onDone}
    />
  );
}

function TemplateEditor({
  cfg,
  initialValues,
  onDone,
}: {
  cfg: MpConfig;
  initialValues: Record<string, string>;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { data: templates = [] } = useQuery({
    queryKey: mpKeys.templates(cfg.platform),
    queryFn: () => mpApi.templates(cfg.platform),
  });
  const [templateId, setTemplateId] = useState<string | null>(cfg.templateId);
  const [values, setValues] = useState<Record<string, string>>(initialValues);
  const chosen = templates.find((x) => x.id === templateId);
  const save = async () => {
    if (!templateId) return;
    const r = await mpApi.saveParams(cfg.id, templateId, values);
    if (r?.ok) {
      void message.success(t("mp.saved"));
      onDone();
    }
  };
  return (
    <Section title={t("mp.step.template")}>
      <Space wrap align="start">
        <Select
          style={{ width: 260 }}
          value={templateId}
          placeholder={t("mp.chooseTemplate")}
          onChange={(v: string) => setTemplateId(v)}
          options={templates.map((x) => ({
            value: x.id,
            label: `${x.name} (${x.userVersion}${x.templateType === 1 ? ` · ${t("mp.standard")}` : ""})`,
          }))}
          data-testid="mp-template"
        />
        {(chosen?.params ?? []).map((p) => (
          <Input
            key={p.key}
            addonBefore={p.label}
            value={values[p.key] ?? p.default}
            onChange={(e) => setValues({ ...values, [p.key]: e.target.value })}
            style={{ width: 260 }}
          />
        ))}
        <Button onClick={() => void save()} disabled={!templateId} data-testid="mp-template-save">
          {t("mp.saveTemplate")}
        </Button>
      </Space>
      {templates.length === 0 && <Alert type="info" showIcon title={t("mp.noTemplates")} style={{ marginTop: 8 }} />}
    </Section>
  );
}

function CommitSection({ cfg, onDone }: { cfg: MpConfig; onDone: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [version, setVersion] = useState(() => nextVersion(cfg.trial?.userVersion));
  const [desc, setDesc] = useState("");
  const [force, setForce] = useState(false);
  const [qr, setQr] = useState<{ url: string; dataUrl: string } | null>(null);
  const commit = async () => {
    const r = await mpApi.commit(cfg.id, { userVersion: version, userDesc: desc, force });
    if (r?.ok) {
      void message.success(t("mp.committed"));
      setForce(false);
      onDone();
    }
  };
  const showQr = async () => {
    const r = await mpApi.betaQr(cfg.id);
    if (r?.ok) setQr(r.data);
  };
  return (
    <Section
      title={t("mp.step.commit")}
      extra={cfg.changedSinceCommit ? <Tag color="orange">{t("mp.changed")}</Tag> : null}
    >
      <Space wrap>
        <Input
          addonBefore={t("mp.userVersion")}
          value={version}
          onChange={(e) => setVersion(e.target.value)}
          style={{ width: 200 }}
          data-testid="mp-version"
        />
        <Input
          placeholder={t("mp.userDesc")}
          value={desc}
          onChange={(e) => setDesc(e.target.value)}
          style={{ width: 240 }}
          maxLength={200}
        />
        <Checkbox checked={force} onChange={(e) => setForce(e.target.checked)} data-testid="mp-force">
          {t("mp.force")}
        </Checkbox>
        <Button type="primary" onClick={() => void commit()} data-testid="mp-commit">
          {t("mp.commit")}
        </Button>
        {cfg.trial && (
          <Button onClick={() => void showQr()} data-testid="mp-beta-qr">
            {t("mp.betaQr")}
          </Button>
        )}
      </Space>
      <Modal open={qr !== null} footer={null} onCancel={() => setQr(null)} title={t("mp.betaQr")} width={420}>
        {qr && (
          <Space direction="vertical" align="center" style={{ width: "100%" }}>
            <img src={qr.dataUrl} alt={t("mp.betaQr")} width={280} height={280} data-testid="mp-qr-image" />
            <Typography.Link href={qr.url} target="_blank" data-testid="mp-qr-url">
              {qr.url}
            </Typography.Link>
          </Space>
        )}
      </Modal>
    </Section>
  );
}

function nextVersion(v: string | undefined): string {
  if (!v) return "1.0.0";
  const parts = v.split(".").map(Number);
  return `${parts[0] ?? 1}.${parts[1] ?? 0}.${(parts[2] ?? 0) + 1}`;
}

function Screenshot({ name }: { name: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let url: string | null = null;
    void mpApi.screenshot(name).then((r) => {
      if (r?.ok) {
        url = URL.createObjectURL(r.data.blob);
        setSrc(url);
      }
    });
    return () => {
      if (url) URL.revokeObjectURL(url);
    };
  }, [name]);
  return src ? <Image src={src} width={96} alt={name} /> : null;
}

function ReviewSection({ cfg, onDone }: { cfg: MpConfig; onDone: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const douyin = cfg.platform === "douyin";
  const { data: categories = [] } = useQuery({
    queryKey: mpKeys.categories(cfg.id),
    queryFn: () => mpApi.categories(cfg.id),
    enabled: cfg.authorized,
  });
  const { data: quota } = useQuery({ queryKey: mpKeys.quota(cfg.id), queryFn: () => mpApi.quota(cfg.id) });
  const [picked, setPicked] = useState<string[]>([]);
  const [hosts, setHosts] = useState<string[]>(["douyin"]);
  const [desc, setDesc] = useState("");
  const [feedback, setFeedback] = useState("");
  const under = cfg.auditState === "auditing" || cfg.auditState === "delayed";
  const done = (key: string) => (r: { ok: boolean } | undefined) => {
    if (r?.ok) {
      void message.success(t(key));
      onDone();
    }
  };
  const submit = async () => {
    const chosen: MpCategory[] = picked.flatMap((p) => {
      const c = categories.find((x) => `${x.firstClass}/${x.secondClass}` === p);
      return c ? [{ firstClass: c.firstClass, secondClass: c.secondClass }] : [];
    });
    done("mp.submitted")(
      await mpApi.submit(cfg.id, {
        ...(douyin ? { hostNames: hosts } : { categories: chosen }),
        versionDesc: desc,
        feedbackInfo: feedback,
      }),
    );
  };
  const audit: MpVersion | null = cfg.audit;
  return (
    <Section title={t("mp.step.submit")}>
      <Alert
        type="info"
        showIcon
        title={t("mp.advice", { hour: MP_ADVISED_SUBMIT_HOUR })}
        style={{ marginBottom: 8 }}
        data-testid="mp-advice"
      />
      {audit?.state === "rejected" && (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 8 }}
          title={t("mp.rejectedTitle", { version: audit.userVersion })}
          description={
            <>
              <div data-testid="mp-reject-reason">{audit.reason}</div>
              <Space style={{ marginTop: 6 }}>
                {audit.screenshots.map((s) => (
                  <Screenshot key={s} name={s} />
                ))}
              </Space>
            </>
          }
        />
      )}
      {under && (
        <Alert
          type="warning"
          showIcon
          title={t("mp.underReview", { version: audit?.userVersion ?? "" })}
          style={{ marginBottom: 8 }}
        />
      )}
      <Space wrap align="start">
        {douyin ? (
          <Checkbox.Group
            value={hosts}
            onChange={(v) => setHosts(v)}
            options={DOUYIN_HOSTS.map((h) => ({ value: h, label: t(`mp.host.${h}`) }))}
          />
        ) : (
          <Select
            mode="multiple"
            style={{ width: 320 }}
            placeholder={t("mp.chooseCategories")}
            value={picked}
            onChange={setPicked}
            maxCount={5}
            options={categories.map((c) => ({
              value: `${c.firstClass}/${c.secondClass}`,
              label: `${c.firstClass} / ${c.secondClass}`,
            }))}
            data-testid="mp-categories"
          />
        )}
        <Input
          placeholder={t("mp.versionDesc")}
          value={desc}
          onChange={(e) => setDesc(e.target.value)}
          style={{ width: 220 }}
          maxLength={200}
        />
        {audit?.state === "rejected" && (
          <Input
            placeholder={t("mp.feedback")}
            value={feedback}
            onChange={(e) => setFeedback(e.target.value)}
            style={{ width: 220 }}
            maxLength={200}
          />
        )}
        <Button type="primary" disabled={under} onClick={() => void submit()} data-testid="mp-submit">
          {audit?.state === "rejected" ? t("mp.resubmit") : t("mp.submit")}
        </Button>
        {under && (
          <Button onClick={() => void mpApi.withdraw(cfg.id).then(done("mp.withdrawn"))} data-testid="mp-withdraw">
            {t("mp.withdraw")}
          </Button>
        )}
      </Space>
      {quota && (
        <Typography.Paragraph type="secondary" style={{ marginTop: 6 }}>
          {t("mp.quota", quota)}
        </Typography.Paragraph>
      )}
      <Space style={{ marginTop: 4 }}>
        <Button
          type="primary"
          disabled={cfg.auditState !== "approved"}
          onClick={() => void mpApi.release(cfg.id).then(done("mp.released"))}
          data-testid="mp-release"
        >
          {cfg.publishState === "published" ? t("mp.republish") : t("mp.release")}
        </Button>
        {cfg.publishState === "published" && (
          <Button onClick={() => void mpApi.rollback(cfg.id).then(done("mp.rolledBack"))} data-testid="mp-rollback">
            {t("mp.rollback")}
          </Button>
        )}
      </Space>
    </Section>
  );
}

function History({ id }: { id: string }) {
  const { t } = useTranslation();
  const { data = [] } = useQuery({ queryKey: mpKeys.versions(id), queryFn: () => mpApi.versions(id) });
  const columns: TableColumnsType<MpVersion> = [
    { title: t("mp.userVersion"), dataIndex: "userVersion", width: 90 },
    { title: t("mp.versionState"), dataIndex: "state", width: 110, render: (v: string) => t(`mp.vstate.${v}`) },
    { title: t("mp.committedAt"), dataIndex: "committedAt", width: 140, render: time },
    { title: t("mp.submittedAt"), dataIndex: "submittedAt", width: 140, render: time },
    { title: t("mp.releasedAt"), dataIndex: "releasedAt", width: 140, render: time },
    { title: t("mp.reason"), dataIndex: "reason", ellipsis: true, render: (v: string | null) => v ?? "" },
  ];
  return (
    <Section title={t("mp.history")}>
      <Table<MpVersion>
        size="small"
        rowKey="id"
        columns={columns}
        dataSource={data}
        pagination={false}
        data-testid="mp-history"
      />
    </Section>
  );
}
