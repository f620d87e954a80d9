import { useTranslation } from "react-i18next";
import type { Page, StoreGoods } from "@tessera/contracts";
import { formatMoney } from "../../../ui/money";
import { Empty, mallBase, Spinner, type PageProps } from "./MallApp";
import { mallCall } from "./mallApi";
import { Link, navigate } from "./router";
import { useLoad } from "./useLoad";

type Kind = "all" | "goods" | "bag";

/** `/mall/:appId`: the mall's home: brand show, the configured navigation menu, gift packs and goods. `?kind=goods|bag`: the list a menu entry opens. */
export default function MallHome({ appId, sf, kind: k }: PageProps & { kind: string | null }) {
  const { t } = useTranslation();
  const kind: Kind = k === "goods" || k === "bag" ? k : "all";
  const base = mallBase(appId);
  const goods = useLoad(`goods:${appId}:${kind}`, async () => {
    const r = await mallCall<Page<StoreGoods>>(
      appId,
      "GET",
      `/goods?pageSize=100${kind === "all" ? "" : `&kind=${kind}`}`,
    );
    return r.ok ? r.data.list : [];
  });
  const options: { value: Kind; label: string }[] = [
    { value: "all" as const, label: t("all") },
    ...sf.navMenus
      .filter((m) => /^\/?(bags|goods)$/.test(m.target))
      .map((m) => ({ value: m.target.endsWith("bags") ? ("bag" as const) : ("goods" as const), label: m.title })),
  ].filter((o, i, a) => a.findIndex((x) => x.value === o.value) === i);
  return (
    <div className="m-stack">
      {(sf.brand.title || sf.brand.intro) && (
        <section className="m-card m-brand" data-testid="brand-show">
          {sf.brand.image && <img src={sf.brand.image} alt="" />}
          <strong>{sf.brand.title}</strong>
          <p>{sf.brand.intro}</p>
        </section>
      )}
      {options.length > 1 && (
        <div className="m-seg" role="tablist">
          {options.map((o) => (
            <button
              key={o.value}
              type="button"
              role="tab"
              aria-selected={o.value === kind}
              className={o.value === kind ? "m-seg-on" : ""}
              onClick={() => navigate(o.value === "all" ? base : `${base}?kind=${o.value}`, { replace: true })}
            >
              {o.label}
            </button>
          ))}
        </div>
      )}
      {goods.loading && !goods.data && <Spinner />}
      {goods.data?.length === 0 && <Empty text={t("noGoods")} />}
      <div className="m-grid">
        {goods.data?.map((g) => (
          <Link
            key={`${g.kind}-${g.id}`}
            to={`${base}/item/${g.kind}/${g.id}`}
            className="m-card m-goods"
            data-testid="mall-goods"
          >
            <div className="m-goods-pic">{g.kind === "bag" ? t("pack") : g.brandName || t("equity")}</div>
            <div className="m-goods-name">{g.name}</div>
            <div className="m-between">
              <span className="m-price">{formatMoney(g.price)}</span>
              {!g.available ? (
                <span className="m-tag">{t("soldOut")}</span>
              ) : (
                <span className={`m-tag m-tag-${g.delivery === "topup" ? "blue" : "green"}`}>
                  {t(`delivery.${g.delivery}`)}
                </span>
              )}
            </div>
          </Link>
        ))}
      </div>
    </div>
  );
}
