import { ChatSdkError, clientErrors, downloadError, restError, type RestErrorBody } from "./errors.js";

/** Progress of an upload or download: bytes so far and in total (total 0 when unknown). */
export interface Progress {
  loaded: number;
  total: number;
}

export interface HttpRequest {
  method: "GET" | "POST" | "PUT" | "DELETE";
  url: string;
  /** Query parameters; undefined values are left out. */
  query?: Record<string, string | number | boolean | undefined | null>;
  /** A JSON body (serialised), form fields (url-encoded) or multipart data. */
  body?: unknown;
  form?: Record<string, string>;
  multipart?: FormData;
  token?: string;
  headers?: Record<string, string>;
  timeoutMs?: number;
  signal?: AbortSignal;
  onUploadProgress?: (p: Progress) => void;
}

/** Normal requests time out after 15 s, uploads after 300 s. */
export const REQUEST_TIMEOUT_MS = 15_000;
export const UPLOAD_TIMEOUT_MS = 300_000;

export function withQuery(url: string, query: HttpRequest["query"]): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v === undefined || v === null || v === "") continue;
    parts.push(`${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`);
  }
  if (parts.length === 0) return url;
  return `${url}${url.includes("?") ? "&" : "?"}${parts.join("&")}`;
}

function headersOf(req: HttpRequest): Record<string, string> {
  const h: Record<string, string> = { ...req.headers };
  if (req.token) h.Authorization = `Bearer ${req.token}`;
  if (req.form) h["Content-Type"] = "application/x-www-form-urlencoded";
  else if (!req.multipart) h["Content-Type"] ??= "application/json";
  return h;
}

function bodyOf(req: HttpRequest): string | FormData | undefined {
  if (req.multipart) return req.multipart;
  if (req.form) return new URLSearchParams(req.form).toString();
  if (req.body === undefined) return undefined;
  return typeof req.body === "string" ? req.body : JSON.stringify(req.body);
}

