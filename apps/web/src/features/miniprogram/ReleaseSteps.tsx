import { useQuery } from "@tanstack/react-query";
import {
  Alert,
  App,
  Button,
  Checkbox,
  Image,
  Input,
  Modal,
  Select,
  Space,
  Table,
  Tag,
  Typography,
  type TableColumnsType,
} from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { DOUYIN_HOSTS, MP_ADVISED_SUBMIT_HOUR, type MpConfig, type MpVersion } from "@tessera/contracts";
import { mpApi, mpKeys, type MpCategory } from "./api";
import type { SetupChecklist } from "@tessera/contracts";
import { unwrap } from "../../api/errors";
import { http } from "../../api/http";
import { useSession } from "../../api/common";
import { setupKeys } from "../setup/SetupChecklist";
import { Section } from "./Section";
import { formatTime } from "../../ui/time";

const time = (s: string | null) => (s ? formatTime(s) : "—");

export function CommitSection({ cfg, onDone }: { cfg: MpConfig; onDone: () => void }) {
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

export function ReviewSection({ cfg, onDone }: { cfg: MpConfig; onDone: () => void }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const { token } = useSession();
  // What a released mall still lacks (issue 40, item 13): nothing to buy, or no SMS to log customers in.
  const setup = useQuery({
    queryKey: setupKeys.checklist(token),
    queryFn: async () => unwrap(await http.get<SetupChecklist>("/api/card-user/setup/checklist", { overlay: false })),
  });
  const missing = (setup.data?.capabilities.find((c) => c.key === "mall")?.steps ?? []).filter(
    (s) => !s.done && (s.key === "goods" || s.key === "sms"),
  );
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
  const doRelease = () => mpApi.release(cfg.id).then(done("mp.released"));
  const release = () => {
    if (missing.length === 0) {
      void doRelease();
      return;
    }
    modal.confirm({
      title: t("mp.releaseMissing.title"),
      content: (
        <ul style={{ paddingInlineStart: 18, margin: 0 }} data-testid="mp-release-missing">
          {missing.map((s) => (
            <li key={s.key}>{t(`mp.releaseMissing.${s.key}`)}</li>
          ))}
        </ul>
      ),
      okText: t("mp.releaseMissing.anyway"),
      cancelText: t("mp.releaseMissing.later"),
      onOk: doRelease,
    });
  };
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
        <Button type="primary" disabled={cfg.auditState !== "approved"} onClick={release} data-testid="mp-release">
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

export function History({ id }: { id: string }) {
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
