import { versionOfPath, loginPathOf } from "./area";
import { brandTokenFor, endBrandGrant } from "./brandTokens";
import { createHttpClient, type HttpClient } from "./client";
import { createLoadingTracker } from "./loading";
import { createThrottle, LOGIN_EXPIRED_TOAST_WINDOW_MS } from "./throttle";
import { createTokenStore } from "./tokens";
import { currentLang, i18n } from "../i18n";
import { rememberReturnTo } from "./returnTo";
import { customerSession } from "./customerCall";
import { createLegacySession } from "./legacyToken";

/**
 * The browser's HTTP layer: one token store, one loading overlay, one client. The app plugs in its
 * toast, navigation and cache reset with `configureHttp` once the router and antd exist.
 */
export const tokens = createTokenStore(window.localStorage);
window.addEventListener("storage", () => tokens.notify());

export const loading = createLoadingTracker();

interface HttpEffects {
  toastError: (msg: string) => void;
  navigate: (path: string) => void;
  /** Runs after a 401 cleared the stored session (drop cached user data). */
  afterUnauthorized: () => void;
}

const effects: HttpEffects = {
  toastError: (msg) => console.error(msg),
  navigate: (path) => window.location.assign(path),
  afterUnauthorized: () => undefined,
};

export function configureHttp(next: Partial<HttpEffects>): void {
  Object.assign(effects, next);
}

/** The session of the page the user is on (international pages use their own token). */
export function currentVersion() {
  return versionOfPath(window.location.pathname);
}

const mayToastLoginExpired = createThrottle(LOGIN_EXPIRED_TOAST_WINDOW_MS);

export const http: HttpClient = createHttpClient({
  fetch: (input, init) => window.fetch(input, init),
  getLang: currentLang,
  getToken: () => tokens.getToken(currentVersion()),
  text: (key) => i18n.t(key, { ns: "msg" }),
  toastError: (msg) => effects.toastError(msg),
  onUnauthorized() {
    const version = currentVersion();
    tokens.clear(version);
    // Spec 01 §8: a 401 also clears the shop (customer) token kept in the same browser.
    customerSession.clear();
    effects.afterUnauthorized();
    const target = loginPathOf(version);
    rememberReturnTo(window.location.pathname + window.location.search);
    if (window.location.pathname !== target) effects.navigate(target);
  },
  mayToastLoginExpired,
  loading,
  legacy: createLegacySession({
    fetch: (input, init) => window.fetch(input, init),
    session: () => tokens.getToken(currentVersion()),
    cookies: () => document.cookie,
    storage: window.localStorage,
  }),
  // A provider's brand token, on a brand's page only (spec 01 §6); see brandTokens.ts.
  scopedToken(path) {
    const brand = brandTokenFor(window.location, path);
    return brand ? { token: brand.token, onUnauthorized: () => endBrandGrant(brand.branderId) } : null;
  },
});

/** Hands a downloaded file to the browser as a download. */
export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
