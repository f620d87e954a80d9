import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { App, Button, Card, Table, Tag, Typography, type TableColumnsType } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { CallbackDelivery as Delivery, Page } from "@tessera/contracts";
import { unwrap } from "../../api/errors";
import { http } from "../../api/http";
import { formatTime } from "../../ui/time";

const STATE_COLOR = { pending: "processing", delivered: "success", failed: "error" } as const;

/**
 * The delivery log of order result callbacks (purchase API): each event, its attempts and the last
 * answer of the purchaser's server, with a replay button.
 */
export function CallbackLog() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const { data, isFetching } = useQuery({
    queryKey: ["callbacks", page],
    queryFn: async () =>
      unwrap(await http.get<Page<Delivery>>("/api/card-brander/api/callbacks", { query: { page, pageSize: 20 } })),
  });
  const replay = useMutation({
    mutationFn: (id: string) => http.post<null>(`/api/card-brander/api/callbacks/${id}/replay`),
    onSuccess: (r) => {
      if (r?.ok) void message.success(t("callback.replayed"));
      void queryClient.invalidateQueries({ queryKey: ["callbacks"] });
    },
  });
  const columns: TableColumnsType<Delivery> = [
    {
      title: t("callback.time"),
      dataIndex: "createdAt",
      width: 150,
      render: (v: string) => formatTime(v, { seconds: true }),
    },
    {
      title: t("callback.event"),
      dataIndex: "eventId",
      render: (v: string) => <Typography.Text copyable={{ text: v }}>{v.slice(0, 8)}</Typography.Text>,
    },
    { title: t("callback.order"), dataIndex: "orderId" },
    {
      title: t("callback.state"),
      dataIndex: "state",
      render: (v: Delivery["state"]) => <Tag color={STATE_COLOR[v]}>{t(`callback.states.${v}`)}</Tag>,
    },
    { title: t("callback.attempts"), dataIndex: "attempts", align: "right" },
    {
      title: t("callback.last"),
      key: "last",
      render: (_: unknown, r) => r.lastError ?? (r.lastStatus ? `HTTP ${r.lastStatus}` : "-"),
    },
    {
      title: t("callback.next"),
      dataIndex: "nextAttemptAt",
      render: (v: string | null) => (v ? formatTime(v, { seconds: true }).slice(5) : "-"),
    },
    {
      title: t("funds.col.actions"),
      key: "actions",
      render: (_: unknown, r) => (
        <Button
          type="link"
          size="small"
          onClick={() => replay.mutate(r.id)}
          loading={replay.isPending && replay.variables === r.id}
        >
          {t("callback.replay")}
        </Button>
      ),
    },
  ];
  return (
    <Card
      variant="borderless"
      title={t("callback.title")}
      extra={<Typography.Text type="secondary">{t("callback.schedule")}</Typography.Text>}
    >
      <Table<Delivery>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={data?.list ?? []}
        loading={isFetching}
        pagination={{ current: page, pageSize: 20, total: data?.total ?? 0, onChange: setPage, showSizeChanger: false }}
      />
    </Card>
  );
}
