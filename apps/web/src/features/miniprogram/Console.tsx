import { useQueryClient } from "@tanstack/react-query";
import { App, Button, Space, Tag, Typography, type TableColumnsType } from "antd";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocation, useNavigate } from "react-router";
import { type MpConfig, type MpPlatform } from "@tessera/contracts";
import { ListPage } from "../../ui/list/ListPage";
import { PageHint } from "../../ui/PageHint";
import { mpApi, mpKeys } from "./api";
import { ConfigDialog } from "./ConfigDialog";
import { ManageDrawer } from "./ManageDrawer";
import { formatTime } from "../../ui/time";

const THEME_COLOURS = ["#e4393c", "#1677ff", "#13a35b", "#222222"] as const;
const AUDIT_COLOUR: Record<string, string> = {
  not_submitted: "default",
  auditing: "processing",
  delayed: "warning",
  approved: "success",
  rejected: "error",
  withdrawn: "default",
};
const time = (s: string | null) => (s ? formatTime(s) : "—");

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
