import { UploadOutlined } from "@ant-design/icons";
import { useQueryClient } from "@tanstack/react-query";
import { App, Button, Form, Image, Input, Modal, Segmented, Space, Tag, Upload, type TableColumnsType } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { MpPlatform } from "@tessera/contracts";
import { unwrap } from "../../api/errors";
import { http } from "../../api/http";
import { ListPage } from "../../ui/list/ListPage";
import { PageHint } from "../../ui/PageHint";
import { OpsOnly } from "../accounts/OpsOnly";
import { formatTime } from "../../ui/time";

interface AuditRow {
  auditId: string;
  platform: MpPlatform;
  appId: string;
  appName: string;
  merchantId: string | null;
  userVersion: string;
  userDesc: string;
  status: number;
  categories: { firstClass: string; secondClass: string }[];
  hostNames: string[];
  reason: string | null;
  screenshots: string[];
  previewUrl: string;
  submittedAt: string;
  decidedAt: string | null;
}
const STATUS_COLOUR = ["success", "error", "processing", "default", "warning"] as const;
const keys = { all: ["mp-ops-audits"] as const };
const time = (s: string | null) => (s ? formatTime(s) : "—");

/**
 * `/ops/MpReviews`: the local mini-program platform's review queue (WeChat and Douyin). The operator
 * plays the platform's reviewer: approve, delay, or reject with a reason and screenshots; the result is
 * pushed to the merchant's back-office as the real platform's audit events are.
 */
export default function MpReviews() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [platform, setPlatform] = useState<MpPlatform>("wechat");
  const [rejecting, setRejecting] = useState<AuditRow | null>(null);
  const refresh = () => void qc.invalidateQueries({ queryKey: keys.all });
  const act = async (row: AuditRow, action: "approve" | "delay") => {
    const r = await http.put(`/api/ops/miniprogram/${row.platform}/audits/${row.auditId}/${action}`);
    if (r?.ok) {
      void message.success(t("mp.ops.done"));
      refresh();
    }
  };
  const columns: TableColumnsType<AuditRow> = [
    { title: t("mp.ops.auditId"), dataIndex: "auditId", width: 80 },
    { title: t("mp.ops.app"), key: "app", width: 220, render: (_: unknown, r) => `${r.appName} (${r.appId})` },
    { title: t("mp.ops.merchant"), dataIndex: "merchantId", width: 90 },
    { title: t("mp.userVersion"), dataIndex: "userVersion", width: 90 },
    {
      title: t("mp.ops.categories"),
      key: "cat",
      width: 200,
      render: (_: unknown, r) =>
        r.platform === "douyin"
          ? r.hostNames.join(", ")
          : r.categories.map((c) => `${c.firstClass}/${c.secondClass}`).join("; "),
    },
    {
      title: t("mp.ops.status"),
      dataIndex: "status",
      width: 100,
      render: (v: number) => <Tag color={STATUS_COLOUR[v]}>{t(`mp.ops.st${v}`)}</Tag>,
    },
    { title: t("mp.reason"), dataIndex: "reason", width: 200, ellipsis: true, render: (v: string | null) => v ?? "" },
    { title: t("mp.submittedAt"), dataIndex: "submittedAt", width: 140, render: time },
    {
      title: t("mp.actions"),
      key: "actions",
      width: 260,
      fixed: "right",
      render: (_: unknown, r) => (
        <Space size={0}>
          <Button type="link" size="small" href={r.previewUrl} target="_blank">
            {t("mp.ops.preview")}
          </Button>
          {(r.status === 2 || r.status === 4) && (
            <>
              <Button
                type="link"
                size="small"
                onClick={() => void act(r, "approve")}
                data-testid={`mp-approve-${r.auditId}`}
              >
                {t("mp.ops.approve")}
              </Button>
              <Button
                type="link"
                size="small"
                danger
                onClick={() => setRejecting(r)}
                data-testid={`mp-reject-${r.auditId}`}
              >
                {t("mp.ops.reject")}
              </Button>
              {r.status === 2 && (
                <Button type="link" size="small" onClick={() => void act(r, "delay")}>
                  {t("mp.ops.delay")}
                </Button>
              )}
            </>
          )}
        </Space>
      ),
    },
  ];
  return (
    <OpsOnly>
      <Segmented<MpPlatform>
        value={platform}
        onChange={setPlatform}
        options={[
          { value: "wechat", label: t("mp.wechat") },
          { value: "douyin", label: t("mp.douyin") },
        ]}
        style={{ marginBottom: 12 }}
      />
      <ListPage<AuditRow>
        header={<PageHint id="ops.MpReviews" title={t("mp.ops.reviews")} description={t("mp.ops.reviewsHint")} />}
        rowKey="auditId"
        columns={columns}
        scrollX={1500}
        search={{}}
        query={(state) => {
          const q = { page: state.page, pageSize: state.pageSize };
          return {
            queryKey: [...keys.all, platform, q],
            queryFn: async () =>
              unwrap(
                await http.get<{ list: AuditRow[]; total: number; page: number; pageSize: number }>(
                  `/api/ops/miniprogram/${platform}/audits`,
                  { query: q, overlay: false },
                ),
              ),
          };
        }}
      />
      {rejecting && (
        <RejectDialog
          row={rejecting}
          onClose={() => setRejecting(null)}
          onDone={() => {
            setRejecting(null);
            void message.success(t("mp.ops.done"));
            refresh();
          }}
        />
      )}
    </OpsOnly>
  );
}

function RejectDialog({ row, onClose, onDone }: { row: AuditRow; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ reason: string }>();
  const [shots, setShots] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const add = (file: File) => {
    if (!/^image\/(png|jpeg)$/.test(file.type) || file.size > 1024 * 1024 || shots.length >= 5) {
      form.setFields([{ name: "reason", errors: [t("msg:mp.screenshotInvalid")] }]);
      return false;
    }
    const reader = new FileReader();
    reader.onload = () => setShots((s) => (typeof reader.result === "string" ? [...s, reader.result] : s));
    reader.readAsDataURL(file);
    return false;
  };
  const submit = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    setBusy(true);
    const r = await http.put(
      `/api/ops/miniprogram/${row.platform}/audits/${row.auditId}/reject`,
      { reason: v.reason, screenshots: shots },
      { toast: false },
    );
    setBusy(false);
    if (!r) return;
    if (!r.ok) {
      form.setFields([{ name: "reason", errors: [r.msg] }]);
      return;
    }
    onDone();
  };
  return (
    <Modal
      open
      title={`${t("mp.ops.reject")} · ${row.appName} ${row.userVersion}`}
      onCancel={onClose}
      onOk={() => void submit()}
      confirmLoading={busy}
      okButtonProps={{ "data-testid": "mp-reject-ok" }}
      destroyOnHidden
    >
      <Form form={form} layout="vertical">
        <Form.Item
          name="reason"
          label={t("mp.reason")}
          rules={[{ required: true, whitespace: true, message: t("msg:mp.reasonEmpty") }]}
        >
          <Input.TextArea rows={3} maxLength={500} showCount data-testid="mp-reject-reason-input" />
        </Form.Item>
        <Form.Item label={t("mp.ops.screenshots")}>
          <Space wrap>
            {shots.map((s, i) => (
              <Image key={i} src={s} width={80} />
            ))}
            <Upload
              accept="image/png,image/jpeg"
              showUploadList={false}
              beforeUpload={add}
              data-testid="mp-reject-upload"
            >
              <Button icon={<UploadOutlined />}>{t("mp.ops.addScreenshot")}</Button>
            </Upload>
          </Space>
        </Form.Item>
      </Form>
    </Modal>
  );
}
