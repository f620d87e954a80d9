import { DEFAULT_MAX_CACHE_LENGTH } from "../cache.js";
import { err, FATAL_LOGIN_TYPES, provisionError } from "../errors.js";
import { type AckEvent, type MucEvent } from "../events.js";
import { uniqueId } from "../ids.js";
import { applyRoomExt, messageFromBody, messageFromJson, type ChatMessage, type ChatType } from "../message.js";
import {
  BODY_TYPE,
  COMMAND,
  CommNotice,
  CommSyncDL,
  CommUnreadDL,
  decode,
  MessageBody,
  MSync,
  MUCBody,
  NS,
  Provision,
  RosterBody,
  StatisticsBody,
  asText,
  type Decoded,
} from "../proto.js";

import { type Jid, MUC_OPERATIONS, THREAD_OPERATIONS, ROSTER_EVENTS, KICKS, MESSAGE_EVENTS, utf8 } from "./base.js";
import { ConnectionOutbound } from "./outbound.js";

/** Receiving: decoding the frames and metas the server sends and dispatching them as events. */
export abstract class ConnectionInbound extends ConnectionOutbound {
  // ---------------------------------------------------------------- frames

  protected handleFrame(bytes: Uint8Array): void {
    const frame = decode(MSync, bytes);
    const payload = frame.payload instanceof Uint8Array ? frame.payload : new Uint8Array();
    switch (Number(frame.command ?? 0)) {
      case COMMAND.PROVISION: {
        const reply = decode(Provision, payload);
        const status = (reply.status as Decoded | undefined) ?? {};
        const code = Number(status.errorCode ?? 0);
        if (code === 0) this.loggedIn(reply);
        else {
          const e = provisionError(code, asText(status.reason));
          this.failLogin(e, FATAL_LOGIN_TYPES.includes(e.type));
        }
        return;
      }
      case COMMAND.UNREAD: {
        const unread = decode(CommUnreadDL, payload);
        const queues = (unread.unread as Decoded[]).map((u) => u.queue as Jid).filter(Boolean);
        if (queues.length > 0 && !this.offlineSyncDone) this.events.dispatch("onOfflineMessageSyncStart");
        for (const q of queues) this.enqueuePull(q);
        return;
      }
      case COMMAND.NOTICE: {
        const q = decode(CommNotice, payload).queue as Jid | undefined;
        if (!q) return;
        if (q.name === this.user && q.clientResource === this.clientResource) return;
        this.enqueuePull(q);
        return;
      }
      case COMMAND.SYNC: {
        const dl = decode(CommSyncDL, payload);
        const metaId = asText(dl.metaId, "0");
        if (metaId !== "0") this.handleAck(metaId, dl);
        else this.handlePull(dl);
        return;
      }
      default:
        return;
    }
  }
  protected seen(id: string): boolean {
    if (this.recentIds.includes(id)) return true;
    this.recentIds.push(id);
    const cap = Math.max(this.options.max_cache_length ?? DEFAULT_MAX_CACHE_LENGTH, 100);
    if (this.recentIds.length > cap) this.recentIds.shift();
    return false;
  }

  protected handleMeta(meta: Decoded, received: ChatMessage[]): void {
    const payload = meta.payload instanceof Uint8Array ? meta.payload : new Uint8Array();
    switch (Number(meta.ns ?? 0)) {
      case NS.CHAT:
        this.handleChat(meta, decode(MessageBody, payload), received);
        return;
      case NS.MUC:
        this.handleMuc(decode(MUCBody, payload));
        return;
      case NS.ROSTER: {
        const r = decode(RosterBody, payload);
        const ev = ROSTER_EVENTS[Number(r.operation)];
        if (!ev) return;
        const to = (r.to as Jid[])[0]?.name ?? "";
        this.events.dispatch(ev[0] as "onContactInvited", {
          type: ev[1],
          from: asText((r.from as Jid | undefined)?.name),
          to,
          status: asText(r.reason),
        });
        return;
      }
      case NS.NOTIFY:
        this.handleNotify(utf8.decode(payload));
        return;
      case NS.STATISTIC: {
        const s = decode(StatisticsBody, payload);
        const kick = KICKS[Number(s.operation ?? 0)];
        if (!kick) {
          this.events.dispatch("onStatisticMessage", s);
          return;
        }
        this.logOut = true;
        this.kickError = err(kick[0], kick[1], s.reason ? { loginInfoCustomExt: s.reason } : undefined);
        this.events.dispatch("onError", this.kickError);
        return;
      }
      default:
        return;
    }
  }

