import { useQuery, useQueryClient } from "@tanstack/react-query";
import {
  App,
  Button,
  Card,
  Flex,
  Form,
  Input,
  Modal,
  Popconfirm,
  Select,
  Table,
  Tag,
  Typography,
  type TableColumnsType,
} from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  ANNOUNCEMENT_AUDIENCES,
  announcementReq,
  serviceContactReq,
  type AnnouncementAudience,
  type OpsAnnouncement,
  type ServiceContactReq,
  PAGE_SIZES,
} from "@tessera/contracts";
import { announcementKeys, opsAnnouncementsApi } from "./api";
import { useZodRules } from "../../ui/form/useZodRules";
import { ExportButton } from "../../ui/list/useExport";
import { PageHint } from "../../ui/PageHint";
import { OpsOnly } from "../accounts/OpsOnly";
import { formatTime } from "../../ui/time";

interface AnnouncementForm {
  title: string;
  body: string;
  audience: AnnouncementAudience;
}

/** The customer-service contact merchants see (getQwContact): name, QR image URL, phone. */
function ContactCard() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [form] = Form.useForm<ServiceContactReq>();
  const rule = useZodRules(serviceContactReq);
  const [saving, setSaving] = useState(false);
  const { data } = useQuery({ queryKey: announcementKeys.opsContact, queryFn: opsAnnouncementsApi.contact });
  useEffect(() => {
    if (data) form.setFieldsValue({ name: data.name, qrUrl: data.qrUrl, phone: data.phone });
  }, [data, form]);
  const save = async (v: ServiceContactReq) => {
    setSaving(true);
    try {
      const r = await opsAnnouncementsApi.setContact(v);
      if (!r) return;
      if (!r.ok) {
        const field = r.data?.field;
        form.setFields([{ name: field === "qrUrl" || field === "phone" ? field : "name", errors: [r.msg] }]);
        return;
      }
      void message.success(t("announcements.ops.saved"));
      void qc.invalidateQueries({ queryKey: announcementKeys.contact });
    } finally {
      setSaving(false);
    }
  };
  return (
    <Card variant="borderless" title={t("announcements.ops.contactTitle")}>
      <Typography.Paragraph type="secondary">{t("announcements.ops.contactHint")}</Typography.Paragraph>
      <Form<ServiceContactReq> form={form} layout="inline" onFinish={(v) => void save(v)} style={{ rowGap: 12 }}>
        <Form.Item name="name" label={t("announcements.ops.name")} rules={[rule("name")]}>
          <Input maxLength={50} style={{ width: 180 }} data-testid="contact-name" />
        </Form.Item>
        <Form.Item name="qrUrl" label={t("announcements.ops.qrUrl")} rules={[rule("qrUrl")]}>
          <Input maxLength={500} style={{ width: 320 }} placeholder="https://" data-testid="contact-qr" />
        </Form.Item>
        <Form.Item name="phone" label={t("announcements.ops.phone")} rules={[rule("phone")]}>
          <Input maxLength={20} style={{ width: 180 }} data-testid="contact-phone" />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit" loading={saving} data-testid="contact-save">
            {t("announcements.ops.save")}
          </Button>
        </Form.Item>
      </Form>
    </Card>
  );
}

function PublishDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [form] = Form.useForm<AnnouncementForm>();
  const rule = useZodRules(announcementReq);
  const [saving, setSaving] = useState(false);
  const submit = async (v: AnnouncementForm) => {
    setSaving(true);
    try {
      const r = await opsAnnouncementsApi.publish(v);
      if (!r) return;
      if (!r.ok) {
        form.setFields([{ name: r.data?.field === "body" ? "body" : "title", errors: [r.msg] }]);
        return;
      }
      void message.success(t("announcements.ops.published"));
      void qc.invalidateQueries({ queryKey: announcementKeys.all });
      onClose();
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open
      title={t("announcements.ops.publishTitle")}
      onOk={() => form.submit()}
      okText={t("announcements.ops.publish")}
      confirmLoading={saving}
      onCancel={onClose}
      destroyOnHidden
      maskClosable={false}
    >
      <Form<AnnouncementForm>
        form={form}
        layout="vertical"
        initialValues={{ audience: "all" }}
        onFinish={(v) => void submit(v)}
      >
        <Form.Item name="title" label={t("announcements.ops.annTitle")} rules={[rule("title")]}>
          <Input maxLength={100} data-testid="announcement-title" />
        </Form.Item>
        <Form.Item name="body" label={t("announcements.ops.body")} rules={[rule("body")]}>
          <Input.TextArea rows={6} maxLength={5000} showCount data-testid="announcement-body" />
        </Form.Item>
        <Form.Item name="audience" label={t("announcements.ops.audience")}>
          <Select
            options={ANNOUNCEMENT_AUDIENCES.map((a) => ({ value: a, label: t(`announcements.ops.audienceOf.${a}`) }))}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/**
 * `/ops/Announcements`: the platform's customer-service contact (what merchants get from getQwContact)
 * and its announcements to merchants (textMess): publish to all merchants or one kind, see how many
 * merchants read each, withdraw one.
 */
export default function Announcements() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [publishing, setPublishing] = useState(false);
  const [page, setPage] = useState({ page: 1, pageSize: 20 });
  const { data, isFetching } = useQuery({
    queryKey: announcementKeys.ops(page),
    queryFn: () => opsAnnouncementsApi.list(page),
  });
  const withdraw = async (id: string) => {
    const r = await opsAnnouncementsApi.withdraw(id);
    if (r?.ok) void qc.invalidateQueries({ queryKey: announcementKeys.all });
  };
  const columns: TableColumnsType<OpsAnnouncement> = [
    {
      title: t("announcements.ops.publishedAt"),
      dataIndex: "publishedAt",
      width: 170,
      render: (v: string) => formatTime(v),
    },
    { title: t("announcements.ops.annTitle"), dataIndex: "title", width: 220, ellipsis: true },
    { title: t("announcements.ops.body"), dataIndex: "body", ellipsis: true },
    {
      title: t("announcements.ops.audience"),
      dataIndex: "audience",
      width: 130,
      render: (a: AnnouncementAudience) => t(`announcements.ops.audienceOf.${a}`),
    },
    { title: t("announcements.ops.reads"), dataIndex: "reads", width: 90, align: "right" },
    {
      title: t("announcements.ops.state"),
      dataIndex: "withdrawnAt",
      width: 100,
      render: (v: string | null) =>
        v ? <Tag>{t("announcements.ops.withdrawn")}</Tag> : <Tag color="success">{t("announcements.ops.live")}</Tag>,
    },
    {
      title: t("announcements.ops.actions"),
      key: "actions",
      width: 100,
      render: (_: unknown, a) =>
        a.withdrawnAt ? null : (
          <Popconfirm title={t("announcements.ops.withdrawConfirm")} onConfirm={() => void withdraw(a.id)}>
            <Button type="link" size="small" danger>
              {t("announcements.ops.withdraw")}
            </Button>
          </Popconfirm>
        ),
    },
  ];
  return (
    <OpsOnly>
      <Flex vertical gap={16}>
        <PageHint
          id="ops.Announcements"
          title={t("announcements.ops.title")}
          description={t("announcements.ops.hint")}
        />
        <ContactCard />
        <Card
          variant="borderless"
          title={t("announcements.ops.listTitle")}
          extra={
            <Flex gap={8}>
              <ExportButton<OpsAnnouncement>
                columns={columns.filter((c) => c.key !== "actions")}
                rows={data?.list ?? []}
                name={t("announcements.ops.listTitle")}
              />
              <Button type="primary" onClick={() => setPublishing(true)} data-testid="announcement-publish">
                {t("announcements.ops.publish")}
              </Button>
            </Flex>
          }
        >
          <Table<OpsAnnouncement>
            rowKey="id"
            size="small"
            columns={columns}
            dataSource={data?.list ?? []}
            loading={isFetching}
            pagination={{
              current: page.page,
              pageSize: page.pageSize,
              total: data?.total ?? 0,
              pageSizeOptions: PAGE_SIZES.map(String),
              onChange: (p, s) => setPage({ page: p, pageSize: s }),
            }}
          />
        </Card>
        {publishing && <PublishDialog onClose={() => setPublishing(false)} />}
      </Flex>
    </OpsOnly>
  );
}
