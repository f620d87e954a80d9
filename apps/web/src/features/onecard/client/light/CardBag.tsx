import { lazy, Suspense, useEffect, useState } from "react";
import type { DynamicCodeReply, MallBagCode, OcBagCard, OcBagReply } from "@tessera/contracts";
import { customerSession } from "../../../../api/customerCall";
import { useLoad } from "../../../mall/storefront/useLoad";
import { day, fmt } from "../format";
import type { BagPageProps } from "./BagApp";
import { Empty, Shell } from "./Shell";
import { customerCall, useTexts } from "./texts";
import { toast } from "../../../../ui/lightToast";

/**
 * The QR renderer antd's QRCode draws with (@rc-component/qrcode, installed with antd), fetched when a card's
 * code is first opened: not part of the card bag's first page. antd's own QRCode would bring antd's vendor
 * chunk, which imports the app's entry chunk.
 */
const QRCodeSVG = lazy(() => import("@rc-component/qrcode").then((m) => ({ default: m.QRCodeSVG })));

function QrBox({ value }: { value: string | null }) {
  const box = <div className="cb-qr" aria-busy="true" />;
  if (!value) return box;
  return (
    <Suspense fallback={box}>
      <QRCodeSVG value={value} size={180} level="M" className="cb-qr-code" />
    </Suspense>
  );
}

/**
 * A card's in-store code: a dynamic code (18 digits and its QR, valid 60 s, redeemable once, renewed when
 * the countdown ends) that the clerk scans or types instead of the card number and password.
 */
function DynamicCode({ card }: { card: OcBagCard }) {
  const { t } = useTexts();
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
  if (!code) return <QrBox value={null} />;
  return (
    <div className="cb-code-box" data-testid="dynamic-code-box">
      <QrBox value={code.reply.code} />
      <div data-testid="dynamic-code" className="cb-dynamic-code">
        {code.reply.code.replace(/(\d{6})(?=\d)/g, "$1 ")}
      </div>
      <div className="cb-progress" aria-hidden="true">
        <div style={{ width: `${(left / code.reply.ttlSeconds) * 100}%` }} />
      </div>
      <div className="cb-row">
        <span className="cb-muted" data-testid="dynamic-countdown">
          {t("writeoff.dynamicRenews", { seconds: left })}
        </span>
        <button type="button" className="cb-link-btn" onClick={() => setRound((n) => n + 1)}>
          {t("writeoff.dynamicRefresh")}
        </button>
      </div>
    </div>
  );
}

/** A card's code for the till, in a dialog over the bag. */
function CardDialog({ card, onClose }: { card: OcBagCard; onClose: () => void }) {
  const { t } = useTexts();
  useEffect(() => {
    const esc = (e: KeyboardEvent) => {
      if (e.key === "Escape") onClose();
    };
    document.addEventListener("keydown", esc);
    return () => document.removeEventListener("keydown", esc);
  }, [onClose]);
  return (
    <div className="cb-mask" onClick={onClose}>
      <div
        className="cb-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="cb-dialog-title"
        onClick={(e) => e.stopPropagation()}
      >
        <div className="cb-dialog-head">
          <h2 id="cb-dialog-title">{card.productName}</h2>
          <button type="button" className="cb-icon-btn" aria-label="Close" onClick={onClose}>
            ×
          </button>
        </div>
        <div className="cb-code-box">
          <span className="cb-muted">{t("onecard.showAtTill")}</span>
          {card.state === "activated" && <DynamicCode card={card} />}
          <div
            data-testid="card-code"
            className={card.state === "activated" ? "cb-card-code" : "cb-card-code cb-card-code-large"}
          >
            {card.code.replace(/(\d{4})(?=\d)/g, "$1 ")}
          </div>
          <span>
            {t("onecard.balance")}: {fmt(card.balance)}
          </span>
          <span className="cb-muted">
            {t("onecard.faceValue")}: {fmt(card.faceValue)}
          </span>
          {card.rechargeAllowed && card.state === "activated" && (
            <a className="cb-btn cb-btn-primary" href={`/client/rechargeEquity?card=${card.id}`}>
              {t("onecard.title.recharge")}
            </a>
          )}
        </div>
      </div>
    </div>
  );
}

/**
 * The codes the customer bought in the mini-program malls (masked; each opens its order's page in its mall,
 * which reveals the code to its buyer).
 */