  protected handleChat(meta: Decoded, body: Decoded, received: ChatMessage[]): void {
    const id = String(meta.id);
    const time = Number(meta.timestamp ?? 0);
    const from = asText((body.from as Jid | undefined)?.name);
    const to = asText((body.to as Jid | undefined)?.name);
    const type = Number(body.type ?? 0);
    let onlineState = 3;
    if (meta.meta instanceof Uint8Array && meta.meta.length > 0) {
      try {
        const j = JSON.parse(utf8.decode(meta.meta)) as { is_online?: number };
        onlineState = j.is_online === 0 ? 0 : j.is_online === 1 ? 1 : 2;
      } catch {
        // Not JSON: no online state.
      }
    }
    const ack: AckEvent = { id, from, to, onlineState };
    switch (type) {
      case BODY_TYPE.READ_ACK: {
        const ev: AckEvent = { ...ack, type: "read", mid: asText(body.ackMessageId) };
        const first = (body.ext as Decoded[])[0];
        if (first?.stringValue) {
          try {
            ev.groupReadCount = JSON.parse(asText(first.stringValue));
            ev.ackContent = asText(body.ackContent);
          } catch {
            // Not a group read ack.
          }
        }
        this.events.dispatch("onReadMessage", ev);
        return;
      }
      case BODY_TYPE.DELIVER_ACK:
        this.events.dispatch("onDeliveredMessage", { ...ack, type: "delivery", mid: asText(body.ackMessageId) });
        return;
      case BODY_TYPE.RECALL: {
        const mid = asText(body.ackMessageId);
        const ext = (meta.ext as Decoded[]).find((kv) => kv.key === "recallMessageExtensionInfo");
        this.cache?.recall(mid);
        this.events.dispatch("onRecallMessage", {
          ...ack,
          from: from || "admin",
          mid,
          ...(ext && { ext: ext.stringValue }),
        });
        return;
      }
      case BODY_TYPE.CHANNEL_ACK:
        this.events.dispatch("onChannelMessage", { ...ack, type: "channel", chatType: "singleChat", time });
        return;
      case BODY_TYPE.EDIT: {
        const edited = this.editedMessage(body, asText(body.editMessageId));
        this.cache?.update(edited);
        this.events.dispatch("onModifiedMessage", edited);
        return;
      }
      default:
        break;
    }
    if (this.seen(id)) return;
    const msg = messageFromBody(body, id, time, this.apiUrl);
    msg.onlineState = onlineState;
    if (msg.chatType === "chatRoom") {
      const mf = meta.from as Jid | undefined;
      if (mf?.name === this.user && mf.clientResource === this.clientResource) return;
      msg.onlineState = 1;
      applyRoomExt(msg, meta.ext);
      msg.priority ??= "normal";
    }
    const mt = meta.to as Jid | undefined;
    if (mt?.clientResource && msg.chatType === "singleChat") msg.to = `${msg.to}/${mt.clientResource}`;
    if (msg.from === this.user && msg.to === this.user) {
      const mf = meta.from as Jid | undefined;
      if (mf?.clientResource && mf.clientResource !== this.clientResource) {
        msg.from = `${msg.from}/${mf.clientResource}`;
      }
    }
    this.cache?.put(msg);
    const event = MESSAGE_EVENTS[msg.type];
    if (event) this.events.dispatch(event as "onTextMessage", msg);
    received.push(msg);
    if (this.options.delivery && msg.chatType === "singleChat" && msg.from !== this.user) {
      const receipt: ChatMessage = {
        type: "delivery",
        to: msg.from,
        ackId: id,
        chatType: "singleChat",
        id: uniqueId(),
        from: this.user,
        time: Date.now(),
      };
      void this.send(receipt).catch(() => undefined);
    }
  }

  protected editedMessage(body: Decoded, id: string): ChatMessage {
    const m = messageFromBody(body, id, 0, this.apiUrl);
    try {
      const j = JSON.parse(asText(body.meta, "{}")) as {
        edit_msg?: { sender?: string; send_time?: number; chat_type?: string };
      };
      const e = j.edit_msg;
      if (e) {
        m.from = e.sender ?? m.from;
        m.time = Number(e.send_time ?? 0);
        const ct = e.chat_type ?? "";
        m.chatType = ct.endsWith("group") ? "groupChat" : ct.endsWith("room") ? "chatRoom" : "singleChat";
      }
    } catch {
      // Keep what the body says.
    }
    return m;
  }

