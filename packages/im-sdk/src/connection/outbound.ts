import type { ChatSdkError } from "../errors.js";
import { err, invalid, sendError } from "../errors.js";
import { uniqueId } from "../ids.js";
import { logger } from "../logger.js";
import { bodyOf, contentOf, messageFromBody, type ChatMessage, type ChatType } from "../message.js";
import {
  BODY_TYPE,
  COMMAND,
  CommSyncUL,
  decode,
  encode,
  encodeExt,
  MessageBody,
  MUCBody,
  NS,
  asText,
  type Decoded,
} from "../proto.js";
import type { Reporter } from "../reporter.js";
import { statusCode as C } from "../status.js";

import { type Pending, USER_DOMAIN, MUC_DOMAIN, REPORT_OPS, utf8, STATUS } from "./base.js";
import { ConnectionSync } from "./sync.js";

/**
 * Sending: messages, recalls, edits and room operations, with their pending acknowledgements and
 * timeouts (what was not acknowledged goes out again after a reconnect).
 */
export abstract class ConnectionOutbound extends ConnectionSync {
  protected rejectAll(e: ChatSdkError): void {
    for (const p of this.queue.splice(0)) {
      if (p.message) p.message.status = "FAIL";
      p.reject(e);
    }
    for (const p of this.inFlight.values()) {
      clearTimeout(p.timer);
      if (p.message) p.message.status = "FAIL";
      p.reject(e);
    }
    this.inFlight.clear();
  }
  // ---------------------------------------------------------------- sending

  protected handleAck(metaId: string, dl: Decoded): void {
    const p = this.inFlight.get(metaId);
    if (!p) return;
    this.inFlight.delete(metaId);
    clearTimeout(p.timer);
    const status = (dl.status as Decoded | undefined) ?? {};
    const code = Number(status.errorCode ?? 0);
    const serverId = asText(dl.serverId, "0");
    if (code !== 0) {
      if (p.message) p.message.status = "FAIL";
      p.reject(sendError(code, asText(status.reason), p.kind === "room" ? "" : { id: p.id, mid: serverId }));
      return;
    }
    const time = Number(dl.timestamp ?? 0);
    const metas = (dl.metas as Decoded[]) ?? [];
    switch (p.kind) {
      case "room": {
        if (!p.join) {
          p.resolve({ type: 0, data: { result: true } });
          return;
        }
        let info: Record<
          string,
          {
            is_all_mute?: boolean;
            create_timestamp?: number;
            is_in_white_list?: boolean;
            member_count?: number;
            mute_duration?: number;
          }
        > = {};
        try {
          const body = decode(MUCBody, metas[0]?.payload instanceof Uint8Array ? metas[0].payload : new Uint8Array());
          info = JSON.parse(asText((body.status as Decoded | undefined)?.chatroomInfo, "{}")) as typeof info;
        } catch {
          // No room info in the ack.
        }
        const mine = info[this.user] ?? Object.values(info)[0] ?? {};
        p.resolve({
          type: 0,
          data: {
            action: "apply",
            id: p.roomId,
            result: true,
            user: this.user,
            info: {
              isAllMembersMuted: Boolean(mine.is_all_mute),
              createTimestamp: Number(mine.create_timestamp ?? 0),
              isInAllowlist: Boolean(mine.is_in_white_list),
              memberCount: Number(mine.member_count ?? 0),
              muteExpireTimestamp: mine.mute_duration ?? -1,
            },
          },
        });
        return;
      }
      case "recall":
        p.resolve({ localMsgId: p.id, serverMsgId: serverId });
        return;
      case "edit": {
        const body = decode(MessageBody, p.meta.payload as Uint8Array);
        const message = messageFromBody(body, asText(body.editMessageId), 0, this.apiUrl);
        const notify = metas.find((m) => Number(m.ns) === NS.NOTIFY);
        if (notify?.payload instanceof Uint8Array) {
          try {
            const e = (
              JSON.parse(utf8.decode(notify.payload)) as {
                edit_msg?: {
                  count?: number;
                  operator?: string;
                  edit_time?: number;
                  sender?: string;
                  send_time?: number;
                  chat_type?: string;
                };
              }
            ).edit_msg;
            if (e) {
              message.modifiedInfo = {
                operationCount: Number(e.count ?? 0),
                operatorId: asText(e.operator),
                operationTime: Number(e.edit_time ?? 0),
              };
              message.from = e.sender ?? "";
              message.time = Number(e.send_time ?? 0);
              const ct = e.chat_type ?? "";
              message.chatType = ct.endsWith("group") ? "groupChat" : ct.endsWith("room") ? "chatRoom" : "singleChat";
            }
          } catch {
            // Resolve with what we have.
          }
        }
        this.cache?.update(message);
        p.resolve({ localMsgId: p.id, serverMsgId: serverId, message, modifiedInfo: message.modifiedInfo });
        return;
      }
      case "message": {
        const m = p.message!;
        m.status = "SUCCESS";
        m.mid = serverId;
        m.time = time || m.time;
        this.seen(serverId);
        const delivered: ChatMessage = { ...m, id: serverId, from: this.user };
        if (["read", "delivery", "channel"].includes(m.type)) {
          if (m.type === "channel") this.cache?.clearUnread(m.to, m.chatType, time || Date.now());
          p.resolve({ localMsgId: p.id, serverMsgId: serverId });
        } else {
          this.cache?.put(delivered);
          p.resolve({ localMsgId: p.id, serverMsgId: serverId, message: delivered });
        }
        this.events.dispatch("onReceivedMessage", { id: p.id, mid: serverId, to: m.to });
        return;
      }
    }
  }

