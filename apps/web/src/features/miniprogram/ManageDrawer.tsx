import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, App, Button, Descriptions, Drawer, Input, Select, Space, Steps, Tag, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";
import { type MpConfig } from "@tessera/contracts";
import { mpApi, mpKeys } from "./api";
import { CommitSection, ReviewSection, History } from "./ReleaseSteps";
import { Section } from "./Section";

const THEME_COLOURS = ["#e4393c", "#1677ff", "#13a35b", "#222222"] as const;
const AUDIT_COLOUR: Record<string, string> = {
  not_submitted: "default",
  auditing: "processing",
  delayed: "warning",
  approved: "success",
  rejected: "error",
  withdrawn: "default",
};

export function ManageDrawer({
  id,
  onClose,
  onEdit,
}: {
  id: string;
  onClose: () => void;
  onEdit: (c: MpConfig) => void;
}) {
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
