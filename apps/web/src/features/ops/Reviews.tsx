import { Badge, Button, Tabs, Tag, type TableColumnsType } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { REVIEW_STATES, type QueueItem } from "@tessera/contracts";
import { queueItemsQuery, useQueues } from "./api";
import { ListPage } from "../../ui/list/ListPage";
import { OpsOnly } from "../accounts/OpsOnly";
import { ReviewDrawer } from "./ReviewDrawer";
import { ALL_STATES, reviewStateFilter } from "./reviewFilter";
import { formatTime } from "../../ui/time";

const STATE_COLOR = { pending: "processing", approved: "success", rejected: "error" } as const;

/**
 * `/ops/Reviews`: the review queues (real-name verification, API permission; bank cards join when the
 * ledger registers its queue). Pending items come oldest first; each opens to approve or reject.
 */
export default function Reviews() {
  const { t } = useTranslation();
  const { data: queues } = useQueues();
  const [params, setParams] = useSearchParams();
  const kind = params.get("queue") ?? queues?.[0]?.kind ?? "realName";
  const [open, setOpen] = useState<QueueItem | null>(null);

  const columns: TableColumnsType<QueueItem> = [
    { title: "ID", dataIndex: "id", width: 80 },
    { title: t("ops.review.merchant"), render: (_: unknown, r) => `${r.merchantName} (${r.merchantId})` },
    {
      title: t("ops.review.summary"),
      render: (_: unknown, r) => r.fields.companyName ?? r.fields.purpose ?? "",
    },
    {
      title: t("ops.review.state"),
      dataIndex: "state",
      width: 110,
      render: (s: QueueItem["state"]) => <Tag color={STATE_COLOR[s]}>{t(`ops.state.${s}`)}</Tag>,
    },
    {
      title: t("ops.review.submittedAt"),
      dataIndex: "submittedAt",
      width: 170,
      render: (v: string) => formatTime(v),
    },
    {
      title: t("ops.actions"),
      width: 100,
      render: (_: unknown, r) => (
        <Button type="link" size="small" onClick={() => setOpen(r)} data-testid={`review-${r.merchantId}`}>
          {r.state === "pending" ? t("ops.review.open") : t("ops.review.view")}
        </Button>
      ),
    },
  ];

  return (
    <OpsOnly>
      <Tabs
        activeKey={kind}
        onChange={(k) => setParams({ queue: k })}
        items={(queues ?? []).map((q) => ({
          key: q.kind,
          label: (
            <Badge count={q.pending} size="small" offset={[10, -2]}>
              <span data-testid={`queue-${q.kind}`}>{t(`ops.queue.${q.kind}`, { defaultValue: q.kind })}</span>
            </Badge>
          ),
        }))}
      />
      <ListPage<QueueItem>
        key={kind}
        search={{
          input: { keys: [{ value: "merchantId", label: t("ops.merchants.id"), numeric: true }] },
          select: {
            keys: [
              {
                value: "state",
                label: t("ops.review.state"),
                defaultValue: "pending",
                options: [
                  { value: ALL_STATES, label: t("ops.review.allStates") },
                  ...REVIEW_STATES.map((s) => ({ value: s, label: t(`ops.state.${s}`) })),
                ],
              },
            ],
          },
        }}
        columns={columns}
        rowKey="id"
        query={(state) =>
          queueItemsQuery(kind, {
            page: state.page,
            pageSize: state.pageSize,
            merchantId: state.values.inpVal,
            ...reviewStateFilter(state.values.selVal),
          })
        }
      />
      <ReviewDrawer item={open} onClose={() => setOpen(null)} />
    </OpsOnly>
  );
}
