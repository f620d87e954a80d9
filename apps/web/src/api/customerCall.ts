import { createThrottle, LOGIN_EXPIRED_TOAST_WINDOW_MS } from "./throttle";

/**
 * The end customer's calls (spec 01 §6, §8), shared by the card bag (features/onecard/client, inside the app) and the
 * storefront (features/mall/storefront, its own light entry): so this module imports neither i18n, antd nor the contracts
 * barrel, and each side passes its texts, its toast and code 1007 in. A customer token of its own
 * (`customer-token` in local storage, sent as `x-customer-token`) apart from the merchant session. Code 1007
 * clears the token and goes to the customer login, with 'login state expired' at most once per 5 s. A call
 * resolves to the data or to the refusal after showing the server's message (never throws).
 */
export const CUSTOMER_TOKEN_KEY = "customer-token";
export const CUSTOMER_PHONE_KEY = "customer-phone";

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

export interface CallOptions {
  body?: unknown;
  /** Show the server's message as a toast (default true). */
  toast?: boolean;
  /** Extra headers (the mall's `v`, app id and seller id). */
  headers?: Record<string, string>;
  /** Where code 1007 sends the customer (default: the side's own login, if it has one). */
  loginPath?: string;
}

/** A customer call's answer: its data, or the server's refusal (already shown to the customer). */
export type CallResult<T> = { ok: true; data: T } | { ok: false; code: number; msg: string; field?: string };

export interface CustomerCallSide {
  /** The reader's language, sent as the `lang` header. */
  lang: () => string;
  toast: (msg: string) => void;
  /** 'Interface error' when the answer is not the platform's JSON. */
  interfaceError: () => string;
  /** 'Login state expired' when code 1007 comes without a message. */
  loginExpired: () => string;
  /** Code 1007 (spec 01 §8), passed in so the storefront need not load the contracts. */
  expiredCode: number;
  defaultLoginPath?: string;
}

export function createCustomerCall(side: CustomerCallSide) {
  const mayToastExpired = createThrottle(LOGIN_EXPIRED_TOAST_WINDOW_MS);
  return async function customerCall<T>(
    method: "GET" | "POST" | "PUT",
    path: string,
    options: CallOptions = {},
  ): Promise<CallResult<T>> {
    const headers: Record<string, string> = { lang: side.lang(), accept: "application/json", ...options.headers };
    const token = customerSession.token();
    if (token) headers["x-customer-token"] = token;
    if (options.body !== undefined) headers["content-type"] = "application/json";
    const body = await window
      .fetch(path, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) })
      .then((res) => res.json() as Promise<{ code?: number; data?: unknown; msg?: string } | null>)
      .catch(() => null);
    if (!body || typeof body.code !== "number") {
      const msg = side.interfaceError();
      if (options.toast !== false) side.toast(msg);
      return { ok: false, code: 500, msg };
    }
    if (body.code === 1) return { ok: true, data: body.data as T };
    const msg = body.msg ?? "";
    const loginPath = options.loginPath ?? side.defaultLoginPath;
    if (body.code === side.expiredCode && loginPath) {
      customerSession.clear();
      if (mayToastExpired()) side.toast(msg || side.loginExpired());
      if (window.location.pathname !== loginPath) {
        window.location.assign(
          `${loginPath}?back=${encodeURIComponent(window.location.pathname + window.location.search)}`,
        );
      }
      return { ok: false, code: body.code, msg };
    }
    if (options.toast !== false) side.toast(msg);
    const field = (body.data as { field?: string } | null)?.field;
    return { ok: false, code: body.code, msg, ...(field ? { field } : {}) };
  };
}

/** An idempotency key for one money-moving request (a retry sends the same key). */
export function newRequestKey(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}
