import { BellOutlined, CustomerServiceOutlined } from "@ant-design/icons";
import { Badge, Button, Drawer, Empty, Flex, Image, List, Popover, Tag, Tooltip, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useMarkRead, useServiceContact, useTextMess } from "./api";
import { formatTime } from "../../ui/time";

/**
 * The header's bell (spec 01 §7 Account `GET textMess`): the unread count of the platform's
 * announcements; a click opens them, newest first, each marked read when opened, or all at once.
 */
export function MessageBell() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [expanded, setExpanded] = useState<string | null>(null);
  const { data } = useTextMess({ page: 1, pageSize: 50 });
  const markRead = useMarkRead();
  const unread = data?.unread ?? 0;
  return (
    <>
      <Tooltip title={t("announcements.bell")}>
        <Badge count={unread} size="small" offset={[-4, 4]}>
          <Button
            type="text"
            icon={<BellOutlined />}
            onClick={() => setOpen(true)}
            aria-label={t("announcements.bell")}
            data-testid="header-bell"
          />
        </Badge>
      </Tooltip>
      <Drawer
        open={open}
        onClose={() => setOpen(false)}
        title={t("announcements.title")}
        size={420}
        extra={
          <Button
            size="small"
            disabled={unread === 0}
            loading={markRead.isPending}
            onClick={() => markRead.mutate("all")}
          >
            {t("announcements.readAll")}
          </Button>
        }
      >
        {data && data.list.length > 0 ? (
          <List
            dataSource={data.list}
            renderItem={(m) => (
              <List.Item
                style={{ cursor: "pointer", display: "block" }}
                onClick={() => {
                  setExpanded(expanded === m.id ? null : m.id);
                  if (!m.read) markRead.mutate(m.id);
                }}
                data-testid={`announcement-${m.id}`}
              >
                <Flex justify="space-between" align="center" gap={8}>
                  <Typography.Text strong={!m.read} ellipsis>
                    {m.title}
                  </Typography.Text>
                  {!m.read && <Tag color="red">{t("announcements.unread")}</Tag>}
                </Flex>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {formatTime(m.publishedAt)}
                </Typography.Text>
                {expanded === m.id ? (
                  <Typography.Paragraph style={{ marginTop: 8, whiteSpace: "pre-wrap" }}>{m.body}</Typography.Paragraph>
                ) : (
                  <Typography.Paragraph
                    type="secondary"
                    ellipsis={{ rows: 1 }}
                    style={{ marginTop: 4, marginBottom: 0 }}
                  >
                    {m.body}
                  </Typography.Paragraph>
                )}
              </List.Item>
            )}
          />
        ) : (
          <Empty description={t("announcements.none")} />
        )}
      </Drawer>
    </>
  );
}

/** The platform's customer-service contact (spec 01 §7 Account `GET getQwContact`): name, QR code, phone. */
export function ServiceContactButton() {
  const { t } = useTranslation();
  const { data } = useServiceContact();
  if (!data) return null;
  const content = (
    <Flex vertical align="center" gap={8} style={{ width: 200 }} data-testid="service-contact">
      <Typography.Text strong>{data.name}</Typography.Text>
      <Image src={data.qrUrl} alt={t("announcements.qr")} width={160} height={160} preview={false} />
      <Typography.Text type="secondary">{t("announcements.scan")}</Typography.Text>
      <Typography.Text copyable>{data.phone}</Typography.Text>
    </Flex>
  );
  return (
    <Popover content={content} title={t("announcements.contact")} trigger="click" placement="bottomRight">
      <Button
        type="text"
        icon={<CustomerServiceOutlined />}
        aria-label={t("announcements.contact")}
        data-testid="header-contact"
      />
    </Popover>
  );
}
