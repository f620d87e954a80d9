import { useQuery, useQueryClient } from "@tanstack/react-query";
import { App, Badge, Button, Card, Flex, Input, Modal, Space, Table, Tag, type TableColumnsType } from "antd";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { TakeoutAction, TakeoutOrder as Order, TakeoutOrderState } from "@tessera/contracts";
import { formatMoney } from "../../ui/money";
import { PageHint } from "../../ui/PageHint";
import { takeoutApi, takeoutKeys } from "./api";
import { ExportButton } from "../../ui/list/useExport";
import { dense, DENSE_SCROLL_X, DENSE_TABLE_LAYOUT } from "../../ui/list/denseColumns";
import { formatTime } from "../../ui/time";

const COLOR: Record<TakeoutOrderState, string> = {
  pending_payment: "default",
  to_be_accepted: "orange",
  accepted: "blue",
  delivering: "geekblue",
  completed: "green",
  cancelled: "red",
};
const NEXT: Partial<Record<TakeoutOrderState, TakeoutAction>> = {
  to_be_accepted: "accept",
  accepted: "deliver",
  delivering: "complete",
};

/**
 * `/business/TakeoutOrder`: the shop's orders, live (new ones arrive every few seconds with a notice):
 * accept → deliver → complete, cancel with a reason (a paid order is refunded), print the kitchen ticket.
 */
export default function TakeoutOrder() {
  const { t } = useTranslation();
  const { message, notification } = App.useApp();
  const qc = useQueryClient();
  const { data, isFetching } = useQuery({
    queryKey: takeoutKeys.orders({ page: 1, pageSize: 100 }),
    queryFn: () => takeoutApi.orders({ page: 1, pageSize: 100 }),
    refetchInterval: 4_000,
  });
  const [cancelling, setCancelling] = useState<Order | null>(null);
  const [reason, setReason] = useState("");
  const seen = useRef<number | null>(null);
  useEffect(() => {
    const newest = Math.max(
      0,
      ...(data?.list ?? []).filter((o) => o.state !== "pending_payment").map((o) => Number(o.id)),
    );
    if (seen.current !== null && newest > seen.current) {
      notification.info({ title: t("takeout.newOrder"), placement: "topRight" });
    }
    if (data) seen.current = Math.max(seen.current ?? 0, newest);
  }, [data, notification, t]);
  const act = async (o: Order, action: TakeoutAction, why?: string) => {
    const r = await takeoutApi.act(o.id, action, why);
    if (r?.ok) {
      void message.success(t(`takeout.state.${r.data.state}`));
      setCancelling(null);
      setReason("");
      void qc.invalidateQueries({ queryKey: takeoutKeys.all });
    }
  };
  const waiting = (data?.list ?? []).filter((o) => o.state === "to_be_accepted").length;
  const columns: TableColumnsType<Order> = [
    { title: t("takeout.orderNo"), dataIndex: "orderNo", width: 190 },
    {
      title: t("takeout.status"),
      dataIndex: "state",
      width: 110,
      render: (s: TakeoutOrderState) => <Tag color={COLOR[s]}>{t(`takeout.state.${s}`)}</Tag>,
    },
    {
      title: t("takeout.lines"),
      key: "l",
      width: 260,
      render: (_: unknown, o) =>
        o.lines.map((l, i) => <div key={i}>{`${l.name} × ${l.quantity} ${l.options.join(" ")}`}</div>),
    },
    {
      title: t("takeout.total"),
      dataIndex: "total",
      width: 100,
      align: "right",
      render: (m: Order["total"]) => formatMoney(m),
    },
    {
      title: t("takeout.address"),
      key: "a",
      width: 240,
      render: (_: unknown, o) => `${o.contactName} ${o.contactPhone} ${o.address}`,
    },
    {
      title: t("takeout.createdAt"),
      dataIndex: "createdAt",
      width: 130,
      render: (v: string) => formatTime(v).slice(5),
    },
    {
      title: t("takeout.actions"),
      key: "x",
      width: 240,
      fixed: "right",
      render: (_: unknown, o) => {
        const next = NEXT[o.state];
        return (
          <Space size={0} wrap>
            {next && (
              <Button type="link" size="small" onClick={() => void act(o, next)}>
                {t(`takeout.action.${next}`)}
              </Button>
            )}
            {next && (
              <Button type="link" size="small" danger onClick={() => setCancelling(o)}>
                {t("takeout.action.cancel")}
              </Button>
            )}
            {o.state !== "pending_payment" && (
              <Button type="link" size="small" href={`/business/TakeoutTicket?id=${o.id}`} target="_blank">
                {t("takeout.ticket")}
              </Button>
            )}
          </Space>
        );
      },
    },
  ];
  return (
    <Flex vertical gap={16}>
      <PageHint
        id="business.TakeoutOrder"
        title={t("takeout.page.TakeoutOrder")}
        description={t("takeout.hint.orders")}
      />
      <Card
        variant="borderless"
        title={
          <Badge count={waiting} offset={[12, 0]}>
            {t("takeout.live")}
          </Badge>
        }
        extra={isFetching ? "…" : null}
      >
        <Flex justify="end" style={{ marginBottom: 12 }}>
          <ExportButton<Order> columns={columns} rows={data?.list ?? []} name={document.title.split(" - ")[0] ?? ""} />
        </Flex>
        <Table<Order>
          rowKey="id"
          dataSource={data?.list ?? []}
          columns={dense(columns)}
          tableLayout={DENSE_TABLE_LAYOUT}
          pagination={false}
          scroll={{ x: DENSE_SCROLL_X }}
        />
      </Card>
      <Modal
        open={cancelling !== null}
        title={t("takeout.action.cancel")}
        onCancel={() => setCancelling(null)}
        onOk={() => cancelling && void act(cancelling, "cancel", reason)}
        okButtonProps={{ disabled: !reason.trim() }}
      >
        <Input.TextArea
          rows={3}
          maxLength={200}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          placeholder={t("takeout.cancelReason")}
          aria-label={t("takeout.cancelReason")}
        />
      </Modal>
    </Flex>
  );
}
