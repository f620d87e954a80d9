import type { Connection } from "../connection.js";
import { err, invalid } from "../errors.js";
import { messageFromHistory, type ChatMessage, type ChatType } from "../message.js";
import { base64ToBytes } from "../proto.js";
import { statusCode as C } from "../status.js";
import { enc, isNum, isStr, needBool, needNum, needObj, needStr, type RestReply as Reply } from "./check.js";

export interface Conversation {
  conversationId: string;
  conversationType: ChatType;
  isPinned: boolean;
  pinnedTime: number;
  unReadCount: number;
  lastMessage: ChatMessage | Record<string, never>;
  marks?: number[];
}

interface ChannelInfo {
  session_to?: string;
  session_type?: string;
  is_top?: boolean;
  update_top_status_time?: number;
  unread_num?: number;
  marks?: string[];
  meta?: { id?: string; timestamp?: number; to?: string; payload?: string };
}

const chatKind = (t: unknown): "chat" | "groupChat" => (t === "singleChat" ? "chat" : "groupChat");

function conversationsOf(c: Connection, infos: ChannelInfo[] | undefined): Conversation[] {
  return (infos ?? []).map((i) => ({
    conversationId: String(i.session_to ?? ""),
    conversationType: i.session_type === "chat" ? "singleChat" : "groupChat",
    isPinned: Boolean(i.is_top),
    pinnedTime: Number(i.update_top_status_time ?? 0),
    unReadCount: Number(i.unread_num ?? 0),
    lastMessage: c.jsonMessage(i.meta),
    marks: (i.marks ?? []).map((m) => Number(String(m).replace("mark_", ""))),
  }));
}

function checkMark(mark: unknown): number {
  if (!isNum(mark) || mark < 0 || mark > 19 || !Number.isInteger(mark)) throw invalid("Invalid parameter mark: ");
  return mark;
}

function conversationTargets(list: unknown): { to: string; type: string }[] {
  if (!Array.isArray(list) || list.length === 0) throw invalid("Invalid parameter conversations");
  return (list as { conversationId?: unknown; conversationType?: unknown }[]).map((c) => {
    if (!isStr(c?.conversationId)) throw invalid("Invalid parameter conversationId");
    return { to: c.conversationId, type: chatKind(c.conversationType) };
  });
}

