import { useEffect, useState, type CSSProperties, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { Storefront } from "@tessera/contracts";
import { isLang, LANGS, MALL_THEME_COLOURS } from "@tessera/contracts/light";

import { chooseLang, LANGUAGE_NAMES } from "./i18n";
import { Icon, type IconName } from "./icons";
import { customerSession, loginPathOf, mallCall, mallStore, useCartCount } from "./mallApi";
import { Link, navigate, useMallLocation, type MallRoute } from "./router";
import { mallTabs } from "./tabs";

/** A theme number outside 1-4 (none chosen yet) shows the default blue. */
const DEFAULT_COLOURS = { primary: "#1677ff", tint: "#e6f4ff" };
import { Toasts } from "../../../ui/lightToast";
import { useLoad } from "./useLoad";
import MallCart from "./Cart";
import MallHome from "./Home";
import MallItem from "./Item";
import MallLogin from "./Login";
import MallOrderPage from "./Order";
import MallOrders from "./Orders";

export interface PageProps {
  appId: string;
  sf: Storefront;
  colours: { primary: string; tint: string };
}

export function themeOf(sf: Storefront | undefined) {
  return (sf && MALL_THEME_COLOURS[sf.theme]) ?? DEFAULT_COLOURS;
}

export const mallBase = (appId: string) => `/mall/${encodeURIComponent(appId)}`;

export function Spinner() {
  const { t } = useTranslation();
  return <div className="m-spin" role="progressbar" aria-label={t("loading")} />;
}

export function Empty({ text }: { text: string }) {
  return <div className="m-empty">{text}</div>;
}

const TAB_ICONS: Record<string, IconName> = {
  home: "home",
  cart: "cart",
  orders: "orders",
  goods: "goods",
  link: "link",
};
const NEEDS_LOGIN = new Set<MallRoute["page"]>(["orders", "order"]);

/**
 * The storefront at phone width (max 480 px): the mall's name and colour theme (CSS variables --p and --t
 * from the storefront call's theme), its bottom menu, the customer-service entry, the language choice, the
 * private-code gate of a private mall. Orders need a customer token: without one, this mall's login and back.
 */
export function MallApp() {
  const { t, i18n } = useTranslation();
  const { appId, route, pathname, search } = useMallLocation();
  // The beta QR opens `/mall/:appId?v=beta`: the experience version, for this visit.
  if (search.get("v") === "beta") mallStore.setBeta(appId);
  const [codeTry, setCodeTry] = useState(0);
  const sf = useLoad(`sf:${appId}:${codeTry}:${customerSession.token() ?? ""}`, async () => {
    const r = await mallCall<Storefront>(appId, "GET", "/storefront");
    if (!r.ok) throw new Error(r.msg);
    mallStore.setSeller(appId, r.data.sellerId);
    return r.data;
  });
  const [code, setCode] = useState("");
  const mustLogin = NEEDS_LOGIN.has(route.page) && !customerSession.token();
  useEffect(() => {
    if (mustLogin) {
      navigate(`${loginPathOf(appId)}?back=${encodeURIComponent(pathname + window.location.search)}`, {
        replace: true,
      });
    }
  }, [mustLogin, appId, pathname]);
  const data = sf.data;
  const colours = themeOf(data);
  const base = mallBase(appId);
  const titles: Partial<Record<MallRoute["page"], string>> = {
    login: t("page.Login"),
    cart: t("tab.cart"),
    orders: t("tab.orders"),
    order: t("orderTitle"),
  };
  const title = titles[route.page] ?? data?.name ?? "";
  useEffect(() => {
    document.title = title || t("page.Home");
  }, [title, t]);
  const tabs = mallTabs(base, data?.bottomMenus ?? [], {
    home: t("tab.home"),
    cart: t("tab.cart"),
    orders: t("tab.orders"),
  });
  const props = data ? { appId, sf: data, colours } : null;
  // A configured bottom menu may leave the cart out: the header then carries it, with its count.
  const cartInHeader = !tabs.some((tab) => tab.icon === "cart") && route.page !== "cart";
  const cartCount = useCartCount(appId);
  let page: ReactNode = null;
  if (props && !mustLogin) {
    if (route.page === "home") page = <MallHome {...props} kind={search.get("kind")} />;
    else if (route.page === "login") page = <MallLogin {...props} back={search.get("back")} />;
    else if (route.page === "item") page = <MallItem {...props} kind={route.kind} id={route.id} />;
    else if (route.page === "cart") page = <MallCart {...props} />;
    else if (route.page === "orders") page = <MallOrders {...props} />;
    else if (route.page === "order") page = <MallOrderPage {...props} id={route.id} />;
    else page = <Empty text={t("notFound")} />;
  }
  const service = data?.customerService;
  const lang = isLang(i18n.language) ? i18n.language : "cn";
  const style = { "--p": colours.primary, "--t": colours.tint } as CSSProperties;
  return (
    <div className="m-app" style={style} data-theme={data?.theme} data-template={data?.template}>
      <header className="m-head">
        <h1 data-testid="mall-title">{title}</h1>
        <div className="m-head-tools">
          {cartInHeader && (
            <Link
              to={`${base}/cart`}
              className="m-icon-btn m-cart-btn"
              data-testid="mall-cart-button"
              aria-label={cartCount > 0 ? t("cartWithCount", { n: cartCount }) : t("tab.cart")}
            >
              <Icon name="cart" />
              {cartCount > 0 && <span className="m-badge">{cartCount > 99 ? "99+" : cartCount}</span>}
            </Link>
          )}
          {service && (
            <a
              href={/^[\d+\- ]+$/.test(service) ? `tel:${service.replace(/[^\d+]/g, "")}` : service}
              aria-label={t("service")}
              className="m-icon-btn"
            >
              <Icon name="service" />
            </a>
          )}
          <label className="m-lang">
            <Icon name="globe" size={16} />
            <select
              value={lang}
              aria-label={t("language")}
              data-testid="lang-switch"
              onChange={(e) => isLang(e.target.value) && void chooseLang(e.target.value)}
            >
              {LANGS.map((l) => (
                <option key={l} value={l}>
                  {LANGUAGE_NAMES[l]}
                </option>
              ))}
            </select>
          </label>
        </div>
      </header>
      <main className="m-main">
        {sf.loading && <Spinner />}
        {sf.error !== undefined && (
          <div className="m-result">
            <div className="m-result-code">404</div>
            <div>{t("msg.unknown")}</div>
          </div>
        )}
        {data?.testersOnly && route.page !== "login" ? (
          <section className="m-card" data-testid="mall-testers-only">
            <h2>{t("testersTitle")}</h2>
            <p>{customerSession.token() ? t("testersNotMember") : t("testersHint")}</p>
            {!customerSession.token() && (
              <Link
                to={`${loginPathOf(appId)}?back=${encodeURIComponent(pathname + window.location.search)}`}
                className="m-btn m-btn-primary m-btn-large m-btn-block m-anchor-btn"
              >
                {t("testersLogin")}
              </Link>
            )}
          </section>
        ) : data?.locked ? (
          <section className="m-card">
            <h2>{t("privateTitle")}</h2>
            <p>{t("privateHint")}</p>
            <form
              className="m-row"
              onSubmit={(e) => {
                e.preventDefault();
                mallStore.setCode(appId, code.trim());
                setCodeTry((n) => n + 1);
              }}
            >
              <input
                className="m-input"
                value={code}
                onChange={(e) => setCode(e.target.value)}
                maxLength={16}
                aria-label={t("privateCode")}
              />
              <button type="submit" className="m-btn m-btn-primary">
                {t("enter")}
              </button>
            </form>
          </section>
        ) : (
          page
        )}
      </main>
      <nav className="m-tabs">
        {tabs.map((tab) => {
          const active = !tab.external && pathname + (tab.to.includes("?") ? window.location.search : "") === tab.to;
          const body = (
            <>
              <Icon name={TAB_ICONS[tab.icon] ?? "home"} size={22} />
              <span>{tab.title}</span>
            </>
          );
          return tab.external ? (
            <a key={tab.key} href={tab.to} target="_blank" rel="noreferrer" className="m-tab" data-testid="mall-tab">
              {body}
            </a>
          ) : (
            <Link
              key={tab.key}
              to={tab.to}
              className={active ? "m-tab m-tab-on" : "m-tab"}
              data-testid="mall-tab"
              aria-current={active ? "page" : undefined}
            >
              {body}
            </Link>
          );
        })}
      </nav>
      <Toasts prefix="m-" />
    </div>
  );
}
