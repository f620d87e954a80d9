import { useEffect, useRef, useState } from "react";
import type { Version } from "@tessera/contracts";
import { LANGS, type Lang } from "@tessera/contracts/light";
import { LANG_STORAGE_KEY, LANG_TAGS, LANGUAGE_NAMES } from "../i18n/languages";
import { LogoMark } from "../ui/LogoMark";
import { requestDialog } from "./handoff";
import { FEATURES, STEPS, TILES } from "./keys";
import { loadLangTexts, type LightTexts } from "./texts";
import "./light.css";

/** Theme 1's primary colour (app/theme.ts): the light screen does not read the colour-theme cookie. */
const PRIMARY = "#1668dc";

function GlobeIcon() {
  return (
    <svg
      viewBox="0 0 24 24"
      width="15"
      height="15"
      aria-hidden="true"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
    >
      <circle cx="12" cy="12" r="9" />
      <path d="M3 12h18M12 3c2.5 2.6 3.8 5.6 3.8 9s-1.3 6.4-3.8 9c-2.5-2.6-3.8-5.6-3.8-9S9.5 5.6 12 3z" />
    </svg>
  );
}

/** The language menu: same test id and roles as the app's (ui/LanguageSwitch.tsx). */
function LightLanguageSwitch({ texts, onChoose }: { texts: LightTexts; onChoose: (lang: Lang) => void }) {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const close = (e: MouseEvent) => {
      if (!ref.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener("mousedown", close);
    return () => document.removeEventListener("mousedown", close);
  }, [open]);
  return (
    <div className="lt-menu-anchor" ref={ref}>
      <button
        type="button"
        className="lt-btn lt-btn-text"
        aria-label={texts.t("header.language")}
        aria-haspopup="menu"
        aria-expanded={open}
        data-testid="lang-switch"
        onClick={() => setOpen((o) => !o)}
      >
        <GlobeIcon />
        <span>{LANGUAGE_NAMES[texts.lang]}</span>
      </button>
      {open && (
        <ul className="lt-menu" role="menu">
          {LANGS.map((lang) => (
            <li
              key={lang}
              role="menuitem"
              tabIndex={0}
              aria-checked={lang === texts.lang}
              className={lang === texts.lang ? "lt-menu-item lt-selected" : "lt-menu-item"}
              onClick={() => {
                setOpen(false);
                onChoose(lang);
              }}
              onKeyDown={(e) => {
                if (e.key === "Enter" || e.key === " ") {
                  setOpen(false);
                  onChoose(lang);
                }
              }}
            >
              {LANGUAGE_NAMES[lang]}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * The login landing's first paint, without antd: the header and the landing of
 * features/accounts/Landing.tsx in plain elements, shown while the whole app downloads. The app then
 * renders the real landing over it and opens the login dialog (or the one asked for here).
 */
export interface LightLandingProps {
  version: Version;
  initialTexts: LightTexts;
  /** The whole app could not be loaded (spec 01 §8): say so and offer a reload. */
  failed?: boolean;
}

export function LightLanding({ version, initialTexts, failed = false }: LightLandingProps) {
  const [texts, setTexts] = useState(initialTexts);
  const [waiting, setWaiting] = useState(false);
  const { t } = texts;
  const international = version === "international";

  useEffect(() => {
    document.documentElement.lang = LANG_TAGS[texts.lang];
  }, [texts.lang]);

  const choose = (lang: Lang) => {
    // Remembered as the app remembers it (i18n chooseLang), so the app arrives in the same language.
    window.localStorage.setItem(LANG_STORAGE_KEY, lang);
    void loadLangTexts(lang).then(setTexts);
  };
  const ask = (kind: "login" | "register") => {
    requestDialog(kind);
    setWaiting(true);
  };

  return (
    <div className="lt-page" aria-busy={waiting && !failed}>
      <header className="lt-header">
        <a className="lt-logo" href={window.location.pathname} aria-label={t("app.name")}>
          <LogoMark color={PRIMARY} />
          <span className="lt-logo-text">
            <strong>{t("app.name")}</strong>
            <small>{t(international ? "app.intlTagline" : "app.shortTagline")}</small>
          </span>
        </a>
        <span className="lt-grow" />
        <a className="lt-btn lt-btn-text" href="/Developer" data-testid="header-developer">
          {t("header.developer")}
        </a>
        <LightLanguageSwitch texts={texts} onChoose={choose} />
        <span className="lt-divider" />
        <button type="button" className="lt-btn" onClick={() => ask("login")}>
          {t("auth.login")}
        </button>
        <button type="button" className="lt-btn lt-btn-primary" onClick={() => ask("register")}>
          {t("auth.register")}
        </button>
      </header>
      <main>
        {failed && (
          <div className="lt-failure" role="alert">
            <div>
              <strong>{t("error.chunkTitle")}</strong>
              <p>{t("error.chunkBody")}</p>
            </div>
            <button type="button" className="lt-btn lt-btn-primary" onClick={() => window.location.reload()}>
              {t("error.reload")}
            </button>
          </div>
        )}
        <section className="lt-hero">
          <div className="lt-hero-row">
            <div className="lt-hero-text">
              <span className="lt-tag lt-tag-primary">{t(international ? "landing.intlBadge" : "landing.badge")}</span>
              <h1>{t(international ? "landing.intlTitle" : "landing.title")}</h1>
              <p className="lt-subtitle">{t(international ? "landing.intlSubtitle" : "landing.subtitle")}</p>
              {international && (
                <div className="lt-tags">
                  <span className="lt-tag">{t("landing.intlRegions")}</span>
                  <span className="lt-tag">{t("landing.intlCurrencies")}</span>
                </div>
              )}
              <div className="lt-actions">
                <button type="button" className="lt-btn lt-btn-primary lt-btn-large" onClick={() => ask("login")}>
                  {t("auth.login")}
                </button>
                <button type="button" className="lt-btn lt-btn-large" onClick={() => ask("register")}>
                  {t("landing.registerFree")}
                </button>
              </div>
            </div>
            <div className="lt-tiles">
              {TILES.map(([title, text]) => (
                <div className="lt-card" key={title}>
                  <strong>{t(title)}</strong>
                  <p>{t(text)}</p>
                </div>
              ))}
            </div>
          </div>
        </section>
        <section className="lt-section">
          <h2>{t("landing.featuresTitle")}</h2>
          <div className="lt-features">
            {FEATURES.map(([title, text]) => (
              <div className="lt-card" key={title}>
                <strong>{t(title)}</strong>
                <p>{t(text)}</p>
              </div>
            ))}
          </div>
          <div className="lt-card lt-steps-card">
            <h3>{t("landing.stepsTitle")}</h3>
            <ol className="lt-steps">
              {STEPS.map(([title, text]) => (
                <li key={title}>
                  <strong>{t(title)}</strong>
                  <span>{t(text)}</span>
                </li>
              ))}
            </ol>
          </div>
        </section>
      </main>
    </div>
  );
}
