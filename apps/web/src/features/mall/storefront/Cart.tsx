import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { CardsElsewhere, MallOrder } from "@tessera/contracts";
import { topUpAccountProblem } from "@tessera/contracts/light";
import { formatMoney } from "../../../ui/money";
import { Icon } from "./icons";
import { Quantity } from "./Item";
import { Empty, mallBase, type PageProps } from "./MallApp";
import { cart, customerSession, loginPathOf, mallCall, newRequestKey, type CartLine } from "./mallApi";
import { navigate } from "./router";
import { useLoad } from "./useLoad";

/**
 * `/mall/:appId/cart`: the cart and checkout: pay by one of the customer's cards of this brand, or by
 * the wallet (the local payment adapter); top-up goods ask for the account to top up.
 */
export default function MallCart({ appId }: PageProps) {
  const { t } = useTranslation();
  const [lines, setLines] = useState<CartLine[]>(() => cart.read(appId));
  const [pay, setPay] = useState<"wallet" | "card">("wallet");
  const [cardId, setCardId] = useState<string>();
  const [account, setAccount] = useState("");
  const [busy, setBusy] = useState(false);
  // One key per cart content: a second tap on pay is the same checkout, a changed cart a new one.
  const [requestKey, setRequestKey] = useState(() => newRequestKey("mall"));
  const loggedIn = Boolean(customerSession.token());
  const cards = useLoad(
    `cards:${appId}`,
    async () => {
      const r = await mallCall<{ id: string; cardNo: string; balance: { amount: number; currency: "CNY" } }[]>(
        appId,
        "GET",
        "/cards",
      );
      return r.ok ? r.data : [];
    },
    { enabled: loggedIn },
  );
  // When none of the customer's cards pays here, which cards they hold and where those pay (issue 40, item 7).
  const elsewhere = useLoad(
    `cards-elsewhere:${appId}`,
    async () => {
      const r = await mallCall<CardsElsewhere[]>(appId, "GET", "/cards/elsewhere");
      return r.ok ? r.data : [];
    },
    { enabled: loggedIn && cards.data !== undefined && cards.data.length === 0 },
  );
  const noCardReason = !loggedIn
    ? t("cardNeedsLogin")
    : cards.data?.length === 0
      ? [
          t("cardOnlyHere"),
          ...(elsewhere.data ?? []).map((b) =>
            t("cardElsewhere", { brand: b.brandName, n: b.cards, balance: formatMoney(b.balance) }),
          ),
        ].join(" ")
      : null;
  const update = (next: CartLine[]) => {
    cart.write(appId, next);
    setLines(cart.read(appId));
    setRequestKey(newRequestKey("mall"));
  };
  const total = lines.reduce((a, l) => a + l.unit * l.quantity, 0);
  const currency = lines[0]?.currency ?? "CNY";
  const needsAccount = lines.some((l) => l.delivery !== "code");
  // The account as every top-up's goods requires it (the checkout's own rule), shown once the customer typed one.
  const accountProblem = needsAccount
    ? (lines
        .filter((l) => l.delivery !== "code")
        .map((l) => topUpAccountProblem(l.topUpAccountType ?? "none", account))
        .find((p) => p !== null) ?? null)
    : null;
  const [accountError, setAccountError] = useState<string>();
  // Paying is never one tap: the pay sheet shows the amount, the method and the account before the money moves.
  const [confirming, setConfirming] = useState(false);
  const askToPay = () => {
    if (needsAccount && !account.trim()) {
      setAccountError(t("msg.topUpAccountEmpty"));
      return;
    }
    if (accountProblem) {
      setAccountError(t(`msg.${accountProblem}`));
      return;
    }
    if (!loggedIn) {
      navigate(`${loginPathOf(appId)}?back=${encodeURIComponent(`${mallBase(appId)}/cart`)}`);
      return;
    }
    setConfirming(true);
  };
  const chosenCard = cards.data?.find((c) => c.id === cardId);
  const checkout = async () => {
    setConfirming(false);
    setBusy(true);
    const r = await mallCall<MallOrder>(appId, "POST", "/checkout", {
      body: {
        lines: lines.map((l) => ({ kind: l.kind, id: l.id, quantity: l.quantity })),
        payMethod: pay,
        ...(pay === "card" && cardId ? { cardId } : {}),
        ...(needsAccount ? { topUpAccount: account.trim() } : {}),
        requestKey,
      },
    });
    setBusy(false);
    if (!r.ok) return;
    cart.write(appId, []);
    navigate(`${mallBase(appId)}/orders/${r.data.id}`);
  };
  if (lines.length === 0) return <Empty text={t("cartEmpty")} />;
  return (
    <div className="m-stack">
      {lines.map((l) => (
        <section key={`${l.kind}-${l.id}`} className="m-card m-between" data-testid="cart-line">
          <div className="m-grow">
            <strong>{l.name}</strong>
            <div className="m-price">{formatMoney({ amount: l.unit, currency: l.currency })}</div>
          </div>
          <Quantity
            value={l.quantity}
            label={t("quantity")}
            onChange={(n) => update(lines.map((x) => (x === l ? { ...x, quantity: n } : x)))}
          />
          <button
            type="button"
            className="m-icon-btn m-muted"
            aria-label={t("remove")}
            onClick={() => update(lines.filter((x) => x !== l))}
          >
            <Icon name="remove" size={18} />
          </button>
        </section>
      ))}
      <section className="m-card">
        {needsAccount && (
          <label className="m-field">
            <span className="m-label m-required">{t("topUpAccount")}</span>
            <input
              className="m-input"
              value={account}
              onChange={(e) => {
                setAccount(e.target.value);
                setAccountError(undefined);
              }}
              maxLength={64}
              placeholder={t("topUpAccountHint")}
              aria-invalid={accountError ? true : undefined}
              data-testid="cart-account"
            />
            {accountError && <div className="m-error">{accountError}</div>}
          </label>
        )}
        <fieldset className="m-field">
          <legend className="m-label">{t("payWith")}</legend>
          <label className="m-radio">
            <input type="radio" name="pay" checked={pay === "wallet"} onChange={() => setPay("wallet")} />
            {t("wallet")}
          </label>
          <label className="m-radio" aria-disabled={!cards.data?.length || undefined}>
            <input
              type="radio"
              name="pay"
              checked={pay === "card"}
              disabled={!cards.data?.length}
              onChange={() => setPay("card")}
              aria-describedby={noCardReason ? "card-reason" : undefined}
            />
            {t("card")}
          </label>
          {noCardReason && (
            <div id="card-reason" className="m-muted m-small" data-testid="card-reason">
              {noCardReason}
            </div>
          )}
        </fieldset>
        {pay === "card" && (
          <fieldset className="m-field m-col">
            {cards.data?.map((c) => (
              <label key={c.id} className="m-radio">
                <input type="radio" name="card" checked={cardId === c.id} onChange={() => setCardId(c.id)} />
                {c.cardNo} · {formatMoney(c.balance)}
              </label>
            ))}
          </fieldset>
        )}
        {!loggedIn && <div className="m-alert">{t("loginFirst")}</div>}
        <div className="m-between">
          <strong className="m-price m-price-big" data-testid="cart-total">
            {formatMoney({ amount: total, currency })}
          </strong>
          <button
            type="button"
            className="m-btn m-btn-primary m-btn-large"
            disabled={busy}
            aria-busy={busy}
            onClick={askToPay}
          >
            {t("pay")}
          </button>
        </div>
      </section>
      {confirming && (
        <div className="m-mask" onClick={() => setConfirming(false)}>
          <div
            className="m-sheet"
            role="dialog"
            aria-modal="true"
            aria-label={t("paySheet.title")}
            onClick={(e) => e.stopPropagation()}
            data-testid="pay-sheet"
          >
            <h2>{t("paySheet.title")}</h2>
            <div className="m-price m-price-big m-center" data-testid="pay-sheet-amount">
              {formatMoney({ amount: total, currency })}
            </div>
            <dl className="m-pairs">
              <dt>{t("payWith")}</dt>
              <dd>{pay === "card" ? `${t("card")} ${chosenCard?.cardNo ?? ""}` : t("wallet")}</dd>
              {needsAccount && (
                <>
                  <dt>{t("topUpAccount")}</dt>
                  <dd>{account.trim()}</dd>
                </>
              )}
            </dl>
            <button type="button" className="m-btn m-btn-primary m-btn-large m-block" onClick={() => void checkout()}>
              {t("paySheet.confirm", { amount: formatMoney({ amount: total, currency }) })}
            </button>
            <button type="button" className="m-btn m-block" onClick={() => setConfirming(false)}>
              {t("paySheet.cancel")}
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
