import { MailOutlined, MessageOutlined } from "@ant-design/icons";
import { Tag, Typography, type TableColumnsType } from "antd";
import { Fragment, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { type OutboxItem, type OutboxQuery } from "@tessera/contracts";
import { OUTBOX_EXPORT_PATH, outboxQueryOptions } from "./api";
import { ListPage } from "../../ui/list/ListPage";
import type { ListState } from "../../ui/list/listQuery";
import type { SearchValues } from "../../ui/list/searchValues";
import { PageHint } from "../../ui/PageHint";
import { formatTime } from "../../ui/time";

/** The outbox filters of the search bar's values: recipient (inpVal), channel (selVal), time (date). */
function filtersOf(values: SearchValues): Omit<OutboxQuery, "page" | "pageSize"> {
  const channel = Array.isArray(values.selVal) ? values.selVal[0] : values.selVal;
  return {
    to: values.inpVal,
    channel: channel === "email" || channel === "sms" ? channel : undefined,
    from: values.date?.[0],
    until: values.date?.[1],
  };
}

/** Shows a message body with its verification code (a run of 4-8 digits) highlighted and copyable. */
function Body({ text }: { text: string }) {
  const parts = text.split(/(\b\d{4,8}\b)/);
  return (
    <Typography.Paragraph style={{ margin: 0, whiteSpace: "pre-wrap", minWidth: 240 }}>
      {parts.map((part, i) =>
        i % 2 === 1 ? (
          <Typography.Text key={i} code copyable strong data-testid="outbox-code">
            {part}
          </Typography.Text>
        ) : (
          <Fragment key={i}>{part}</Fragment>
        ),
      )}
    </Typography.Paragraph>
  );
}

/**
 * `/dev/mailbox`: what the local mail and SMS adapters "sent" (GET /api/dev/outbox), so a developer
 * or a browser test can read verification codes. Exists only while the local adapters are active.
 */
export default function Mailbox() {
  const { t } = useTranslation();

  const columns = useMemo<TableColumnsType<OutboxItem>>(
    () => [
      {
        key: "createdAt",
        title: t("mailbox.time"),
        dataIndex: "createdAt",
        width: 180,
        render: (v: string) => formatTime(v, { seconds: true }),
      },
      {
        key: "channel",
        title: t("mailbox.channel"),
        dataIndex: "channel",
        width: 110,
        render: (v: OutboxItem["channel"]) =>
          v === "email" ? (
            <Tag icon={<MailOutlined />} color="blue">
              {t("mailbox.email")}
            </Tag>
          ) : (
            <Tag icon={<MessageOutlined />} color="green">
              {t("mailbox.sms")}
            </Tag>
          ),
      },
      {
        key: "to",
        title: t("mailbox.recipient"),
        dataIndex: "to",
        width: 220,
        render: (v: string) => <Typography.Text style={{ wordBreak: "break-all" }}>{v}</Typography.Text>,
      },
      {
        key: "subject",
        title: t("mailbox.subject"),
        dataIndex: "subject",
        width: 200,
        render: (v: string) => v || "-",
      },
      { key: "body", title: t("mailbox.body"), dataIndex: "body", render: (v: string) => <Body text={v} /> },
    ],
    [t],
  );

  return (
    <ListPage<OutboxItem>
      header={
        <>
          <Typography.Title level={4} style={{ margin: 0 }}>
            {t("mailbox.title")}
          </Typography.Title>
          <PageHint id="dev.mailbox" title={t("mailbox.hintTitle")} description={t("mailbox.hintBody")} />
        </>
      }
      rowKey="id"
      columns={columns}
      search={{
        dateMode: "datetime",
        input: { keys: [{ value: "to", label: t("mailbox.recipient") }] },
        select: {
          keys: [
            {
              value: "channel",
              label: t("mailbox.channel"),
              options: [
                { value: "email", label: t("mailbox.email") },
                { value: "sms", label: t("mailbox.sms") },
              ],
            },
          ],
        },
      }}
      query={(state: ListState) =>
        outboxQueryOptions({ page: state.page, pageSize: state.pageSize, ...filtersOf(state.values) })
      }
      exportFile={(values) => ({ path: OUTBOX_EXPORT_PATH, query: { ...filtersOf(values) }, fileName: "outbox.xlsx" })}
    />
  );
}