/** Conversations, history, reactions, reports and pinned messages (spec 02 §7). */
export const conversationsApi = {
  async getServerConversations(
    this: Connection,
    opts: { pageSize?: number; cursor?: string; includeEmptyConversations?: boolean } = {},
  ): Promise<Reply<{ conversations: Conversation[]; cursor: string }>> {
    if (opts.pageSize !== undefined && !isNum(opts.pageSize)) throw invalid("Invalid parameter pageSize: ");
    if (opts.cursor !== undefined && typeof opts.cursor !== "string") throw invalid("Invalid parameter cursor: ");
    const r = await this.rest<{ data?: { cursor?: string; channel_infos?: ChannelInfo[] } }>(
      "GET",
      `sdk/user/${enc(this.user)}/user_channels/list`,
      {
        query: {
          limit: opts.pageSize ?? 20,
          cursor: opts.cursor,
          need_mark: true,
          needEmptySession: Boolean(opts.includeEmptyConversations),
        },
      },
    );
    return {
      type: 0,
      data: { conversations: conversationsOf(this, r.data?.channel_infos), cursor: r.data?.cursor ?? "" },
    };
  },

  async getServerPinnedConversations(
    this: Connection,
    opts: { pageSize?: number; cursor?: string } = {},
  ): Promise<Reply<{ conversations: Conversation[]; cursor: string }>> {
    if (opts.pageSize !== undefined && !isNum(opts.pageSize)) throw invalid("Invalid parameter pageSize: ");
    const r = await this.rest<{ data?: { cursor?: string; channel_infos?: ChannelInfo[] } }>(
      "GET",
      `sdk/user/${enc(this.user)}/user_channels/list`,
      { query: { limit: opts.pageSize ?? 20, cursor: opts.cursor, need_mark: true, is_top: true } },
    );
    return {
      type: 0,
      data: { conversations: conversationsOf(this, r.data?.channel_infos), cursor: r.data?.cursor ?? "" },
    };
  },

  async getServerConversationsByFilter(
    this: Connection,
    opts: { pageSize?: number; cursor?: string; filter: { mark: number } },
  ): Promise<Reply<{ conversations: Conversation[]; cursor: string }>> {
    needObj(opts);
    const mark = checkMark(opts.filter?.mark);
    const r = await this.rest<{ data?: { cursor?: string; channel_infos?: ChannelInfo[] } }>(
      "GET",
      `sdk/user/${enc(this.user)}/user_channels/mark/search`,
      { query: { limit: opts.pageSize ?? 10, cursor: opts.cursor, need_mark: true, mark: `mark_${mark}` } },
    );
    return {
      type: 0,
      data: { conversations: conversationsOf(this, r.data?.channel_infos), cursor: r.data?.cursor ?? "" },
    };
  },

  /** The older list by page: each channel's last message decoded into `lastMessage`. */
  async getConversationlist(
    this: Connection,
    opts: { pageNum?: number; pageSize?: number } = {},
  ): Promise<Reply<{ channel_infos: (ChannelInfo & { lastMessage: unknown })[] }>> {
    const paged = opts.pageNum !== undefined || opts.pageSize !== undefined;
    if (paged && (!isNum(opts.pageNum) || !isNum(opts.pageSize))) throw invalid("Invalid parameter pageNum:");
    const r = await this.rest<{ data?: { channel_infos?: ChannelInfo[] } }>(
      "GET",
      `users/${enc(this.user)}/user_channels${paged ? "/page" : ""}`,
      paged ? { query: { pageNum: opts.pageNum, pageSize: opts.pageSize } } : {},
    );
    const infos = (r.data?.channel_infos ?? []).map((i) => ({ ...i, lastMessage: this.jsonMessage(i.meta) }));
    return { ...r, data: { ...r.data, channel_infos: infos } };
  },

  async deleteConversation(
    this: Connection,
    opts: { channel: string; chatType: ChatType; deleteRoam: boolean },
  ): Promise<Reply> {
    needObj(opts);
    if (typeof opts.channel !== "string") throw invalid('Invalid parameter: "channel"');
    if (opts.chatType !== "singleChat" && opts.chatType !== "groupChat") throw invalid('Invalid parameter: "chatType"');
    needBool(opts.deleteRoam, "deleteRoam");
    return this.rest("DELETE", `user/${enc(this.user)}/user_channel`, {
      body: { channel: opts.channel, type: chatKind(opts.chatType), delete_roam: opts.deleteRoam },
      resource: true,
    });
  },

  async pinConversation(
    this: Connection,
    opts: { conversationId: string; conversationType: ChatType; isPinned: boolean },
  ): Promise<Reply<{ isPinned: boolean; pinnedTime: number }>> {
    needObj(opts);
    if (typeof opts.conversationId !== "string" || opts.conversationId === "") {
      throw invalid("Invalid parameter conversationId");
    }
    if (opts.conversationType !== "singleChat" && opts.conversationType !== "groupChat") {
      throw invalid("Invalid parameter conversationType: ");
    }
    if (typeof opts.isPinned !== "boolean") throw invalid("Invalid parameter isPinned");
    const type = chatKind(opts.conversationType);
    const path = `sdk/user/${enc(this.user)}/user_channel/top`;
    const r = opts.isPinned
      ? await this.rest<{ data?: { is_top?: boolean; update_top_status_time?: number } }>("POST", path, {
          body: { type, to: opts.conversationId },
          resource: true,
        })
      : await this.rest<{ data?: { is_top?: boolean; update_top_status_time?: number } }>("DELETE", path, {
          query: { type, to: opts.conversationId },
          resource: true,
        });
    return {
      type: 0,
      data: { isPinned: Boolean(r.data?.is_top), pinnedTime: Number(r.data?.update_top_status_time ?? 0) },
    };
  },

  async addConversationMark(
    this: Connection,
    opts: { conversations: { conversationId: string; conversationType: ChatType }[]; mark: number },
  ): Promise<Reply> {
    needObj(opts);
    const targets = conversationTargets(opts.conversations);
    const mark = checkMark(opts.mark);
    return this.rest("POST", `sdk/user/${enc(this.user)}/user_channels/mark`, {
      body: { mark: `mark_${mark}`, targets },
      resource: true,
    });
  },

  async removeConversationMark(
    this: Connection,
    opts: { conversations: { conversationId: string; conversationType: ChatType }[]; mark: number },
  ): Promise<Reply> {
    needObj(opts);
    const targets = conversationTargets(opts.conversations);
    const mark = checkMark(opts.mark);
    return this.rest("DELETE", `sdk/user/${enc(this.user)}/user_channels/mark`, {
      body: { mark: `mark_${mark}`, targets },
      resource: true,
    });
  },

  async deleteAllMessagesAndConversations(this: Connection): Promise<Reply> {
    return this.rest("POST", `sdk/message/roaming/user/${enc(this.user)}/delete/all`, { resource: true });
  },

  // --------------------------------------------------------------- history

  /** Roaming history with a cursor, direction and server-side search (spec 02 §5, history). */
  async getHistoryMessages(
    this: Connection,
    opts: {
      targetId: string;
      chatType?: ChatType;
      pageSize?: number;
      cursor?: string | number | null;
      searchDirection?: "up" | "down";
      searchOptions?: { from?: string; msgTypes?: string[]; startTime?: number; endTime?: number };
    },
  ): Promise<{ cursor: string; isLast: boolean; messages: ChatMessage[] }> {
    needObj(opts);
    if (!isStr(opts.targetId)) throw invalid("Invalid parameter targetId");
    const so = opts.searchOptions ?? {};
    if (so.from !== undefined && typeof so.from !== "string") {
      throw invalid('"Invalid parameter": "searchOptions.from"');
    }
    if (so.msgTypes !== undefined && !Array.isArray(so.msgTypes)) {
      throw invalid('"Invalid parameter": "searchOptions.msgTypes"');
    }
    if (so.startTime !== undefined && typeof so.startTime !== "number") {
      throw invalid('"Invalid parameter": "searchOptions.startTime"');
    }
    if (so.endTime !== undefined && typeof so.endTime !== "number") {
      throw invalid('"Invalid parameter": "searchOptions.endTime"');
    }
    const chatType = opts.chatType ?? "singleChat";
    const queue = `${opts.targetId}@${chatType === "singleChat" ? "easemob.com" : "conference.easemob.com"}`;
    let r: { data?: { msgs?: { msg: string }[]; next_key?: string; is_last?: boolean } };
    try {
      r = await this.rest("POST", `users/${enc(this.user)}/messageroaming`, {
        body: {
          queue,
          start: opts.cursor ?? -1,
          pull_number: opts.pageSize ?? 20,
          is_positive: opts.searchDirection === "down",
          msgType: (so.msgTypes ?? []).join(","),
          end: -1,
          startTime: so.startTime ?? null,
          endTime: so.endTime ?? null,
          userId: chatType === "singleChat" ? null : (so.from ?? null),
        },
      });
    } catch (e) {
      const type = (e as { type?: number }).type;
      if (type === C.WEBIM_CONNCTION_AJAX_ERROR) {
        throw err(C.WEBIM_CONNCTION_AJAX_ERROR, "fetch history messages error", e);
      }
      throw e;
    }
    const messages: ChatMessage[] = [];
    for (const item of r.data?.msgs ?? []) {
      try {
        const m = messageFromHistory(item.msg, this.apiUrl, base64ToBytes);
        if (m) messages.push(m);
      } catch {
        // A message the client cannot decode is left out.
      }
    }
    return { cursor: String(r.data?.next_key ?? ""), isLast: Boolean(r.data?.is_last), messages };
  },

  /** Removes messages from one's own history, by ids (1 to 20) or before a time. */
  async removeHistoryMessages(
    this: Connection,
    opts: { targetId: string; chatType: ChatType; messageIds?: string[]; beforeTimeStamp?: number },
  ): Promise<Reply> {
    needObj(opts);
    needStr(opts.targetId, "targetId");
    if (opts.chatType !== "singleChat" && opts.chatType !== "groupChat") throw invalid('Invalid parameter: "chatType"');
    if (opts.messageIds === undefined && opts.beforeTimeStamp === undefined) {
      throw invalid("messageIds or beforeTimeStamp field is required.");
    }
    const kind = opts.chatType === "singleChat" ? "chat" : "group";
    const who = opts.chatType === "singleChat" ? { userId: opts.targetId } : { groupId: opts.targetId };
    if (opts.messageIds !== undefined) {
      if (!Array.isArray(opts.messageIds) || opts.messageIds.length < 1 || opts.messageIds.length > 20) {
        throw invalid("Invalid parameter messageIds");
      }
      return this.rest("DELETE", `sdk/message/roaming/${kind}/user/${enc(this.user)}`, {
        query: { ...who, msgIdList: opts.messageIds.join(",") },
        resource: true,
      });
    }
    const t = opts.beforeTimeStamp;
    if (!isNum(t) || t < 0 || !Number.isInteger(t) || String(t).length > 18) {
      throw invalid('Invalid parameter: "beforeTimeStamp"');
    }
    return this.rest("DELETE", `sdk/message/roaming/${kind}/user/${enc(this.user)}/time`, {
      query: { ...who, delTime: t },
      resource: true,
    });
  },

  // --------------------------------------------------------------- reactions and reports

  async addReaction(this: Connection, opts: { messageId: string; reaction: string }): Promise<Reply> {
    needObj(opts);
    if (!isStr(opts.messageId)) throw invalid("Invalid parameter messageId: ");
    if (!isStr(opts.reaction)) throw invalid("Invalid parameter reaction: ");
    return this.rest("POST", `reaction/user/${enc(this.user)}`, {
      body: { msgId: opts.messageId, message: opts.reaction },
    });
  },

  async deleteReaction(this: Connection, opts: { messageId: string; reaction: string }): Promise<Reply> {
    needObj(opts);
    if (!isStr(opts.messageId)) throw invalid("Invalid parameter messageId: ");
    if (!isStr(opts.reaction)) throw invalid("Invalid parameter reaction: ");
    return this.rest("DELETE", `reaction/user/${enc(this.user)}`, {
      query: { msgId: opts.messageId, message: opts.reaction },
    });
  },

  async getReactionList(
    this: Connection,
    opts: { chatType: ChatType; messageId: string | string[]; groupId?: string },
  ): Promise<Reply<{ messageId: string; reactionList: Record<string, unknown>[] }[]>> {
    needObj(opts);
    const ids = typeof opts.messageId === "string" ? [opts.messageId] : opts.messageId;
    if (!Array.isArray(ids) || ids.length === 0 || !ids.every(isStr)) throw invalid("Invalid parameter messageId: ");
    if (opts.chatType !== "singleChat" && opts.chatType !== "groupChat") throw invalid("Invalid parameter chatType: ");
    const r = await this.rest<{ data?: { messageId: string; reactionList?: Record<string, unknown>[] }[] }>(
      "GET",
      `reaction/user/${enc(this.user)}`,
      {
        query: {
          msgIdList: ids.join(","),
          msgType: opts.chatType === "singleChat" ? "chat" : "groupchat",
          groupId: opts.groupId,
        },
      },
    );
    const data = (r.data ?? []).map((m) => ({
      ...m,
      reactionList: (m.reactionList ?? []).map(({ state, reactionId: _id, ...rest }) => ({
        ...rest,
        isAddedBySelf: Boolean(state),
      })),
    }));
    return { ...r, data };
  },

  async getReactionDetail(
    this: Connection,
    opts: { messageId: string; reaction: string; cursor?: string; pageSize?: number },
  ): Promise<Reply<Record<string, unknown>>> {
    needObj(opts);
    if (!isStr(opts.messageId)) throw invalid("Invalid parameter messageId: ");
    if (!isStr(opts.reaction)) throw invalid("Invalid parameter reaction: ");
    const r = await this.rest<{ data?: Record<string, unknown> }>("GET", `reaction/user/${enc(this.user)}/detail`, {
      query: { msgId: opts.messageId, message: opts.reaction, currentPage: opts.cursor, pageSize: opts.pageSize ?? 20 },
    });
    const { state, ...rest } = r.data ?? {};
    return { ...r, data: { ...rest, isAddedBySelf: Boolean(state) } };
  },

  async reportMessage(
    this: Connection,
    opts: { reportType: string; reportReason: string; messageId: string },
  ): Promise<void> {
    needObj(opts);
    if (!isStr(opts.reportType)) throw invalid("Invalid parameter reportType: ");
    if (!isStr(opts.messageId)) throw invalid("Invalid parameter messageId: ");
    if (!isStr(opts.reportReason)) throw invalid('Invalid parameter: "reportReason"');
    await this.rest("POST", `user/${enc(this.user)}/moderation/report/message/${enc(opts.messageId)}`, {
      body: { username: this.user, reportType: opts.reportType, reportReason: opts.reportReason },
    });
  },

  // --------------------------------------------------------------- pinned messages

  async pinMessage(
    this: Connection,
    opts: { conversationId: string; conversationType: ChatType; messageId: string },
  ): Promise<Reply> {
    return pinCall(this, "POST", opts);
  },

  async unpinMessage(
    this: Connection,
    opts: { conversationId: string; conversationType: ChatType; messageId: string },
  ): Promise<Reply> {
    return pinCall(this, "DELETE", opts);
  },

  async getServerPinnedMessages(
    this: Connection,
    opts: { conversationId: string; conversationType: ChatType; pageSize?: number; cursor?: string },
  ): Promise<Reply<{ list: { message: unknown; pinTime: number; operatorId: string }[]; cursor: string }>> {
    needObj(opts);
    if (!isStr(opts.conversationId)) throw invalid("Invalid parameter conversationId");
    if (opts.pageSize !== undefined) needNum(opts.pageSize, "pageSize");
    const r = await this.rest<{
      data?: { msg_infos?: { message?: unknown; pin_opt_at?: number; pin_operator?: string }[]; cursor?: string };
    }>("GET", `sdk/user/${enc(this.user)}/user_channel/pin`, {
      query: {
        to: opts.conversationId,
        type: opts.conversationType === "singleChat" ? "chat" : "groupchat",
        limit: opts.pageSize ?? 10,
        cursor: opts.cursor,
      },
    });
    const list = (r.data?.msg_infos ?? []).map((i) => ({
      message: this.jsonMessage(i.message),
      pinTime: Number(i.pin_opt_at ?? 0),
      operatorId: String(i.pin_operator ?? ""),
    }));
    return { type: 0, data: { list, cursor: r.data?.cursor ?? "" } };
  },
};

function pinCall(
  c: Connection,
  method: "POST" | "DELETE",
  opts: { conversationId: string; conversationType: ChatType; messageId: string },
): Promise<Reply> {
  needObj(opts);
  if (!isStr(opts.conversationId)) throw invalid("Invalid parameter conversationId");
  if (opts.conversationType !== "singleChat" && opts.conversationType !== "groupChat") {
    throw invalid("Invalid parameter conversationType: ");
  }
  if (!isStr(opts.messageId)) throw invalid("Invalid parameter messageId");
  return c.rest(method, `sdk/user/${enc(c.user)}/user_channel/pin`, {
    body: { to: opts.conversationId, type: chatKind(opts.conversationType), pin_msg_id: opts.messageId },
    resource: true,
  });
}
