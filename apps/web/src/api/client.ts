import type { Lang } from "@tessera/contracts";
import { interfaceError, interpret, isOkStatus, type ApiFail, type ApiResult } from "./envelope";
import type { LegacySession } from "./legacyToken";
import type { LoadingTracker } from "./loading";

/**
 * The back-office HTTP client of spec 01 §7-§9, free of DOM globals so it runs in unit tests: fetch,
 * storage, toasts and navigation come in as dependencies. `http.ts` builds the browser instance.
 *
 * Every call resolves (never throws): to the typed result, or to `undefined` for code -10000.
 */
export const HTTP_TIMEOUT_MS = 120_000;

export type QueryValue = string | number | boolean | null | undefined;
export type Query = Record<string, QueryValue | readonly QueryValue[]>;

export interface RequestOptions {
  query?: Query;
  body?: unknown;
  /** Show the server's message in an error toast (default true). Forms opt out to show it on a field. */
  toast?: boolean;
  /** Count this call for the global loading overlay (default true). */
  overlay?: boolean;
  /** Send the stored token (default true). */
  auth?: boolean;
}

export interface HttpDeps {
  fetch: (input: string, init: RequestInit) => Promise<Response>;
  timeoutMs?: number;
  getLang: () => Lang;
  getToken: () => string | null;
  /** Translations of the client's own texts: 'interface exception' and 'login state expired'. */
  text: (key: "error.interface" | "auth.loginExpired") => string;
  toastError: (msg: string) => void;
  /** Clears the session of the current area and goes to its login page. */
  onUnauthorized: () => void;
  /** True when the 'login state expired' toast may be shown now (once per 5 s). */
  mayToastLoginExpired: () => boolean;
  loading: LoadingTracker;
  /**
   * A token that replaces the session's for some calls (a service provider's brand token on a brand's
   * pages, spec 01 §6). Its 401 ends only that token, never the session.
   */
  scopedToken?: (path: string) => ScopedToken | null;
  /** The legacy e-commerce host's token, sent in its own `token` header on that host's calls (legacyToken.ts). */
  legacy?: LegacySession;
}

export interface ScopedToken {
  token: string | null;
  onUnauthorized: () => void;
}

export interface DownloadedFile {
  blob: Blob;
  fileName: string;
}

export type Method = "GET" | "POST" | "PUT" | "DELETE";

export interface HttpClient {
  request: <T>(method: Method, path: string, options?: RequestOptions) => Promise<ApiResult<T> | undefined>;
  get: <T>(path: string, options?: RequestOptions) => Promise<ApiResult<T> | undefined>;
  post: <T>(path: string, body?: unknown, options?: RequestOptions) => Promise<ApiResult<T> | undefined>;
  put: <T>(path: string, body?: unknown, options?: RequestOptions) => Promise<ApiResult<T> | undefined>;
  del: <T>(path: string, options?: RequestOptions) => Promise<ApiResult<T> | undefined>;
  /** GET a file (an .xlsx export) with the token (POST with a body when `method` says so); errors follow the same policy as any call. */
  download: (
    path: string,
    options?: RequestOptions & { fileName?: string; method?: "GET" | "POST" },
  ) => Promise<ApiResult<DownloadedFile> | undefined>;
}

/** `?a=1&b=x&b=y`, leaving out empty values. */
export function buildUrl(path: string, query?: Query): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    const values = Array.isArray(value) ? (value as readonly QueryValue[]) : [value as QueryValue];
    for (const v of values) {
      if (v === undefined || v === null || v === "") continue;
      params.append(key, String(v));
    }
  }
  const qs = params.toString();
  if (!qs) return path;
  return `${path}${path.includes("?") ? "&" : "?"}${qs}`;
}

/** The file name of a `content-disposition` header (RFC 5987 `filename*` first). */
export function fileNameOf(disposition: string | null, fallback: string): string {
  if (!disposition) return fallback;
  const star = /filename\*\s*=\s*(?:UTF-8'')?([^;]+)/i.exec(disposition);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1].trim().replace(/^"|"$/g, ""));
    } catch {
      /* fall through to the plain form */
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(disposition);
  return plain?.[1]?.trim() || fallback;
}

