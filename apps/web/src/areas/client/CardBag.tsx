import { useQuery, useQueryClient } from "@tanstack/react-query";
import { App, Button, Card, Empty, Flex, Modal, Space, Tag, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { OcBagCard, OcBagReply } from "@tessera/contracts";
import { customerCall } from "./customerApi";
import { day, fmt, STATE_COLOR } from "./format";
import { Shell } from "./Shell";

/**
 * `/client/cardBag` and `/oneCard/cardBag`: the customer's stored-value cards (balance, validity,
 * state) and the gift cards sent to their phone, to claim. A card opens its in-store code: the card
 * number large enough to scan or read out at the till.
 */
export default function CardBag() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [shown, setShown] = useState<OcBagCard | null>(null);
  const bag = useQuery({
    queryKey: ["onecard", "bag"],
    queryFn: async () => {
      const r = await customerCall<OcBagReply>("GET", "/api/mall/onecard/bag");
      return r.ok ? r.data : { cards: [], gifts: [] };
    },
  });
  const claim = async (id: string) => {
    const r = await customerCall<OcBagReply>("POST", `/api/mall/onecard/gifts/${id}/claim`);
    if (r.ok) {
      void message.success(t("onecard.claimed"));
      qc.setQueryData(["onecard", "bag"], r.data);
    }
  };
  const data = bag.data;
  return (
    <Shell title={t("onecard.title.cardBag")}>
      <Space direction="vertical" style={{ width: "100%" }} size={12}>
        {data?.gifts.map((g) => (
          <Card key={g.id} size="small" style={{ borderColor: "#faad14" }}>
            <Flex justify="space-between" align="center" gap={8}>
              <div>
                <Typography.Text strong>{t("onecard.giftFrom", { name: g.fromName, count: g.cardCount })}</Typography.Text>
                <div>
                  <Typography.Text type="secondary">
                    {fmt(g.amount)} · {t("onecard.claimBefore", { date: day(g.expiresAt) })}
                  </Typography.Text>
                </div>
                {g.message && <div>{g.message}</div>}
              </div>
              <Button type="primary" onClick={() => void claim(g.id)}>
                {t("onecard.claim")}
              </Button>
            </Flex>
          </Card>
        ))}
        {data && data.cards.length === 0 && data.gifts.length === 0 && <Empty description={t("onecard.bagEmpty")} />}
        {data?.cards.map((c) => (
          <Card
            key={c.id}
            hoverable
            onClick={() => setShown(c)}
            style={{ background: "linear-gradient(135deg, #1d39c4, #597ef7)", color: "#fff" }}
            styles={{ body: { padding: 16 } }}
          >
            <Flex justify="space-between">
              <span style={{ fontWeight: 600 }}>{c.branderName}</span>
              <Tag color={STATE_COLOR[c.state]}>{t(`onecard.state.${c.state}`)}</Tag>
            </Flex>
            <div style={{ opacity: 0.85 }}>{c.productName}</div>
            <div style={{ fontSize: 28, fontWeight: 700, margin: "8px 0" }}>{fmt(c.balance)}</div>
            <Flex justify="space-between" style={{ opacity: 0.85, fontSize: 12 }}>
              <span>{`**** ${c.cardNo.slice(-4)}`}</span>
              <span>{t("onecard.validUntil", { date: c.expiresAt ? day(c.expiresAt) : t("onecard.noExpiry") })}</span>
            </Flex>
          </Card>
        ))}
        <Flex gap={8} wrap>
          <Link to="/client/extractCard">
            <Button>{t("onecard.addCard")}</Button>
          </Link>
          <Link to="/client/rechargeEquity">
            <Button>{t("onecard.title.recharge")}</Button>
          </Link>
          <Link to="/client/resetCardPwd">
            <Button>{t("onecard.title.resetPwd")}</Button>
          </Link>
        </Flex>
      </Space>
      <Modal open={shown !== null} onCancel={() => setShown(null)} footer={null} title={shown?.productName} width={360}>
        {shown && (
          <Space direction="vertical" align="center" style={{ width: "100%" }}>
            <Typography.Text type="secondary">{t("onecard.showAtTill")}</Typography.Text>
            <div data-testid="card-code" style={{ fontFamily: "monospace", fontSize: 22, letterSpacing: 2, padding: "12px 8px", border: "2px solid #000", borderRadius: 8 }}>
              {shown.code.replace(/(\d{4})(?=\d)/g, "$1 ")}
            </div>
            <Typography.Text>{t("onecard.balance")}: {fmt(shown.balance)}</Typography.Text>
            <Typography.Text type="secondary">{t("onecard.faceValue")}: {fmt(shown.faceValue)}</Typography.Text>
            {shown.rechargeAllowed && shown.state === "activated" && (
              <Link to={`/client/rechargeEquity?card=${shown.id}`}>
                <Button type="primary">{t("onecard.title.recharge")}</Button>
              </Link>
            )}
          </Space>
        )}
      </Modal>
    </Shell>
  );
}
