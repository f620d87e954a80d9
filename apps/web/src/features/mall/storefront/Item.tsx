import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { StoreGoods } from "@tessera/contracts";
import { formatMoney } from "../../../ui/money";
import { mallBase, Spinner, type PageProps } from "./MallApp";
import { cart, mallCall } from "./mallApi";
import { navigate } from "./router";
import { toast } from "../../../ui/lightToast";
import { useLoad } from "./useLoad";

/** `/mall/:appId/item/:kind/:id`: a goods or gift pack, into the cart or straight to checkout. */
export default function MallItem({ appId, kind, id }: PageProps & { kind: string; id: string }) {
  const { t } = useTranslation();
  const [qty, setQty] = useState(1);
  const item = useLoad(`item:${appId}:${kind}:${id}`, async () => {
    const r = await mallCall<StoreGoods>(
      appId,
      "GET",
      `/goods/${kind === "bag" ? "bag" : "goods"}/${encodeURIComponent(id)}`,
    );
    return r.ok ? r.data : null;
  });
  const g = item.data;
  if (!g) return item.loading ? <Spinner /> : null;
  const add = () =>
    cart.add(
      appId,
      {
        kind: g.kind,
        id: g.id,
        name: g.name,
        unit: g.price.amount,
        currency: g.price.currency,
        delivery: g.delivery,
        topUpAccountType: g.topUpAccountType,
      },
      qty,
    );
  return (
    <section className="m-card">
      <h2>{g.name}</h2>
      <div className="m-price m-price-big">{formatMoney(g.price)}</div>
      {g.faceValue && g.faceValue.amount > g.price.amount && <del className="m-muted">{formatMoney(g.faceValue)}</del>}
      <dl className="m-desc">
        {g.brandName && (
          <>
            <dt>{t("brand")}</dt>
            <dd>{g.brandName}</dd>
          </>
        )}
        <dt>{t("deliveryLabel")}</dt>
        <dd>{t(`delivery.${g.delivery}`)}</dd>
        {g.validDays !== null && (
          <>
            <dt>{t("validDays")}</dt>
            <dd>{t("days", { n: g.validDays })}</dd>
          </>
        )}
        {g.items.length > 0 && (
          <>
            <dt>{t("contains")}</dt>
            <dd>{g.items.map((i) => `${i.name} ×${i.quantity}`).join("、")}</dd>
          </>
        )}
      </dl>
      {g.description && <p>{g.description}</p>}
      <div className="m-row">
        <Quantity value={qty} onChange={setQty} label={t("quantity")} />
        <button
          type="button"
          className="m-btn"
          disabled={!g.available}
          onClick={() => {
            add();
            toast(t("added"), "success");
          }}
        >
          {t("addToCart")}
        </button>
        <button
          type="button"
          className="m-btn m-btn-primary"
          disabled={!g.available}
          onClick={() => {
            add();
            navigate(`${mallBase(appId)}/cart`);
          }}
        >
          {t("buyNow")}
        </button>
      </div>
    </section>
  );
}

/** A quantity 1-10 (what the checkout accepts), typed or stepped. */
export function Quantity({ value, onChange, label }: { value: number; onChange: (n: number) => void; label: string }) {
  const set = (n: number) => onChange(Math.min(10, Math.max(1, Number.isFinite(n) ? Math.trunc(n) : 1)));
  return (
    <span className="m-qty">
      <button type="button" aria-label="-1" onClick={() => set(value - 1)}>
        −
      </button>
      <input
        type="number"
        inputMode="numeric"
        min={1}
        max={10}
        value={value}
        aria-label={label}
        onChange={(e) => set(Number(e.target.value))}
      />
      <button type="button" aria-label="+1" onClick={() => set(value + 1)}>
        +
      </button>
    </span>
  );
}
