import { Typography, type TableColumnsType } from "antd";
import dayjs from "dayjs";
import { useTranslation } from "react-i18next";
import type { AuditRow } from "@tessera/contracts";
import type { Query } from "../../api/client";
import { auditQuery } from "./api";
import { ListPage } from "../../ui/list/ListPage";
import type { SearchValues } from "../../ui/list/searchValues";
import { auditAction, auditLines, auditSubject } from "./auditText";
import { OpsOnly } from "../accounts/OpsOnly";
import { formatTime } from "../../ui/time";

/** A before/after record as labelled lines in the reader's language, money formatted. */
function Changes({ value, partner }: { value: unknown; partner: unknown }) {
  const { t } = useTranslation();
  const lines = auditLines(t, value, partner);
  if (lines.length === 0) return <Typography.Text type="secondary">-</Typography.Text>;
  return (
    <div style={{ fontSize: 12, lineHeight: 1.6 }}>
      {lines.map((l, i) => (
        <div key={i}>
          {l.label && <Typography.Text type="secondary">{l.label}: </Typography.Text>}
          {l.text}
        </div>
      ))}
    </div>
  );
}

/** The filters of the list as the server's query. Dates are sent as calendar days. */
function filters(values: SearchValues): Query {
  const q: Query = {};
  if (values.inpKey && values.inpVal) q[values.inpKey] = values.inpVal;
  if (values.date) {
    q.from = dayjs(values.date[0]).format("YYYY-MM-DD");
    q.to = dayjs(values.date[1]).format("YYYY-MM-DD");
  }
  return q;
}

/** `/ops/AuditLog`: every operator action (append-only) with who, when, before and after; filter, page, export. */
export default function AuditLog() {
  const { t } = useTranslation();
  const columns: TableColumnsType<AuditRow> = [
    {
      title: t("ops.audit.time"),
      dataIndex: "createdAt",
      width: 170,
      render: (v: string) => formatTime(v, { seconds: true }),
    },
    { title: t("ops.audit.operator"), dataIndex: "operatorEmail", render: (v: string | null, r) => v ?? r.operatorId },
    { title: t("ops.audit.action"), dataIndex: "action", render: (v: string) => auditAction(t, v) },
    { title: t("ops.audit.subject"), render: (_: unknown, r) => auditSubject(t, r.subjectType, r.subjectId) },
    {
      title: t("ops.audit.before"),
      dataIndex: "before",
      render: (v: unknown, r) => <Changes value={v} partner={r.after} />,
    },
    {
      title: t("ops.audit.after"),
      dataIndex: "after",
      render: (v: unknown, r) => <Changes value={v} partner={r.before} />,
    },
    { title: t("ops.audit.reason"), dataIndex: "reason", render: (v: string | null) => v ?? "-" },
    { title: "IP", dataIndex: "ip", width: 120 },
  ];
  return (
    <OpsOnly>
      <ListPage<AuditRow>
        search={{
          dateMode: "date",
          dateLabel: t("ops.audit.time"),
          input: {
            keys: [
              { value: "action", label: t("ops.audit.action") },
              { value: "operatorId", label: t("ops.audit.operatorId"), numeric: true },
              { value: "subjectType", label: t("ops.audit.subjectType") },
              { value: "subjectId", label: t("ops.audit.subjectId") },
            ],
          },
        }}
        columns={columns}
        rowKey="id"
        scrollX={1200}
        query={(state) => auditQuery({ page: state.page, pageSize: state.pageSize, ...filters(state.values) })}
        exportFile={(values) => ({
          path: "/api/ops/auditLog/export",
          query: filters(values),
          fileName: "audit-log.xlsx",
        })}
      />
    </OpsOnly>
  );
}