function parseJson(text: string): unknown {
  if (text === "") return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A GET with data gets it as a query plus a cache-busting `_v` timestamp (spec 03 §5); without data, nothing. */
function finalUrl(req: HttpRequest): string {
  const hasData = Object.values(req.query ?? {}).some((v) => v !== undefined && v !== null && v !== "");
  const query = req.method === "GET" && hasData ? { ...req.query, _v: Date.now() } : req.query;
  return withQuery(req.url, query);
}

/** Runs `fetch` with a timeout and the caller's abort signal; maps client failures to SDK errors. */
async function fetchWithTimeout(
  url: string,
  init: RequestInit,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<Response> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const onAbort = (): void => controller.abort();
  signal?.addEventListener("abort", onAbort);
  try {
    if (signal?.aborted) throw clientErrors.abort();
    return await fetch(url, { ...init, signal: controller.signal });
  } catch (e) {
    if (e instanceof ChatSdkError) throw e;
    if (timedOut) throw clientErrors.timeout();
    if (signal?.aborted) throw clientErrors.abort();
    throw clientErrors.network();
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
  }
}

/**
 * One REST call: JSON in, JSON out. Success is HTTP 200 with a JSON body, returned as-is; an array reply
 * is wrapped as `{data}`. Anything else is mapped by `restError` (spec 03 §8). Uploads with a progress
 * callback go through XMLHttpRequest where it exists (browsers), since fetch reports no upload progress.
 */
export async function request<T = Record<string, unknown>>(req: HttpRequest): Promise<T> {
  const url = finalUrl(req);
  const timeoutMs = req.timeoutMs ?? (req.multipart ? UPLOAD_TIMEOUT_MS : REQUEST_TIMEOUT_MS);
  let status: number;
  let text: string;
  const XHR = (globalThis as { XMLHttpRequest?: XhrClass }).XMLHttpRequest;
  if (req.onUploadProgress && XHR) {
    ({ status, text } = await xhrUpload(XHR, url, req, timeoutMs));
  } else {
    const body = bodyOf(req);
    const res = await fetchWithTimeout(
      url,
      { method: req.method, headers: headersOf(req), ...(body !== undefined && { body }) },
      timeoutMs,
      req.signal,
    );
    status = res.status;
    text = await res.text();
    if (req.onUploadProgress) {
      const size = req.multipart ? multipartSize(req.multipart) : 0;
      req.onUploadProgress({ loaded: size, total: size });
    }
  }
  const json = parseJson(text);
  if (status === 200) {
    if (json === undefined) throw clientErrors.dataType();
    return (Array.isArray(json) ? { data: json } : json) as T;
  }
  throw restError(status, json ?? {}, req.url, text);
}

function multipartSize(form: FormData): number {
  let n = 0;
  form.forEach((v) => {
    n += typeof v === "string" ? v.length : v.size;
  });
  return n;
}

/** The parts of XMLHttpRequest an upload with progress uses (no DOM typings needed). */
interface Xhr {
  open(method: string, url: string): void;
  setRequestHeader(name: string, value: string): void;
  send(body: string | FormData | null): void;
  abort(): void;
  timeout: number;
  readonly status: number;
  readonly responseText: string;
  upload: { onprogress: ((e: { loaded: number; total: number; lengthComputable: boolean }) => void) | null };
  onload: (() => void) | null;
  onerror: (() => void) | null;
  ontimeout: (() => void) | null;
  onabort: (() => void) | null;
}
type XhrClass = new () => Xhr;

function xhrUpload(
  XHR: XhrClass,
  url: string,
  req: HttpRequest,
  timeoutMs: number,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const xhr = new XHR();
    xhr.open(req.method, url);
    xhr.timeout = timeoutMs;
    for (const [k, v] of Object.entries(headersOf(req))) xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (e) =>
      req.onUploadProgress?.({ loaded: e.loaded, total: e.lengthComputable ? e.total : 0 });
    xhr.onload = () => resolve({ status: xhr.status, text: xhr.responseText });
    xhr.onerror = () => reject(clientErrors.network());
    xhr.ontimeout = () => reject(clientErrors.timeout());
    xhr.onabort = () => reject(clientErrors.abort());
    req.signal?.addEventListener("abort", () => xhr.abort());
    xhr.send(bodyOf(req) ?? null);
  });
}

/**
 * A download as a Blob, with progress as the body streams in. Headers as spec 03 §7: X-Requested-With,
 * Accept octet-stream, share-secret and the bearer token. Failures map through `downloadError`.
 */
export async function download(opts: {
  url: string;
  token?: string;
  secret?: string;
  method?: string;
  signal?: AbortSignal;
  onProgress?: (p: Progress) => void;
  timeoutMs?: number;
}): Promise<Blob> {
  const headers: Record<string, string> = { "X-Requested-With": "XMLHttpRequest", Accept: "application/octet-stream" };
  if (opts.secret) headers["share-secret"] = opts.secret;
  if (opts.token) headers.Authorization = `Bearer ${opts.token}`;
  const res = await fetchWithTimeout(
    opts.url,
    { method: opts.method ?? "GET", headers },
    opts.timeoutMs ?? UPLOAD_TIMEOUT_MS,
    opts.signal,
  );
  if (res.status !== 200) {
    const body = (parseJson(await res.text()) ?? {}) as RestErrorBody;
    throw downloadError(res.status, body);
  }
  const total = Number(res.headers.get("content-length") ?? 0);
  const type = res.headers.get("content-type") ?? "";
  if (!res.body) {
    const blob = await res.blob();
    opts.onProgress?.({ loaded: blob.size, total: blob.size });
    return blob;
  }
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let loaded = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    loaded += value.length;
    opts.onProgress?.({ loaded, total });
  }
  return new Blob(chunks as unknown as ConstructorParameters<typeof Blob>[0], { type });
}