  /** Puts a request on the socket, or in the queue while disconnected (reconnecting if it may). */
  protected dispatchPending(p: Pending): void {
    if (this.reporter) this.timeForReport(this.reporter, p);
    if (this.status === STATUS.OPENED && this.sock && this.transmit(p)) return;
    this.queue.push(p);
    if (
      !this.sock &&
      !this.reconnectTimer &&
      !this.logOut &&
      this.reconnectAttempts < this.options.autoReconnectNumMax
    ) {
      this.scheduleReconnect();
    }
  }

  /** Times a request from dispatch to its acknowledgement (or failure) for the data report. */
  protected timeForReport(reporter: Reporter, p: Pending): void {
    const [name, type] = REPORT_OPS[p.kind];
    reporter.begin(p.id, p.kind === "room" ? (p.join ? "CHATROOM_JOIN_ROOM" : "CHATROOM_LEAVE_ROOM") : name, type);
    const { resolve, reject } = p;
    p.resolve = (v) => {
      reporter.end(p.id, { ok: true, code: 0 });
      resolve(v);
    };
    p.reject = (e) => {
      reporter.end(p.id, { ok: false, code: e.type, codeDesc: e.message });
      reject(e);
    };
  }

  protected transmit(p: Pending): boolean {
    this.inFlight.set(p.id, p);
    if (!this.write({ command: COMMAND.SYNC, payload: encode(CommSyncUL, { meta: p.meta }) })) {
      this.inFlight.delete(p.id);
      return false;
    }
    clearTimeout(p.timer);
    p.timer = setTimeout(() => {
      if (this.inFlight.get(p.id) !== p) return;
      this.inFlight.delete(p.id);
      if (p.message) p.message.status = "FAIL";
      p.reject(
        p.kind === "room"
          ? err(C.REQUEST_TIMEOUT, "request timeout")
          : err(C.MESSAGE_SEND_TIMEOUT, "send message timeout", { id: p.id }),
      );
      // No ack in time: the socket is presumed dead.
      this.sock?.close();
    }, this.options.ackTimeoutMs);
    return true;
  }

  protected flushQueue(): void {
    const waiting = this.queue.splice(0);
    for (const p of waiting) if (!this.transmit(p)) this.queue.push(p);
  }

  protected target(to: string, chatType: ChatType): Decoded {
    const [name, resource] = to.split("/");
    return {
      appKey: this.appKey,
      name,
      domain: chatType === "singleChat" ? USER_DOMAIN : MUC_DOMAIN,
      ...(resource && chatType === "singleChat" && { clientResource: resource }),
    };
  }

