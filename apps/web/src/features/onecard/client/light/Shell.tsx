import { useEffect, type ReactNode } from "react";
import { LANGS, type Lang } from "@tessera/contracts/light";
import { customerSession } from "../../../../api/customerCall";
import { LANGUAGE_NAMES } from "../../../../i18n/languages";
import { Link, navigate, useBagLocation } from "./nav";
import { customerCall, CUSTOMER_LOGIN_PATH, useTexts } from "./texts";

const ICON_PATHS = {
  cardBag: "M3 6h18v12H3zM3 10h18M7 15h4",
  equityChange: "M12 7v5l3 2M4 12a8 8 0 1 0 2.3-5.6M4 4v3h3",
  orderList: "M9 6h11M9 12h11M9 18h11M4 6h.01M4 12h.01M4 18h.01",
  cardQuery: "M11 18a7 7 0 1 1 0-14 7 7 0 0 1 0 14zM20 20l-4-4",
  logout: "M15 4h4v16h-4M10 8l-4 4 4 4M6 12h10",
} as const;

function Icon({ name }: { name: keyof typeof ICON_PATHS }) {
  return (
    <svg
      viewBox="0 0 24 24"
      width="20"
      height="20"
      aria-hidden="true"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d={ICON_PATHS[name]} />
    </svg>
  );
}

const TABS = [
  { path: "cardBag", key: "onecard.tab.cardBag" },
  { path: "equityChange", key: "onecard.tab.changes" },
  { path: "orderList", key: "onecard.tab.orders" },
  { path: "cardQuery", key: "onecard.tab.query" },
] as const;

/**
 * The card bag's phone screen (features/customer/Shell.tsx without antd): a narrow column, a title bar with
 * the language and the logout, and the bottom tabs (card bag, balance changes, orders, card query).
 * `needsLogin` sends a visitor without a customer token to the customer login and back.
 */
export function Shell({
  title,
  children,
  needsLogin = true,
  tabs = true,
  onLang,
}: {
  title: string;
  children: ReactNode;
  needsLogin?: boolean;
  tabs?: boolean;
  onLang: (lang: Lang) => void;
}) {
  const { t, lang } = useTexts();
  const { pathname, search } = useBagLocation();
  const base = pathname.toLowerCase().startsWith("/onecard") ? "/oneCard" : "/client";
  const mustLogin = needsLogin && !customerSession.token();
  useEffect(() => {
    document.title = `${title} - Tessera`;
  }, [title]);
  useEffect(() => {
    if (!mustLogin) return;
    const back = pathname + (search.size ? `?${search.toString()}` : "");
    navigate(`${CUSTOMER_LOGIN_PATH}?back=${encodeURIComponent(back)}`, { replace: true });
  }, [mustLogin, pathname, search]);
  if (mustLogin) return null;
  const phone = customerSession.phone();
  return (
    <div className={tabs ? "cb-screen cb-with-tabs" : "cb-screen"}>
      <header className="cb-bar">
        <h1>{title}</h1>
        <div className="cb-bar-actions">
          <select
            className="cb-lang"
            aria-label={t("header.language")}
            data-testid="lang-switch"
            value={lang}
            onChange={(e) => onLang(e.target.value as Lang)}
          >
            {LANGS.map((l) => (
              <option key={l} value={l}>
                {LANGUAGE_NAMES[l]}
              </option>
            ))}
          </select>
          {phone && (
            <button
              type="button"
              className="cb-icon-btn"
              aria-label={t("onecard.logout")}
              onClick={() => {
                void customerCall("PUT", "/api/mall/customer/logout", { toast: false }).then(() => {
                  customerSession.clear();
                  window.location.assign(CUSTOMER_LOGIN_PATH);
                });
              }}
            >
              <Icon name="logout" />
            </button>
          )}
        </div>
      </header>
      <main className="cb-main">{children}</main>
      {tabs && (
        <nav className="cb-tabs">
          {TABS.map((tab) => {
            const to = tab.path === "cardQuery" && base === "/oneCard" ? "/oneCardQuery" : `${base}/${tab.path}`;
            const active = pathname.toLowerCase() === to.toLowerCase();
            return (
              <Link key={tab.path} to={to} className={active ? "cb-tab cb-tab-active" : "cb-tab"}>
                <Icon name={tab.path} />
                <span>{t(tab.key)}</span>
              </Link>
            );
          })}
        </nav>
      )}
    </div>
  );
}

export function Empty({ text }: { text?: string }) {
  const { t } = useTexts();
  return <div className="cb-empty">{text ?? t("onecard.empty")}</div>;
}