  protected handleMuc(b: Decoded): void {
    const op = Number(b.operation ?? 0);
    const from = asText((b.from as Jid | undefined)?.name);
    const id = asText((b.mucId as Jid | undefined)?.name);
    const to = ((b.to as Jid[]) ?? []).map((j) => asText(j.name));
    const parentId = asText((b.mucParentId as Jid | undefined)?.name);
    if (b.isThread || THREAD_OPERATIONS[op] || op === 37) {
      if (op === 37) {
        this.events.dispatch("onChatThreadChange", {
          id,
          name: b.mucName,
          operation: "userRemove",
          parentId,
          operator: from,
          userName: to[0] ?? "",
        });
      } else if (THREAD_OPERATIONS[op]) {
        this.events.dispatch("onMultiDeviceEvent", {
          operation: THREAD_OPERATIONS[op],
          chatThreadId: id,
          chatThreadName: b.mucName,
          parentId,
        });
      }
      return;
    }
    const operation = MUC_OPERATIONS[op];
    if (!operation) return;
    const ev: MucEvent = { operation, id, from };
    const ext = asText(b.ext);
    const info = (b.eventInfo as Decoded | undefined)?.ext as string | undefined;
    const parse = (t: string | undefined): Record<string, unknown> => {
      try {
        return t ? (JSON.parse(t) as Record<string, unknown>) : {};
      } catch {
        return {};
      }
    };
    if (b.reason) ev.reason = asText(b.reason);
    if (
      to[0] &&
      [
        "joinPublicGroupDeclined",
        "setAdmin",
        "removeAdmin",
        "muteMember",
        "unmuteMember",
        "addUserToAllowlist",
        "removeAllowlistMember",
      ].includes(operation)
    ) {
      ev.userId = to[0];
    }
    if (operation === "muteMember") ev.muteTimestamp = Number(parse(ext).user_mute_time ?? 0);
    if (operation === "inviteToJoin" || operation === "directJoined") ev.name = asText(b.mucName);
    if (operation === "updateAnnouncement") ev.announcement = asText(b.reason);
    if (operation === "memberPresence" || operation === "memberAbsence") {
      ev.memberCount = Number(b.mucMemberCount ?? 0);
      if (ext) ev.ext = ext;
    }
    if (operation === "updateInfo" && !b.isChatroom) {
      const d = parse(info);
      const bool = (v: unknown): boolean | undefined => (v === undefined ? undefined : v === true || v === "true");
      ev.detail = {
        name: d.name ?? d.title,
        description: d.description,
        public: bool(d.public),
        approval: bool(d.members_only),
        allowInvites: bool(d.allow_user_invites),
        maxUsers: d.max_users === undefined ? undefined : Number(d.max_users),
        inviteNeedConfirm: bool(d.invite_need_confirm),
        ext: d.custom,
        lastModified: d.last_modified === undefined ? undefined : Number(d.last_modified),
      };
    }
    if (operation === "updateChatRoomAttributes" || operation === "removeChatRoomAttributes") {
      const d = parse(info) as { result?: { successKeys?: string[] }; properties?: Record<string, string> };
      const keys = d.result?.successKeys ?? [];
      if (keys.length === 0) return;
      ev.attributes =
        operation === "updateChatRoomAttributes" ? Object.fromEntries(keys.map((k) => [k, d.properties?.[k]])) : keys;
    }
    if (operation === "memberAttributesUpdate") {
      const d = parse(info) as { properties?: unknown; username?: string };
      ev.attributes = d.properties ?? {};
      ev.userId = d.username ?? "";
      // The user's own change made on another device is a multi-device event, as in the published client.
      const fromJid = b.from as Jid | undefined;
      if (from === this.user && fromJid?.clientResource !== this.clientResource) {
        this.events.dispatch("onMultiDeviceEvent", ev);
        return;
      }
    }
    const members = (b.members as string[]) ?? [];
    const event = b.isChatroom ? "onChatroomEvent" : "onGroupEvent";
    if (members.length > 0 && (operation === "memberPresence" || operation === "memberAbsence")) {
      if (b.isChatroom) for (const m of members) this.events.dispatch(event, { ...ev, from: m });
      else {
        this.events.dispatch(event, {
          ...ev,
          operation: operation === "memberPresence" ? "membersPresence" : "membersAbsence",
          members,
        });
      }
      return;
    }
    this.events.dispatch(event, ev);
  }

