import { CODE } from "@tessera/contracts";

/**
 * The reply policy of spec 01 §8 as a pure function: given the HTTP status and the parsed body of a
 * back-office call, decide what the caller gets and what the HTTP layer must do (toast, log out).
 * No DOM, no timers: the HTTP client wires the decision to the browser.
 */

/** `data` of an error envelope: the server may name the offending input field. */
export interface ErrorData {
  field?: string;
}

export interface ApiOk<T> {
  ok: true;
  code: 1;
  data: T;
  msg: string;
  status: number;
}

export interface ApiFail {
  ok: false;
  code: number;
  data: ErrorData | null;
  msg: string;
  /** HTTP status; 0 when the request never got a reply (network error, timeout). */
  status: number;
}

export type ApiResult<T> = ApiOk<T> | ApiFail;

export type Outcome<T> =
  /** code 1: hand the data to the caller. */
  | { kind: "ok"; result: ApiOk<T> }
  /** code -10000: no toast and no return value. */
  | { kind: "silent" }
  /** HTTP 401: the session is over; clear tokens, go to the login page, toast 'login state expired'. */
  | { kind: "unauthorized"; result: ApiFail }
  /** Any other failure: toast `result.msg` (unless the caller opted out) and resolve to it. */
  | { kind: "fail"; result: ApiFail };

interface RawEnvelope {
  code: number;
  data: unknown;
  msg: string;
}

export function isEnvelope(body: unknown): body is RawEnvelope {
  if (typeof body !== "object" || body === null) return false;
  const b = body as Record<string, unknown>;
  return typeof b.code === "number" && typeof b.msg === "string" && "data" in b;
}

function errorData(data: unknown): ErrorData | null {
  if (typeof data !== "object" || data === null) return null;
  const field = (data as Record<string, unknown>).field;
  return typeof field === "string" ? { field } : {};
}

/** The reply used for every failure that has no envelope: code 500, 'interface exception'. */
export function interfaceError(interfaceMsg: string, status: number): ApiFail {
  return { ok: false, code: CODE.INTERNAL, data: null, msg: interfaceMsg, status };
}

export function isOkStatus(status: number): boolean {
  return status >= 200 && status < 300;
}

/**
 * Decides the outcome of one reply.
 * @param interfaceMsg the translated 'interface exception' text, used when there is no envelope.
 */
export function interpret<T>(status: number, body: unknown, interfaceMsg: string): Outcome<T> {
  const env = isEnvelope(body) ? body : null;
  if (status === 401) {
    const result: ApiFail = env
      ? { ok: false, code: env.code, data: errorData(env.data), msg: env.msg, status }
      : { ok: false, code: CODE.UNAUTHORIZED, data: null, msg: interfaceMsg, status };
    return { kind: "unauthorized", result };
  }
  if (!env) return { kind: "fail", result: interfaceError(interfaceMsg, status) };
  if (env.code === CODE.SILENT) return { kind: "silent" };
  if (env.code === CODE.OK && isOkStatus(status)) {
    return { kind: "ok", result: { ok: true, code: CODE.OK, data: env.data as T, msg: env.msg, status } };
  }
  // An envelope that claims success on an error status is still an error.
  const code = env.code === CODE.OK ? CODE.INTERNAL : env.code;
  return { kind: "fail", result: { ok: false, code, data: errorData(env.data), msg: env.msg || interfaceMsg, status } };
}