async function readBody(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export function createHttpClient(deps: HttpDeps): HttpClient {
  const timeoutMs = deps.timeoutMs ?? HTTP_TIMEOUT_MS;

  function fail(result: ApiFail, toast: boolean): ApiFail {
    if (toast) deps.toastError(result.msg);
    return result;
  }

  function unauthorized(result: ApiFail): ApiFail {
    deps.onUnauthorized();
    if (deps.mayToastLoginExpired()) deps.toastError(deps.text("auth.loginExpired"));
    return result;
  }

  async function send(
    method: Method,
    path: string,
    options: RequestOptions,
    scoped: ScopedToken | null,
    renewLegacy = false,
  ): Promise<Response> {
    const headers: Record<string, string> = { lang: deps.getLang(), accept: "application/json" };
    if (options.auth !== false) {
      if (!scoped && deps.legacy?.covers(path)) {
        const token = await deps.legacy.token(renewLegacy);
        if (token) headers.token = token;
      } else {
        const token = scoped ? scoped.token : deps.getToken();
        if (token) headers["x-auth-token"] = token;
      }
    }
    const init: RequestInit = { method, headers };
    if (options.body instanceof FormData) {
      // Uploads: fetch writes the multipart content type with its boundary itself.
      init.body = options.body;
    } else if (options.body !== undefined && method !== "GET") {
      headers["content-type"] = "application/json";
      init.body = JSON.stringify(options.body);
    }
    const controller = new AbortController();
    init.signal = controller.signal;
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      return await deps.fetch(buildUrl(path, options.query), init);
    } finally {
      clearTimeout(timer);
    }
  }

  async function run<T>(
    method: Method,
    path: string,
    options: RequestOptions,
    onOkResponse?: (res: Response) => Promise<ApiResult<T> | null>,
  ): Promise<ApiResult<T> | undefined> {
    const toast = options.toast !== false;
    const overlay = options.overlay !== false;
    const scoped = options.auth === false ? null : (deps.scopedToken?.(path) ?? null);
    if (overlay) deps.loading.begin();
    try {
      let res: Response;
      try {
        res = await send(method, path, options, scoped);
        // A legacy token that expired before its cookie did: exchanged again once, then the call again.
        if (res.status === 401 && !scoped && options.auth !== false && deps.legacy?.covers(path)) {
          res = await send(method, path, options, scoped, true);
        }
      } catch {
        // Network error or timeout: resolve to the error reply, never throw (spec 01 §8).
        return fail(interfaceError(deps.text("error.interface"), 0), toast);
      }
      if (onOkResponse && isOkStatus(res.status)) {
        const direct = await onOkResponse(res);
        if (direct) return direct;
      }
      let body: unknown;
      try {
        body = await readBody(res);
      } catch {
        return fail(interfaceError(deps.text("error.interface"), res.status), toast);
      }
      const outcome = interpret<T>(res.status, body, deps.text("error.interface"));
      switch (outcome.kind) {
        case "ok":
          return outcome.result;
        case "silent":
          return undefined;
        case "unauthorized":
          if (scoped) {
            // The page that uses the scoped token says it ended; the session stays.
            scoped.onUnauthorized();
            return outcome.result;
          }
          return unauthorized(outcome.result);
        case "fail":
          return fail(outcome.result, toast);
      }
    } finally {
      if (overlay) deps.loading.end();
    }
  }

  const client: HttpClient = {
    request: (method, path, options = {}) => run(method, path, options),
    get: (path, options = {}) => run("GET", path, options),
    post: (path, body, options = {}) => run("POST", path, { ...options, body }),
    put: (path, body, options = {}) => run("PUT", path, { ...options, body }),
    del: (path, options = {}) => run("DELETE", path, options),
    download: (path, options = {}) =>
      run<DownloadedFile>(options.method ?? "GET", path, options, async (res) => {
        const type = res.headers.get("content-type") ?? "";
        if (type.includes("application/json")) return null; // an envelope: error policy applies
        const blob = await res.blob();
        const fileName = fileNameOf(res.headers.get("content-disposition"), options.fileName ?? "export.xlsx");
        return { ok: true, code: 1, data: { blob, fileName }, msg: "", status: res.status };
      }),
  };
  return client;
}