  protected handleNotify(text: string): void {
    let n: { type?: string; data?: unknown; values?: unknown[] };
    try {
      n = JSON.parse(text) as typeof n;
    } catch {
      return;
    }
    switch (n.type) {
      case "presence": {
        const values = ((n.data as { values?: Record<string, unknown>[] } | undefined)?.values ?? []).map((v) => ({
          userId: asText(v.uid),
          lastTime: Number(v.last_time ?? 0),
          expire: Number(v.expiry ?? 0),
          ext: asText(v.ext),
          statusDetails: Object.entries((v.status as Record<string, string> | undefined) ?? {}).map(
            ([device, status]) => ({ device, status: Number(status) }),
          ),
        }));
        this.events.dispatch("onPresenceStatusChange", values);
        return;
      }
      case "reaction":
        for (const r of (n.data as Record<string, unknown>[] | undefined) ?? []) {
          this.events.dispatch("onReactionChange", {
            from: r.from,
            to: r.to,
            chatType: r.channel_type === "chat" ? "singleChat" : "groupChat",
            messageId: r.messageId,
            reactions: r.reactions,
            ts: r.ts,
          });
        }
        return;
      case "thread": {
        const d = (n.data as Record<string, unknown> | undefined) ?? {};
        const ops: Record<string, string> = {
          create: "create",
          update_msg: "update",
          update: "update",
          delete: "destroy",
        };
        this.events.dispatch("onChatThreadChange", {
          id: d.id,
          name: d.name,
          parentId: d.muc_parent_id,
          messageId: d.msg_parent_id,
          timestamp: d.timestamp,
          operator: d.from,
          operation: ops[String(d.operation)] ?? String(d.operation),
          messageCount: d.message_count,
          ...(d.last_message ? { lastMessage: messageFromJson(d.last_message as Record<string, unknown>) } : {}),
        });
        return;
      }
      case "roaming_delete": {
        const d = (n.data as { resource?: string; to?: string; chatType?: string } | undefined) ?? {};
        if (d.resource === this.clientResource) return;
        this.events.dispatch("onMultiDeviceEvent", {
          operation: "deleteRoaming",
          conversationId: d.to,
          chatType: d.chatType === "chat" ? "singleChat" : "groupChat",
          resource: d.resource,
        });
        return;
      }
      case "conv": {
        const d =
          (n.data as
            | { op?: string; id?: string; type?: string; ts?: number; ext?: string; from?: string; res?: string }
            | undefined) ?? {};
        if (d.res === this.clientResource && d.from === this.user) return;
        const conversationType: ChatType = d.type === "chat" ? "singleChat" : "groupChat";
        if (d.op === "pin" || d.op === "pin_delete") {
          this.events.dispatch("onMessagePinEvent", {
            messageId: d.ext,
            conversationId: d.type === "chat" ? d.from : d.id,
            conversationType,
            operation: d.op === "pin" ? "pin" : "unpin",
            operatorId: d.from,
            time: d.ts,
          });
          return;
        }
        const ops: Record<string, string> = {
          del: "deleteConversation",
          top: "pinnedConversation",
          not_top: "unpinnedConversation",
          mark: "markConversation",
          mark_delete: "unMarkConversation",
        };
        const operation = ops[d.op ?? ""];
        if (!operation) return;
        const mark = d.op?.startsWith("mark") ? { conversationMark: Number(asText(d.ext).replace("mark_", "")) } : {};
        this.events.dispatch("onMultiDeviceEvent", {
          operation,
          conversationId: d.id,
          conversationType,
          timestamp: d.ts,
          ...mark,
        });
        return;
      }
      case "user_notification_mute":
        this.handleSilentModeNotify(n.values);
        return;
      case undefined:
      default:
        return;
    }
  }

  /**
   * Silent mode changed on another device of this user: each entry names the operating device, the
   * setting and the conversation (`user` or `group`) it concerns. An entry with an `ignoreInterval` is the
   * all-conversations setting; an empty setting means the conversation's setting was removed. Entries
   * from this device are its own changes.
   */
  protected handleSilentModeNotify(values: unknown[] | undefined): void {
    for (const raw of values ?? []) {
      if (!raw || typeof raw !== "object") continue;
      const v = raw as { operator_resource?: string; data?: Record<string, unknown>; user?: string; group?: string };
      if (v.operator_resource === this.clientResource) continue;
      const data = v.data && typeof v.data === "object" ? v.data : {};
      const resource = v.operator_resource;
      if ("ignoreInterval" in data) {
        this.events.dispatch("onMultiDeviceEvent", { operation: "setSilentModeForUser", resource, data });
        continue;
      }
      const operation =
        Object.keys(data).length === 0 ? "removeSilentModeForConversation" : "setSilentModeForConversation";
      const conversation =
        "group" in v ? { conversationId: v.group, type: "groupChat" } : { conversationId: v.user, type: "singleChat" };
      this.events.dispatch("onMultiDeviceEvent", { operation, resource, ...conversation, data });
    }
  }
}
