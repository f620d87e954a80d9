import { ChatSdkError, CONVENTIONAL_STATUSES, err } from "./errors.js";
import { request, type HttpRequest, type Progress } from "./http.js";
import { messageFromJson, type ChatMessage, type MessageFields } from "./message.js";
import { decodeExt } from "./proto.js";
import { statusCode as C } from "./status.js";

import { STATUS } from "./connection/base.js";
import { ConnectionSession } from "./connection/session.js";
import type { EventHandlers } from "./events.js";

export {
  STATUS,
  NOTICE_TIMER_MS,
  type ConnectionOptions,
  type WebSocketClass,
  type WebSocketLike,
} from "./connection/base.js";

/**
 * One IM connection: socket login, sending and receiving, and (through the API modules mixed into this
 * class) every REST capability of the service. Method and event names follow the published
 * `easemob-websdk` connection.
 */
export class Connection extends ConnectionSession {
  // ---------------------------------------------------------------- events and status

  addEventHandler(id: string, handlers: EventHandlers): void {
    this.events.add(id, handlers);
  }

  removeEventHandler(id: string): void {
    this.events.remove(id);
  }

  isOpened(): boolean {
    return this.status === STATUS.OPENED;
  }

  // ---------------------------------------------------------------- rooms (joinChatRoom: connection/outbound.ts)

  async leaveChatRoom(opts: { roomId: string }): Promise<unknown> {
    return this.roomOp(opts?.roomId, false, {});
  }

  // ---------------------------------------------------------------- REST

  /**
   * The credentials check every REST call makes first (spec 03 §5): missing org/app reports 'appName or
   * orgName is illegal', a missing token 'token not assign error', and the call rejects with 'appkey or
   * token error'.
   */
  protected checkRest(): void {
    let ok = true;
    if (!this.context.appName || !this.context.orgName) {
      this.events.dispatch("onError", err(C.WEBIM_CONNCTION_AUTH_ERROR, "appName or orgName is illegal"));
      ok = false;
    } else if (!this.context.accessToken || !this.token) {
      this.events.dispatch("onError", err(C.WEBIM_CONNCTION_TOKEN_NOT_ASSIGN_ERROR, "token not assign error"));
      ok = false;
    }
    if (!ok) throw err(C.REST_PARAMS_STATUS, "appkey or token error");
  }

  /** A REST call under `{apiUrl}/{org}/{app}/`; `resource` adds `?resource=` (multi-device echo). */
  async rest<T = Record<string, unknown>>(
    method: HttpRequest["method"],
    path: string,
    opts: {
      query?: HttpRequest["query"];
      body?: unknown;
      form?: Record<string, string>;
      multipart?: FormData;
      resource?: boolean;
      onUploadProgress?: (p: Progress) => void;
      headers?: Record<string, string>;
    } = {},
  ): Promise<T & { type: number }> {
    this.checkRest();
    const query = { ...opts.query, ...(opts.resource && { resource: this.clientResource }) };
    const startedAt = Date.now();
    const requested = { requestMethod: method, requestUrl: path };
    try {
      const reply = await request<T>({
        method,
        url: `${this.apiUrl}/${this.orgName}/${this.appName}/${path}`,
        query,
        body: opts.body,
        ...(opts.form && { form: opts.form }),
        ...(opts.multipart && { multipart: opts.multipart }),
        ...(opts.headers && { headers: opts.headers }),
        ...(opts.onUploadProgress && { onUploadProgress: opts.onUploadProgress }),
        token: this.token,
      });
      this.report("REST", "REST", startedAt, undefined, requested);
      return { ...reply, type: 0 };
    } catch (e) {
      this.report("REST", "REST", startedAt, e, {
        ...requested,
        ...(e instanceof ChatSdkError && e.httpStatus !== undefined && { httpStatus: e.httpStatus }),
      });
      // Statuses outside the ordinary REST failures count towards a server discovery refresh.
      if (e instanceof ChatSdkError && e.httpStatus !== undefined && !CONVENTIONAL_STATUSES.includes(e.httpStatus)) {
        this.restFailures += 1;
        if (this.restFailures % 5 === 0 && this.options.isHttpDNS) void this.discover().catch(() => undefined);
      }
      throw e;
    }
  }

  /** The message JSON converter for API modules. */
  jsonMessage(raw: unknown): ChatMessage | Record<string, never> {
    return messageFromJson(raw as Parameters<typeof messageFromJson>[0]);
  }

  /** Decodes KeyValue lists for API modules. */
  static decodeExt = decodeExt;
}

export type { MessageFields };