function MallCodes({ codes }: { codes: MallBagCode[] }) {
  const { t } = useTexts();
  if (!codes.length) return null;
  return (
    <section className="cb-card" data-testid="bag-mall-codes">
      <h2 className="cb-card-title">{t("mall.bagCodes.title")}</h2>
      {codes.map((c) => (
        // The storefront is its own page (mall.html): a page load.
        <a key={c.deliveryId} className="cb-code-row" href={`/mall/${encodeURIComponent(c.appId)}/orders/${c.orderId}`}>
          <div className="cb-ellipsis-box">
            <strong className="cb-ellipsis">{c.name}</strong>
            <span className="cb-muted cb-small">
              {c.mallName} · {c.cardNumber}
            </span>
          </div>
          <span className="cb-muted cb-small cb-nowrap">
            {c.usedAt
              ? t("mall.bagCodes.used", { date: day(c.usedAt) })
              : c.expiresAt
                ? t("mall.bagCodes.until", { date: day(c.expiresAt) })
                : t("mall.bagCodes.open")}
          </span>
        </a>
      ))}
    </section>
  );
}

/**
 * `/client/cardBag` and `/oneCard/cardBag`: the customer's stored-value cards (balance, validity, state), the
 * gift cards sent to their phone, to claim, and the codes bought in the malls. A card opens its in-store code.
 */
export default function CardBag({ onLang }: BagPageProps) {
  const { t } = useTexts();
  // Without a token the Shell sends the visitor to the login: nothing to ask the server.
  const signedIn = { enabled: Boolean(customerSession.token()) };
  const [shown, setShown] = useState<OcBagCard | null>(null);
  const [claimed, setClaimed] = useState<OcBagReply | null>(null);
  const bag = useLoad(
    "bag",
    async () => {
      const r = await customerCall<OcBagReply>("GET", "/api/mall/onecard/bag");
      return r.ok ? r.data : { cards: [], gifts: [] };
    },
    signedIn,
  );
  const mallCodes = useLoad(
    "mall-codes",
    async () => {
      const r = await customerCall<{ list: MallBagCode[] }>("GET", "/api/mall/codes");
      return r.ok ? r.data.list : [];
    },
    signedIn,
  );
  const claim = async (id: string) => {
    const r = await customerCall<OcBagReply>("POST", `/api/mall/onecard/gifts/${id}/claim`);
    if (r.ok) {
      toast(t("onecard.claimed"), "success");
      setClaimed(r.data);
    }
  };
  const data = claimed ?? bag.data;
  return (
    <Shell title={t("onecard.title.cardBag")} onLang={onLang}>
      <div className="cb-stack">
        {data?.gifts.map((g) => (
          <div key={g.id} className="cb-card cb-gift">
            <div>
              <strong>{t("onecard.giftFrom", { name: g.fromName, count: g.cardCount })}</strong>
              <div className="cb-muted">
                {fmt(g.amount)} · {t("onecard.claimBefore", { date: day(g.expiresAt) })}
              </div>
              {g.message && <div>{g.message}</div>}
            </div>
            <button type="button" className="cb-btn cb-btn-primary" onClick={() => void claim(g.id)}>
              {t("onecard.claim")}
            </button>
          </div>
        ))}
        {data && data.cards.length === 0 && data.gifts.length === 0 && mallCodes.data?.length === 0 && (
          <Empty text={t("onecard.bagEmpty")} />
        )}
        {data?.cards.map((c) => (
          <button type="button" key={c.id} className="cb-bag-card" onClick={() => setShown(c)}>
            <span className="cb-row">
              <strong>{c.branderName}</strong>
              <span className={`cb-tag cb-state-${c.state}`}>{t(`onecard.state.${c.state}`)}</span>
            </span>
            <span className="cb-dim">{c.productName}</span>
            <span className="cb-balance">{fmt(c.balance)}</span>
            <span className="cb-row cb-dim cb-small">
              <span>{`**** ${c.cardNo.slice(-4)}`}</span>
              <span>{t("onecard.validUntil", { date: c.expiresAt ? day(c.expiresAt) : t("onecard.noExpiry") })}</span>
            </span>
          </button>
        ))}
        <MallCodes codes={mallCodes.data ?? []} />
        <div className="cb-actions">
          <a className="cb-btn" href="/client/extractCard">
            {t("onecard.addCard")}
          </a>
          <a className="cb-btn" href="/client/rechargeEquity">
            {t("onecard.title.recharge")}
          </a>
          <a className="cb-btn" href="/client/resetCardPwd">
            {t("onecard.title.resetPwd")}
          </a>
        </div>
      </div>
      {shown && <CardDialog card={shown} onClose={() => setShown(null)} />}
    </Shell>
  );
}
