import { useQuery } from "@tanstack/react-query";
import { App, Button, Drawer, Table, Typography, type TableColumnsType } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { Card, Page, RevealedCard } from "@tessera/contracts";
import { unwrap } from "../../api/errors";
import { http } from "../../api/http";
import type { PurchaseOrder } from "@tessera/contracts";

/**
 * The codes of one order, masked; "Reveal" shows them in full to their buyer (each reveal is audited
 * on the server). Revealed values live only in this drawer's state.
 */
export function OrderCodesDrawer({ order, onClose }: { order: PurchaseOrder; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [revealed, setRevealed] = useState<Map<number, RevealedCard>>(new Map());
  const { data, isFetching } = useQuery({
    queryKey: ["orderCodes", order.id],
    queryFn: async () =>
      unwrap(
        await http.get<Page<Card>>("/api/card-user/purchasedCards", { query: { orderId: order.id, pageSize: 1000 } }),
      ),
  });
  const reveal = async () => {
    const ids = (data?.list ?? []).map((c) => c.id);
    if (ids.length === 0) return;
    const result = await http.post<RevealedCard[]>("/api/card-user/purchasedCards/reveal", { ids });
    if (result?.ok) {
      setRevealed(new Map(result.data.map((c) => [c.id, c])));
      void message.success(t("order.revealed"));
    }
  };
  const columns: TableColumnsType<Card> = [
    {
      title: t("order.cardNumber"),
      dataIndex: "cardNumber",
      render: (v: string, c) => (
        <Typography.Text copyable={revealed.has(c.id)}>{revealed.get(c.id)?.cardNumber ?? v}</Typography.Text>
      ),
    },
    {
      title: t("order.cardSecret"),
      dataIndex: "cardSecret",
      render: (v: string, c) => (
        <Typography.Text copyable={revealed.has(c.id)}>{revealed.get(c.id)?.cardSecret ?? v}</Typography.Text>
      ),
    },
    { title: t("order.expiry"), dataIndex: "expiryDate", render: (v: string | null) => v ?? "-" },
  ];
  return (
    <Drawer
      open
      onClose={onClose}
      size={720}
      zIndex={1100}
      title={`${t("order.codesTitle")} · ${order.orderNo}`}
      extra={
        <Button type="primary" onClick={() => void reveal()} disabled={revealed.size > 0} data-testid="reveal-codes">
          {t("order.reveal")}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{t("order.revealHint")}</Typography.Paragraph>
      <Table<Card>
        rowKey="id"
        columns={columns}
        dataSource={data?.list ?? []}
        loading={isFetching}
        pagination={false}
        size="small"
      />
    </Drawer>
  );
}
