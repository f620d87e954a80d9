import { CODE } from "@tessera/contracts";
import { createThrottle, LOGIN_EXPIRED_TOAST_WINDOW_MS } from "../../api/throttle";
import { currentLang, i18n } from "../../i18n";

/**
 * The end customer's calls (spec 01 §6, §8): a customer token of its own (`customer-token` in local
 * storage, sent as `x-customer-token`), apart from the merchant session. Code 1007 on a customer call
 * clears the customer token and goes to the customer login, with 'login state expired' at most once
 * per 5 s. Resolves to the data, or to null after showing the error (never throws).
 */
export const CUSTOMER_TOKEN_KEY = "customer-token";
export const CUSTOMER_PHONE_KEY = "customer-phone";
export const CUSTOMER_LOGIN_PATH = "/client/login";

export const customerSession = {
  token: () => window.localStorage.getItem(CUSTOMER_TOKEN_KEY),
  phone: () => window.localStorage.getItem(CUSTOMER_PHONE_KEY),
  set(token: string, phone: string) {
    window.localStorage.setItem(CUSTOMER_TOKEN_KEY, token);
    window.localStorage.setItem(CUSTOMER_PHONE_KEY, phone);
  },
  clear() {
    window.localStorage.removeItem(CUSTOMER_TOKEN_KEY);
    window.localStorage.removeItem(CUSTOMER_PHONE_KEY);
  },
};

const mayToastExpired = createThrottle(LOGIN_EXPIRED_TOAST_WINDOW_MS);
let toast: (msg: string) => void = (msg) => console.error(msg);
/** Pages plug in antd's message once they are mounted. */
export function setCustomerToast(fn: (msg: string) => void): void {
  toast = fn;
}

export interface CallOptions {
  body?: unknown;
  /** Show the server's message as a toast (default true). */
  toast?: boolean;
  /** Extra headers (the mall's `v`, app id and seller id). */
  headers?: Record<string, string>;
  /** Where code 1007 sends the customer (default the card bag's login). */
  loginPath?: string;
}

/** A customer call's answer: its data, or the server's refusal (already shown to the customer). */
export type CallResult<T> = { ok: true; data: T } | { ok: false; code: number; msg: string; field?: string };

export async function customerCall<T>(method: "GET" | "POST" | "PUT", path: string, options: CallOptions = {}): Promise<CallResult<T>> {
  const headers: Record<string, string> = { lang: currentLang(), accept: "application/json", ...options.headers };
  const token = customerSession.token();
  if (token) headers["x-customer-token"] = token;
  if (options.body !== undefined) headers["content-type"] = "application/json";
  const body = await window
    .fetch(path, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) })
    .then((res) => res.json() as Promise<{ code?: number; data?: unknown; msg?: string } | null>)
    .catch(() => null);
  if (!body || typeof body.code !== "number") {
    const msg = i18n.t("msg:error.interface");
    if (options.toast !== false) toast(msg);
    return { ok: false, code: 500, msg };
  }
  if (body.code === 1) return { ok: true, data: body.data as T };
  const msg = body.msg ?? "";
  if (body.code === CODE.MALL_LOGIN_EXPIRED) {
    customerSession.clear();
    if (mayToastExpired()) toast(msg || i18n.t("msg:onecard.loginExpired"));
    const loginPath = options.loginPath ?? CUSTOMER_LOGIN_PATH;
    if (window.location.pathname !== loginPath) {
      window.location.assign(`${loginPath}?back=${encodeURIComponent(window.location.pathname + window.location.search)}`);
    }
    return { ok: false, code: body.code, msg };
  }
  if (options.toast !== false) toast(msg);
  const field = (body.data as { field?: string } | null)?.field;
  return { ok: false, code: body.code, msg, ...(field ? { field } : {}) };
}

export function newRequestKey(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}
