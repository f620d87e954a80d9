import {
  IM_CONVERSATION_MARKS,
  IM_LIMITS,
  IM_MUC_DOMAIN,
  IM_PAGE,
  IM_USER_DOMAIN,
  type ImRoamingReq,
} from "@tessera/contracts";
import type { Executor } from "../../db/tx";
import { denied, imError, invalidParam } from "../errors";
import * as convs from "../store/conversations";
import * as messages from "../store/messages";
import { encodeMessageBody } from "../proto/message";
import * as memberStore from "../store/members";
import { findThread } from "../store/threads";
import { inScope, type ImActor } from "./core";
import { HistoryAppend } from "./history/append";

export type { AppendOutcome, AppendScope, SendInput, SentMessage } from "./history/append";
export type { Target } from "./history/base";

/**
 * Messages, conversations and history roaming. History is served from the whole store (retention is
 * configurable, unlimited by default) and can be searched on the server by sender, message type and time
 * range; what a user removed or cleared stays hidden from that user only.
 */

/** How many of the conversations deleted at once the user's other devices are told of, one notice each. */
const DELETE_ALL_NOTICES = 1000;

export class ImHistory extends HistoryAppend {
  /* ---------- history roaming ---------- */

  /**
   * POST users/{me}/messageroaming: a page of one conversation's history, newest first unless
   * is_positive, from the cursor (`start`, the previous `next_key`; -1 for the end), filtered by sender,
   * message types and time range.
   */
  async roaming(
    me: string,
    req: ImRoamingReq,
  ): Promise<{ msgs: { msg: string; msg_id: string; timestamp: number }[]; next_key: string; is_last: boolean }> {
    const db = this.deps.db;
    const target = await this.resolveQueue(db, me, req.queue);
    const limit = Math.min(req.pull_number ?? IM_PAGE.historyPageSize, IM_PAGE.historyMaxPageSize);
    const direction = req.is_positive ? "down" : "up";
    const start =
      req.start === null || req.start === undefined || String(req.start) === "-1" || String(req.start) === ""
        ? null
        : Number(req.start);
    if (start !== null && (!Number.isSafeInteger(start) || start < 0)) throw invalidParam("start");
    const conv =
      target.kind === "chat" || target.kind === "group" ? await convs.findConversation(db, me, target.key) : undefined;
    const types = req.msgType
      ? req.msgType
          .split(",")
          .map((t) => t.trim())
          .filter((t) => t !== "")
      : [];
    const from = target.kind === "chat" ? undefined : req.userId?.toLowerCase() || undefined;
    const rows = await messages.history(db, {
      convKey: target.key,
      username: me,
      direction,
      afterSeq: start,
      limit: limit + 1,
      clearedSeq: conv?.cleared_seq ?? 0,
      clearedMs: conv?.cleared_ms ?? 0,
      minMs: this.minMs,
      from,
      types,
      startMs: req.startTime ?? undefined,
      endMs: req.endTime ?? undefined,
    });
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      msgs: page.map((r) => ({ msg: this.encodedMeta(r), msg_id: String(r.id), timestamp: r.created_ms })),
      next_key: last ? String(last.seq) : "",
      is_last: rows.length <= limit,
    };
  }

  /** Removes messages from the user's own history, by ids or everything before a time. */
  async removeHistory(
    me: string,
    kind: "chat" | "group",
    target: string,
    what: { ids: number[] } | { beforeMs: number },
    resource?: string,
  ): Promise<void> {
    await inScope(this.deps, async (s) => {
      const t =
        kind === "chat"
          ? { kind: "chat" as const, key: messages.convKey("chat", me, target.toLowerCase()) }
          : await this.resolveMuc(s.tx, me, target);
      if ("ids" in what) {
        const rows = await messages.findMessages(s.tx, what.ids);
        const mine = rows.filter((r) => r.conv_key === t.key).map((r) => r.id);
        await messages.hideMessages(s.tx, me, mine);
      } else {
        await convs.setClearedMs(s.tx, me, t.key, what.beforeMs);
      }
      await convs.refreshConversation(s.tx, me, t.key);
      // Every device hears of it; the client ignores the notice on the device that names itself as `resource`.
      const detail = {
        to: target,
        type: kind === "chat" ? "chat" : "groupchat",
        ...(resource && { resource }),
        ...what,
      };
      await s.notify(
        [me],
        { ns: "notify", type: "roaming_delete", from: me, detail },
        { durable: true, skipResource: undefined },
      );
    });
  }

  /** The message must be a group's (group read receipts). */
  async requireGroupMessage(groupId: string, messageId: number): Promise<void> {
    const row = await messages.findMessage(this.deps.db, messageId);
    if (!row || row.chat_type !== "groupchat" || row.to_target !== groupId || row.thread_id !== null) {
      throw imError("messageNotFound", { id: messageId });
    }
  }

  /* ---------- conversations ---------- */

  private async present(rows: convs.ConversationRow[]): Promise<Record<string, unknown>[]> {
    const last = await messages.findMessages(
      this.deps.db,
      rows.map((r) => r.last_message_id).filter((id): id is number => id !== null),
    );
    const byId = new Map(last.map((m) => [m.id, m]));
    return rows.map((c) => {
      const m = c.last_message_id !== null ? byId.get(c.last_message_id) : undefined;
      return {
        session_to: c.peer,
        session_type: c.chat_type === "chat" ? "chat" : "groupchat",
        channel_id: `${this.deps.appKey}_${c.peer}@${c.chat_type === "chat" ? IM_USER_DOMAIN : IM_MUC_DOMAIN}`,
        is_top: c.pinned_ms !== null,
        update_top_status_time: c.pinned_ms ?? 0,
        unread_num: c.unread,
        marks: markNames(c.marks),
        meta: m && !m.recalled_at ? this.restMessage(m) : {},
      };
    });
  }

  /** GET sdk/user/{me}/user_channels/list (or /mark/search with a mark): newest first (or the pinned ones), with a keyset cursor. */
  async conversations(
    me: string,
    options: { pinnedOnly: boolean; cursor: string | undefined; limit: number; mark?: string },
  ): Promise<{ items: Record<string, unknown>[]; cursor: string }> {
    let after: { ms: number; key: string } | null = null;
    if (options.cursor) {
      try {
        const [ms, key] = JSON.parse(Buffer.from(options.cursor, "base64url").toString("utf8")) as [unknown, unknown];
        if (typeof ms !== "number" || typeof key !== "string") throw new Error("bad cursor");
        after = { ms, key };
      } catch {
        throw invalidParam("cursor");
      }
    }
    const rows = await convs.conversationPage(this.deps.db, me, {
      pinnedOnly: options.pinnedOnly,
      after,
      limit: options.limit + 1,
      ...(options.mark !== undefined && { markBit: markBit(options.mark) }),
    });
    const page = rows.slice(0, options.limit);
    const last = page.at(-1);
    const cursor =
      rows.length > options.limit && last
        ? Buffer.from(JSON.stringify([options.pinnedOnly ? last.pinned_ms : last.last_ms, last.conv_key])).toString(
            "base64url",
          )
        : "";
    return { items: await this.present(page), cursor };
  }

  /**
   * The whole conversation list for a device's first sync (the chat SDK 5 session-list socket,
   * gateway/sync-socket.ts): newest first, each with its last message as protocol bytes.
   */
  async sessionList(me: string, limit: number): Promise<SessionEntry[]> {
    const rows = await convs.conversationPage(this.deps.db, me, { pinnedOnly: false, after: null, limit });
    const last = await messages.findMessages(
      this.deps.db,
      rows.map((r) => r.last_message_id).filter((id): id is number => id !== null),
    );
    const byId = new Map(last.map((m) => [m.id, m]));
    return rows.map((c) => {
      const m = c.last_message_id !== null ? byId.get(c.last_message_id) : undefined;
      return {
        peer: c.peer,
        chatType: c.chat_type,
        unread: c.unread,
        pinnedMs: c.pinned_ms ?? 0,
        lastMs: c.last_ms,
        marks: markNames(c.marks),
        last:
          m && !m.recalled_at
            ? {
                id: m.id,
                from: m.from_user,
                timestamp: m.created_ms,
                body: m.body_pb ? new Uint8Array(m.body_pb) : encodeMessageBody(this.deps.appKey, m.payload),
              }
            : null,
      };
    });
  }

  /** GET users/{me}/user_channels[/page]: the older conversation list, by page number. */
  async conversationPage(me: string, pageNum: number, pageSize: number): Promise<Record<string, unknown>[]> {
    const rows = await convs.conversationOffsetPage(this.deps.db, me, (pageNum - 1) * pageSize, pageSize);
    return this.present(rows);
  }

  private convKeyOf(me: string, type: "chat" | "groupchat", to: string): string {
    return type === "chat" ? messages.convKey("chat", me, to.toLowerCase()) : messages.convKey("groupchat", me, to);
  }

  /** Deletes a conversation from the list; with deleteRoam, the user's history of it too. */
  async deleteConversation(
    me: string,
    type: "chat" | "groupchat",
    channel: string,
    deleteRoam: boolean,
    resource: string | undefined,
  ): Promise<void> {
    await inScope(this.deps, async (s) => {
      const key = this.convKeyOf(me, type, channel);
      const clear = deleteRoam ? await convs.headSeq(s.tx, key) : null;
      const found = await convs.hideConversation(s.tx, me, key, clear);
      if (!found) throw imError("conversationNotFound");
      await s.notify(
        [me],
        { ns: "notify", type: "conv", from: me, detail: { op: "del", to: channel, type, delete_roam: deleteRoam } },
        { durable: true, skipResource: resource },
      );
    });
  }

  /**
   * Adds or removes a mark on conversations. Targets the user has no visible conversation with are
   * returned as ignored (the client only logs them).
   */
  async mark(
    me: string,
    mark: string,
    targets: { to: string; type: "chat" | "groupchat" }[],
    on: boolean,
    resource: string | undefined,
  ): Promise<{ ignore: string[] }> {
    return inScope(this.deps, async (s) => {
      const keyed = targets.map((t) => ({ ...t, key: this.convKeyOf(me, t.type, t.to) }));
      const changed = new Set(
        await convs.setMark(
          s.tx,
          me,
          keyed.map((t) => t.key),
          markBit(mark),
          on,
        ),
      );
      const done = keyed.filter((t) => changed.has(t.key));
      // One notice per conversation: the client reads one conversation (`id`, `type`) from each.
      for (const t of done) {
        await s.notify(
          [me],
          {
            ns: "notify",
            type: "conv",
            from: me,
            detail: { op: on ? "mark" : "unmark", mark, to: t.to, type: t.type },
          },
          { durable: true, skipResource: resource },
        );
      }
      return { ignore: keyed.filter((t) => !changed.has(t.key)).map((t) => t.to) };
    });
  }

  /**
   * Clears all of the user's conversations and their history for the user (others keep theirs). The
   * client knows no "all deleted" notice: the user's other devices hear of each conversation deleted
   * (conv `del`, as for one), the newest DELETE_ALL_NOTICES of them; any older ones are gone from the
   * server's list, which a device reads when it next loads its conversations.
   */
  async deleteAll(me: string, resource: string | undefined): Promise<void> {
    await inScope(this.deps, async (s) => {
      const visible = await convs.visibleConversations(s.tx, me, DELETE_ALL_NOTICES);
      await convs.hideAllConversations(s.tx, me, s.nowMs);
      const notices = visible.map((c) => ({
        ns: "notify" as const,
        type: "conv" as const,
        from: me,
        detail: { op: "del", to: c.peer, type: c.chat_type, delete_roam: true },
      }));
      await s.notifyUser(me, notices, { skipResource: resource });
    });
  }

  /** Pins or unpins a conversation (at most IM_LIMITS.pinnedConversations pinned). */
  async pin(
    me: string,
    type: "chat" | "groupchat",
    to: string,
    on: boolean,
    resource: string | undefined,
  ): Promise<{ isTop: boolean; time: number }> {
    return inScope(this.deps, async (s) => {
      const key = this.convKeyOf(me, type, to);
      const conv = await convs.findConversation(s.tx, me, key);
      if (!conv || !conv.visible) throw imError("conversationNotFound");
      if (on && conv.pinned_ms === null && (await convs.pinnedCount(s.tx, me)) >= IM_LIMITS.pinnedConversations) {
        throw imError("maxLimit", { what: "pinned conversations", max: IM_LIMITS.pinnedConversations });
      }
      const time = s.nowMs;
      await convs.setPinned(s.tx, me, key, on ? (conv.pinned_ms ?? time) : null);
      await s.notify(
        [me],
        { ns: "notify", type: "conv", from: me, detail: { op: on ? "top" : "untop", to, type } },
        { durable: true, skipResource: resource },
      );
      return { isTop: on, time: on ? (conv.pinned_ms ?? time) : time };
    });
  }

  /** The user read a conversation up to a message (gateway: read acknowledgements). */
  async markRead(me: string, type: "chat" | "groupchat", to: string, messageId: number | null): Promise<void> {
    await inScope(this.deps, async (s) => {
      const key = this.convKeyOf(me, type, to);
      const seq =
        messageId === null ? await convs.headSeq(s.tx, key) : ((await messages.findMessage(s.tx, messageId))?.seq ?? 0);
      await convs.markRead(s.tx, me, key, seq);
    });
  }

  /** Recalls a message (gateway). Everyone's conversation row showing it, and unread counts, follow. */
  async recall(actor: ImActor, messageId: number): Promise<messages.MessageRow> {
    return inScope(this.deps, async (s) => {
      const row = await messages.findMessage(s.tx, messageId);
      if (!row || row.recalled_at) throw imError("messageNotFound", { id: messageId });
      if (actor.kind === "user" && actor.username !== row.from_user) {
        if (row.chat_type === "chat") throw denied("only the sender may recall a message");
        const mucs = row.chat_type === "chatroom" ? this.rooms : this.groups;
        const a = await mucs.access(s.tx, actor, row.to_target);
        mucs.require(a, "admin");
      }
      await messages.markRecalled(s.tx, row.id, s.now);
      const affected = await convs.conversationHolders(s.tx, row.conv_key);
      for (const { username } of affected) await convs.refreshConversation(s.tx, username, row.conv_key);
      return row;
    });
  }
}

