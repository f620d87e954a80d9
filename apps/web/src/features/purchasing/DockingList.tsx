import { App, Button, Form, Input, Modal, Space, Tag, Typography, type TableColumnsType } from "antd";
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { DOCKING_STATUSES, type Docking, type DockingStatus } from "@tessera/contracts";
import { useMyMenus } from "../onboarding/api";
import { dockingsQuery, useEndDocking, useReviewDocking } from "../docking/api";
import { RealNameTag } from "../accounts/RealNameTag";
import { useMessageText } from "../../ui/form/useZodRules";
import { ListPage } from "../../ui/list/ListPage";
import { DockingSignDialog } from "./DockingSignDialog";
import { agreementStateKey } from "./agreementState";
import { formatTime } from "../../ui/time";

const STATUS_COLOR: Record<DockingStatus, string> = {
  pending_review: "processing",
  approved: "success",
  rejected: "error",
  cancelled: "default",
};

function RejectDialog({ docking, onClose }: { docking: Docking; onClose: () => void }) {
  const { t } = useTranslation();
  const text = useMessageText();
  const review = useReviewDocking();
  const [form] = Form.useForm<{ reason: string }>();
  const submit = async ({ reason }: { reason: string }) => {
    const result = await review.mutateAsync({ id: docking.id, approve: false, reason: reason.trim() });
    if (result?.ok) onClose();
    else if (result) form.setFields([{ name: "reason", errors: [result.msg] }]);
  };
  return (
    <Modal open title={t("docking.reject")} onCancel={onClose} footer={null} destroyOnHidden>
      <Form form={form} layout="vertical" onFinish={(v) => void submit(v)} requiredMark={false}>
        <Form.Item
          name="reason"
          label={t("funds.reason")}
          rules={[{ required: true, whitespace: true, message: text("docking.rejectReasonEmpty") }]}
        >
          <Input.TextArea rows={3} maxLength={200} showCount />
        </Form.Item>
        <Button type="primary" danger htmlType="submit" block loading={review.isPending}>
          {t("docking.reject")}
        </Button>
      </Form>
    </Modal>
  );
}

/**
 * Docking records from one side (spec 01 §3 Docking record): counterpart ID, company, real-name state,
 * agreement signing, docking state and status, with the actions that side may take.
 */
export function DockingList({ side, header }: { side: "purchaser" | "supplier"; header?: ReactNode }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const review = useReviewDocking();
  const end = useEndDocking();
  const [signing, setSigning] = useState<Docking | null>(null);
  const [rejecting, setRejecting] = useState<Docking | null>(null);
  const signedByMe = (d: Docking) => (side === "purchaser" ? d.purchaserSigned : d.supplierSigned);
  // The agreement binds the company: the main account signs it (the server refuses sub-accounts).
  const { data: menus } = useMyMenus();
  const owner = menus === null;

  const approve = (d: Docking) =>
    void review.mutateAsync({ id: d.id, approve: true }).then((r) => {
      if (r?.ok) void message.success(t("docking.approved"));
      else if (r) void message.error(r.msg);
    });
  const remove = (d: Docking) => {
    modal.confirm({
      title: t("docking.endTitle"),
      content: t("docking.endBody", { name: d.counterpartName }),
      okButtonProps: { danger: true },
      onOk: () => end.mutateAsync(d.id),
    });
  };

  const columns: TableColumnsType<Docking> = [
    { title: t("docking.col.counterpartId"), dataIndex: "counterpartId", width: 110 },
    { title: t("docking.col.company"), dataIndex: "counterpartName" },
    {
      title: t("docking.col.realName"),
      dataIndex: "counterpartRealNameState",
      render: (v: Docking["counterpartRealNameState"]) => <RealNameTag state={v} />,
    },
    {
      title: t("docking.col.agreement"),
      key: "agreement",
      render: (_: unknown, d) => (
        <Tag color={d.purchaserSigned && d.supplierSigned ? "success" : "warning"}>{t(agreementStateKey(side, d))}</Tag>
      ),
    },
    {
      title: t("docking.col.docked"),
      dataIndex: "docked",
      render: (v: boolean) => (
        <Tag color={v ? "success" : "default"}>{t(v ? "docking.docked" : "docking.notDocked")}</Tag>
      ),
    },
    {
      title: t("docking.col.status"),
      dataIndex: "status",
      render: (v: DockingStatus, d) => (
        <Tag color={STATUS_COLOR[v]} title={d.rejectReason ?? undefined}>
          {t(`docking.status.${v}`)}
        </Tag>
      ),
    },
    {
      title: t("docking.col.time"),
      dataIndex: "createdAt",
      width: 150,
      render: (v: string) => formatTime(v),
    },
    {
      title: t("funds.col.actions"),
      key: "actions",
      render: (_: unknown, d) => (
        <Space size={0} wrap>
          {side === "supplier" && d.status === "pending_review" && (
            <>
              <Button type="link" size="small" onClick={() => approve(d)} data-testid={`approve-docking-${d.id}`}>
                {t("docking.approve")}
              </Button>
              <Button type="link" size="small" danger onClick={() => setRejecting(d)}>
                {t("docking.reject")}
              </Button>
            </>
          )}
          {d.status === "approved" && !signedByMe(d) && owner && (
            <Button type="link" size="small" onClick={() => setSigning(d)} data-testid={`sign-docking-${d.id}`}>
              {t("docking.sign")}
            </Button>
          )}
          {d.status === "approved" && !signedByMe(d) && !owner && (
            <Typography.Text type="secondary" data-testid={`sign-docking-owner-${d.id}`}>
              {t("onboarding.agreement.ownerOnly")}
            </Typography.Text>
          )}
          {(d.status === "pending_review" || d.status === "approved") && (
            <Button type="link" size="small" danger onClick={() => remove(d)}>
              {t("docking.end")}
            </Button>
          )}
        </Space>
      ),
    },
  ];
  return (
    <>
      <ListPage<Docking>
        header={header}
        rowKey="id"
        columns={columns}
        search={{
          select: {
            keys: [
              {
                value: "status",
                label: t("docking.col.status"),
                options: DOCKING_STATUSES.map((s) => ({ value: s, label: t(`docking.status.${s}`) })),
              },
            ],
          },
        }}
        query={(state) =>
          dockingsQuery({
            page: state.page,
            pageSize: state.pageSize,
            side,
            status: typeof state.values.selVal === "string" ? (state.values.selVal as DockingStatus) : undefined,
          })
        }
      />
      {signing && <DockingSignDialog docking={signing} onClose={() => setSigning(null)} />}
      {rejecting && <RejectDialog docking={rejecting} onClose={() => setRejecting(null)} />}
    </>
  );
}