  /** Uploads the file of a file message first (images over 200 KB with a thumbnail). */
  protected uploadMessageFile?(m: ChatMessage): Promise<void>;
  /** Uploads the combined-message file of a combine message first. */
  protected uploadCombineFile?(m: ChatMessage): Promise<void>;

  /**
   * Sends a message made by `message.create`: resolves with the local and server ids and the message
   * once the server acknowledged it. Status CREATE → INPROGRESS → SUCCESS | FAIL.
   */
  async send(message: ChatMessage): Promise<{ localMsgId: string; serverMsgId: string; message?: ChatMessage }> {
    if (!message || typeof message.id !== "string" || message.id === "") throw invalid('Invalid parameter: "id"');
    if (typeof message.to !== "string" || message.to === "") throw invalid('Invalid parameter: "to"');
    if (this.logOut || !this.user) {
      message.status = "FAIL";
      throw err(C.WEBIM_CONNECTION_CLOSED, "not login");
    }
    message.status = "INPROGRESS";
    try {
      if (message.type === "combine") await this.uploadCombineFile?.(message);
      else if (message.file && ["img", "audio", "video", "file"].includes(message.type) && !message.url) {
        await this.uploadMessageFile?.(message);
      }
    } catch (e) {
      message.status = "FAIL";
      throw e;
    }
    const chatType = message.chatType ?? "singleChat";
    message.from = this.user;
    const extra: Decoded = {};
    const languages = message.msgConfig?.languages;
    if (message.type === "txt" && Array.isArray(languages) && languages.length > 0) {
      // Translated before sending: the translations travel in the body's meta JSON.
      message.translations = await this.translateBeforeSend(message.msg ?? "", languages);
      extra.meta = JSON.stringify({ translations: message.translations, ...(message.isChatThread && { thread: {} }) });
    }
    const meta: Decoded = {
      id: message.id,
      to: this.target(message.to, chatType),
      ns: NS.CHAT,
      payload: bodyOf(message, this.user, extra),
    };
    if (chatType !== "singleChat" && message.receiverList?.length) {
      meta.routetype = 2;
      meta.directedUsers = message.receiverList;
    } else if (message.deliverOnlineOnly) meta.routetype = 1;
    if (chatType === "chatRoom") {
      meta.ext = [
        { key: "chatroom_msg_tag", type: 2, varintValue: { high: 0, normal: 1, low: 2 }[message.priority ?? "normal"] },
      ];
    }
    return new Promise((resolve, reject) => {
      this.dispatchPending({
        id: message.id,
        meta,
        kind: "message",
        message,
        resolve: resolve as (v: unknown) => void,
        reject,
      });
    });
  }

  protected async translateBeforeSend(text: string, languages: string[]): Promise<{ code: string; text: string }[]> {
    const translate = (
      this as unknown as {
        translateMessage?: (o: { text: string; languages: string[] }) => Promise<{ data?: unknown }>;
      }
    ).translateMessage;
    if (!translate) throw err(C.SERVICE_NOT_ENABLED, "there is no method to translate message");
    const reply = await translate.call(this, { text, languages });
    const list =
      (reply.data as { translations?: { to: string; text: string }[] }[] | undefined)?.[0]?.translations ?? [];
    return list.map((t) => ({ code: t.to, text: t.text }));
  }