/** Group messages the caller may see, for reactions and reports on group messages. */
export async function canSeeMessage(db: Executor, username: string, row: messages.MessageRow): Promise<boolean> {
  if (row.recalled_at) return false;
  if (row.chat_type === "chat") return row.from_user === username || row.to_target === username;
  const mucId =
    row.thread_id !== null ? ((await findThread(db, String(row.thread_id)))?.muc_id ?? 0) : Number(row.to_target);
  return (await memberStore.findMember(db, mucId, username)) !== undefined;
}

/** mark_N is bit N of the conversation's marks (N from 0 to IM_CONVERSATION_MARKS - 1). */
function markBit(mark: string): number {
  const n = Number(/^mark_(\d{1,2})$/.exec(mark)?.[1] ?? NaN);
  if (!Number.isInteger(n) || n < 0 || n >= IM_CONVERSATION_MARKS) throw invalidParam("mark");
  return 1 << n;
}

/** A conversation as the session-list sync sends it. */
export interface SessionEntry {
  peer: string;
  chatType: "chat" | "groupchat";
  unread: number;
  pinnedMs: number;
  lastMs: number;
  marks: string[];
  last: { id: number; from: string; timestamp: number; body: Uint8Array } | null;
}

function markNames(bits: number): string[] {
  const out: string[] = [];
  for (let n = 0; n < IM_CONVERSATION_MARKS; n++) if (bits & (1 << n)) out.push(`mark_${n}`);
  return out;
}
