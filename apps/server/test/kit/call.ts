import type { FastifyInstance } from "fastify";

/**
 * One way to call the server for every test tier: `call(method, url, { body, token, headers })` answers
 * the status, the reply envelope (`{ code, data, msg }`, or the raw text when the reply is not JSON) and
 * the headers. Three transports: app.inject (server tests, `TestApp.call`), Playwright's request context
 * (journeys) and `fetch` against a base URL (benches' in-process servers). This file imports nothing of
 * the server, so journeys and benches can use it.
 */
export type Method = "GET" | "POST" | "PUT" | "DELETE";

export interface CallOptions {
  body?: unknown;
  token?: string;
  lang?: "cn" | "tw" | "en";
  headers?: Record<string, string>;
}

export interface Envelope<T> {
  code: number;
  data: T;
  msg: string;
}

export interface CallResult<T> {
  status: number;
  body: Envelope<T>;
  headers: Record<string, unknown>;
}

export type Transport = <T = unknown>(method: Method, url: string, options?: CallOptions) => Promise<CallResult<T>>;

/** The request headers of a call: its own, the session token and the language. */
function headersOf(options: CallOptions): Record<string, string> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers["x-auth-token"] = options.token;
  if (options.lang) headers.lang = options.lang;
  return headers;
}

const isJson = (contentType: unknown) => typeof contentType === "string" && contentType.includes("json");

/** Through app.inject: the body parsed when JSON. */
export function injectTransport(app: FastifyInstance): Transport {
  return async <T>(method: Method, url: string, options: CallOptions = {}): Promise<CallResult<T>> => {
    const res = await app.inject({
      method,
      url,
      headers: headersOf(options),
      ...(options.body !== undefined && { payload: options.body as Record<string, unknown> }),
    });
    return {
      status: res.statusCode,
      body: isJson(res.headers["content-type"]) ? res.json<Envelope<T>>() : (res.body as never),
      headers: res.headers,
    };
  };
}

/** What the Playwright transport needs of an `APIRequestContext` (so this file does not import Playwright). */
export interface RequestContextLike {
  fetch(
    url: string,
    options: { method: string; headers: Record<string, string>; data?: unknown },
  ): Promise<{ status(): number; headers(): Record<string, string>; text(): Promise<string> }>;
}

/** Through Playwright's request context (a journey's `request`, on the journey's server). */
export function playwrightTransport(request: RequestContextLike): Transport {
  return async <T>(method: Method, url: string, options: CallOptions = {}): Promise<CallResult<T>> => {
    const res = await request.fetch(url, {
      method,
      headers: headersOf(options),
      ...(options.body !== undefined && { data: options.body }),
    });
    const headers = res.headers();
    const text = await res.text();
    return {
      status: res.status(),
      body: isJson(headers["content-type"]) ? (JSON.parse(text) as Envelope<T>) : (text as never),
      headers,
    };
  };
}

/** Through `fetch` against `baseUrl` (a server listening in the same process, or another one). */
export function fetchTransport(baseUrl: string): Transport {
  return async <T>(method: Method, url: string, options: CallOptions = {}): Promise<CallResult<T>> => {
    const headers = headersOf(options);
    let body: string | ArrayBuffer | undefined;
    if (Buffer.isBuffer(options.body)) body = new Uint8Array(options.body).buffer;
    else if (typeof options.body === "string") body = options.body;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers["content-type"] ??= "application/json";
    }
    const res = await fetch(new URL(url, baseUrl), { method, headers, body });
    const text = await res.text();
    return {
      status: res.status,
      body: isJson(res.headers.get("content-type")) ? (JSON.parse(text) as Envelope<T>) : (text as never),
      headers: Object.fromEntries(res.headers),
    };
  };
}

/** The data of a call that must succeed (code 1); anything else throws with the server's message. */
export async function dataOf<T>(reply: Promise<CallResult<T>>, what = "call"): Promise<T> {
  const res = await reply;
  if (res.body?.code !== 1) throw new Error(`${what}: ${res.body?.msg ?? `HTTP ${res.status}`}`);
  return res.body.data;
}

/** Anything with a `call`: a TestApp, a World, or `{ call: playwrightTransport(request) }`. */
export interface Caller {
  call: Transport;
}