  /** Recalls a sent message (the server enforces the recall window). */
  async recallMessage(opts: {
    mid: string;
    to: string;
    chatType?: ChatType;
    ext?: string;
    isChatThread?: boolean;
  }): Promise<{ localMsgId: string; serverMsgId: string }> {
    if (!opts || typeof opts.mid !== "string" || opts.mid === "") throw invalid('Invalid parameter: "mid"');
    if (typeof opts.to !== "string" || opts.to === "") throw invalid('Invalid parameter: "to"');
    if (this.logOut) throw err(C.WEBIM_CONNECTION_CLOSED, "not login");
    const chatType = opts.chatType ?? "singleChat";
    const id = uniqueId();
    const payload = encode(MessageBody, {
      type: BODY_TYPE.RECALL,
      from: { name: this.user },
      to: { name: opts.to },
      contents: [{}],
      ackMessageId: opts.mid,
      ...(opts.isChatThread && { meta: JSON.stringify({ thread: {} }) }),
    });
    const meta: Decoded = {
      id,
      to: this.target(opts.to, chatType),
      ns: NS.CHAT,
      payload,
      ...(opts.ext !== undefined && { ext: [{ key: "recallMessageExtensionInfo", type: 7, stringValue: opts.ext }] }),
    };
    const result = await new Promise<{ localMsgId: string; serverMsgId: string }>((resolve, reject) =>
      this.dispatchPending({ id, meta, kind: "recall", resolve: resolve as (v: unknown) => void, reject }),
    );
    // The recall succeeded for the caller even if the local cache cannot follow.
    try {
      this.cache?.recall(opts.mid);
    } catch (e) {
      logger.warn("local cache recall failed", e);
    }
    return result;
  }

  /** Edits a sent text message (or its ext): resolves with the edited message and its edit info. */
  async modifyMessage(opts: { messageId: string; modifiedMessage: ChatMessage }): Promise<{
    localMsgId: string;
    serverMsgId: string;
    message: ChatMessage;
    modifiedInfo?: ChatMessage["modifiedInfo"];
  }> {
    if (!opts || typeof opts.messageId !== "string" || opts.messageId === "") {
      throw invalid("Invalid parameter messageId");
    }
    const m = opts.modifiedMessage;
    if (!m || m.type !== "txt") throw invalid('Invalid parameter: "modifiedMessage" type must be txt');
    if (this.logOut) throw err(C.WEBIM_CONNECTION_CLOSED, "not login");
    const chatType = m.chatType ?? "singleChat";
    const id = uniqueId();
    const hasExt = m.ext !== undefined && Object.keys(m.ext).length > 0;
    const payload = encode(MessageBody, {
      type: BODY_TYPE.EDIT,
      from: { name: this.user },
      to: { name: m.to },
      contents: [contentOf(m)],
      ext: encodeExt(m.ext),
      editMessageId: opts.messageId,
      editScope: hasExt ? 2 : 1,
    });
    const meta: Decoded = { id, to: this.target(m.to, chatType), ns: NS.CHAT, payload };
    return new Promise((resolve, reject) =>
      this.dispatchPending({ id, meta, kind: "edit", resolve: resolve as (v: unknown) => void, reject }),
    );
  }

  protected roomOp(roomId: unknown, join: boolean, extra: Decoded): Promise<unknown> {
    if (typeof roomId !== "string" || roomId === "") throw invalid("Invalid parameter roomId");
    if (this.logOut || this.status !== STATUS.OPENED) throw err(C.WEBIM_CONNECTION_CLOSED, "not login");
    const id = uniqueId();
    const payload = encode(MUCBody, {
      mucId: { appKey: this.appKey, name: roomId, domain: MUC_DOMAIN },
      operation: join ? 2 : 3,
      from: { name: this.user },
      isChatroom: true,
      ...extra,
    });
    const meta: Decoded = {
      id,
      from: { appKey: this.appKey, name: this.user, domain: USER_DOMAIN },
      to: { domain: USER_DOMAIN },
      ns: NS.MUC,
      payload,
    };
    return new Promise((resolve, reject) =>
      this.dispatchPending({ id, meta, kind: "room", roomId, join, resolve, reject }),
    );
  }

  /** Joins a chat room over the socket; resolves with the room's info once the server acknowledged. */
  async joinChatRoom(opts: {
    roomId: string;
    message?: string;
    ext?: string;
    leaveOtherRooms?: boolean;
  }): Promise<unknown> {
    if (opts?.leaveOtherRooms !== undefined && typeof opts.leaveOtherRooms !== "boolean") {
      throw invalid("Invalid parameter leaveOtherRooms");
    }
    if (opts?.ext !== undefined && typeof opts.ext !== "string") throw invalid("Invalid parameter ext");
    return this.roomOp(opts?.roomId, true, { ext: opts.ext ?? "", leaveOtherRooms: opts.leaveOtherRooms ?? false });
  }
}
