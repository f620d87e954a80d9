import { useTranslation } from "react-i18next";
import type { MallOrder } from "@tessera/contracts";
import { formatMoney } from "../../../ui/money";
import { Icon } from "./icons";
import { Spinner, type PageProps } from "./MallApp";
import { mallCall } from "./mallApi";
import { STATE_TAG } from "./Orders";
import { toast } from "../../../ui/lightToast";
import { useLoad } from "./useLoad";
import { formatDay, formatTime } from "../../../ui/time";

/** A code with a copy button (the clipboard needs a secure context: on plain http the button is left out). */
function Copyable({ text, testId }: { text: string | null; testId: string }) {
  const { t } = useTranslation();
  return (
    <>
      <span className="m-code" data-testid={testId}>
        {text}
      </span>
      {text && typeof navigator.clipboard?.writeText === "function" && (
        <button
          type="button"
          className="m-icon-btn m-copy"
          aria-label={t("copy")}
          onClick={() => void navigator.clipboard.writeText(text).then(() => toast(t("copied"), "success"))}
        >
          <Icon name="copy" size={16} />
        </button>
      )}
    </>
  );
}

/** `/mall/:appId/orders/:id`: one order and its delivery: the codes in full, top-ups and their state. */
export default function MallOrderPage({ appId, id }: PageProps & { id: string }) {
  const { t } = useTranslation();
  const order = useLoad(
    `order:${appId}:${id}`,
    async () => {
      const r = await mallCall<MallOrder>(appId, "GET", `/orders/${encodeURIComponent(id)}`);
      return r.ok ? r.data : null;
    },
    // Deliveries finish after the payment: the page follows them until none is in progress.
    { pollMs: 3000, poll: (o) => o?.state === "delivering" },
  );
  const o = order.data;
  if (!o) return order.loading ? <Spinner /> : null;
  return (
    <div className="m-stack">
      <section className="m-card">
        <dl className="m-desc">
          <dt>{t("orderNo")}</dt>
          <dd>{o.orderNo}</dd>
          <dt>{t("stateLabel")}</dt>
          <dd>
            <span className={`m-tag ${STATE_TAG[o.state]}`} data-testid="order-state">
              {t(`state.${o.state}`)}
            </span>
          </dd>
          <dt>{t("amount")}</dt>
          <dd>{formatMoney(o.amount)}</dd>
          <dt>{t("payWith")}</dt>
          <dd>{t(o.payMethod === "card" ? "card" : "wallet")}</dd>
          {o.failReason && (
            <>
              <dt>{t("failReason")}</dt>
              <dd>{o.failReason}</dd>
            </>
          )}
        </dl>
      </section>
      <section className="m-card">
        <h2>{t("deliveries")}</h2>
        <ul className="m-list">
          {o.deliveries.map((d) => (
            <li key={d.id} data-testid="delivery">
              <div className="m-between">
                <strong>{d.name}</strong>
                {d.usedAt ? (
                  <span className="m-tag" data-testid="delivery-used">
                    {t("used")}
                  </span>
                ) : (
                  <span className="m-tag">{t(`deliveryState.${d.state}`)}</span>
                )}
              </div>
              {d.kind === "code" ? (
                <>
                  <div>
                    {t("cardNumber")}: <Copyable text={d.cardNumber} testId="card-number" />
                  </div>
                  <div>
                    {t("cardSecret")}: <Copyable text={d.cardSecret} testId="card-secret" />
                  </div>
                </>
              ) : (
                <div>
                  {t("topUpAccount")}: {d.account}
                </div>
              )}
              {d.usedAt ? (
                <div className="m-muted m-small">{t("usedAt", { time: formatTime(d.usedAt) })}</div>
              ) : (
                d.expiresAt && (
                  <div className="m-muted m-small" data-testid="delivery-expiry">
                    {t("validUntil", { date: formatDay(d.expiresAt) })}
                  </div>
                )
              )}
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
