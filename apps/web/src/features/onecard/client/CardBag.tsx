import { useQuery, useQueryClient } from "@tanstack/react-query";
import { App, Button, Card, Empty, Flex, Modal, Progress, QRCode, Space, Tag, Typography } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { DynamicCodeReply, OcBagCard, OcBagReply } from "@tessera/contracts";
import { MallBagCodes, useMallBagCodes } from "./MallBagCodes";
import { customerCall } from "../../customer/customerApi";
import { day, fmt, STATE_COLOR } from "./format";
import { Shell } from "../../customer/Shell";

/**
 * `/client/cardBag` and `/oneCard/cardBag`: the customer's stored-value cards (balance, validity,
 * state) and the gift cards sent to their phone, to claim. A card opens its in-store code: a dynamic
 * code (18 digits and its QR, valid 60 s, redeemable once, renewed when the countdown ends) that the
 * clerk scans or types instead of the card number and password, and the card number below it.
 */
function DynamicCode({ card }: { card: OcBagCard }) {
  const { t } = useTranslation();
  const [code, setCode] = useState<{ reply: DynamicCodeReply; until: number } | null>(null);
  const [left, setLeft] = useState(0);
  const [failed, setFailed] = useState(false);
  const [round, setRound] = useState(0);
  useEffect(() => {
    let live = true;
    void customerCall<DynamicCodeReply>("POST", `/api/mall/onecard/cards/${card.id}/dynamicCode`).then((r) => {
      if (!live) return;
      if (!r.ok) {
        setFailed(true);
        return;
      }
      // Counted on this device's clock from the reply, so a skewed phone clock still shows 60 s.
      setCode({ reply: r.data, until: Date.now() + r.data.ttlSeconds * 1000 });
      setLeft(r.data.ttlSeconds);
    });
    return () => {
      live = false;
    };
  }, [card.id, round]);
  useEffect(() => {
    if (!code) return;
    const timer = window.setInterval(() => {
      const s = Math.max(0, Math.ceil((code.until - Date.now()) / 1000));
      setLeft(s);
      if (s === 0) {
        window.clearInterval(timer);
        setRound((n) => n + 1);
      }
    }, 1000);
    return () => window.clearInterval(timer);
  }, [code]);
  if (failed) return null;
  if (!code) return <QRCode value="-" status="loading" size={180} />;
  return (
    <Space orientation="vertical" align="center" style={{ width: "100%" }} data-testid="dynamic-code-box">
      <QRCode value={code.reply.code} size={180} bordered={false} />
      <div
        data-testid="dynamic-code"
        style={{ fontFamily: "monospace", fontSize: 20, letterSpacing: 1, fontWeight: 600 }}
      >
        {code.reply.code.replace(/(\d{6})(?=\d)/g, "$1 ")}
      </div>
      <Progress
        percent={(left / code.reply.ttlSeconds) * 100}
        showInfo={false}
        size="small"
        style={{ width: 200, margin: 0 }}
      />
      <Flex gap={8} align="center">
        <Typography.Text type="secondary" data-testid="dynamic-countdown">
          {t("writeoff.dynamicRenews", { seconds: left })}
        </Typography.Text>
        <Button size="small" type="link" onClick={() => setRound((n) => n + 1)}>
          {t("writeoff.dynamicRefresh")}
        </Button>
      </Flex>
    </Space>
  );
}
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
  // The bag is empty only without cards, gifts and mall codes (it said "no cards yet" above the mall codes).
  const mallCodes = useMallBagCodes();
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
                <Typography.Text strong>
                  {t("onecard.giftFrom", { name: g.fromName, count: g.cardCount })}
                </Typography.Text>
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
        {data && data.cards.length === 0 && data.gifts.length === 0 && mallCodes.data?.length === 0 && (
          <Empty description={t("onecard.bagEmpty")} />
        )}
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
        <MallBagCodes />
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
      {/* Above the customer Shell's own layer (z-index 1001), which antd's default 1000 sits under. */}
      <Modal
        open={shown !== null}
        onCancel={() => setShown(null)}
        footer={null}
        title={shown?.productName}
        width={360}
        zIndex={1100}
      >
        {shown && (
          <Space direction="vertical" align="center" style={{ width: "100%" }}>
            <Typography.Text type="secondary">{t("onecard.showAtTill")}</Typography.Text>
            {shown.state === "activated" && <DynamicCode card={shown} />}
            <div
              data-testid="card-code"
              style={{
                fontFamily: "monospace",
                fontSize: shown.state === "activated" ? 16 : 22,
                letterSpacing: 2,
                padding: "12px 8px",
                border: "2px solid #000",
                borderRadius: 8,
              }}
            >
              {shown.code.replace(/(\d{4})(?=\d)/g, "$1 ")}
            </div>
            <Typography.Text>
              {t("onecard.balance")}: {fmt(shown.balance)}
            </Typography.Text>
            <Typography.Text type="secondary">
              {t("onecard.faceValue")}: {fmt(shown.faceValue)}
            </Typography.Text>
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
