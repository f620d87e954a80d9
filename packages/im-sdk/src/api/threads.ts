import type { Connection } from "../connection.js";
import { invalid } from "../errors.js";
import { enc, isStr, needArray, needObj, type RestReply as Reply } from "./check.js";

const tid = (opts: { chatThreadId?: unknown } | undefined): string => {
  const id = needObj(opts).chatThreadId;
  if (!isStr(id)) throw invalid("Invalid parameter chatThreadId: ");
  return enc(id);
};

/** Thread entities: `groupId`/`msgId` become `parentId`/`messageId`. */
function threadOf(e: Record<string, unknown>): Record<string, unknown> {
  const { groupId, msgId, affiliations_count, ...rest } = e;
  return {
    ...rest,
    parentId: groupId,
    messageId: msgId,
    ...(affiliations_count !== undefined && { affiliationsCount: affiliations_count }),
  };
}

/** Message threads (spec 03 §5 and §7, threads). */
export const threadsApi = {
  async createChatThread(
    this: Connection,
    opts: { name: string; messageId: string; parentId: string },
  ): Promise<Reply<{ chatThreadId: string }>> {
    needObj(opts);
    if (!isStr(opts.name)) throw invalid("Invalid parameter name: ");
    if (!isStr(opts.messageId)) throw invalid("Invalid parameter messageId: ");
    if (!isStr(opts.parentId)) throw invalid("Invalid parameter parentId: ");
    const r = await this.rest<{ data?: { thread_id?: string } }>("POST", "thread", {
      body: { name: opts.name, msg_id: opts.messageId, group_id: opts.parentId, owner: this.user },
      resource: true,
    });
    return { ...r, data: { chatThreadId: String(r.data?.thread_id ?? "") } };
  },

  async joinChatThread(
    this: Connection,
    opts: { chatThreadId: string },
  ): Promise<Reply<{ detail: Record<string, unknown> }>> {
    const id = tid(opts);
    const r = await this.rest<{ data?: { detail?: Record<string, unknown> } }>(
      "POST",
      `thread/${id}/user/${enc(this.user)}/join`,
      { resource: true },
    );
    return { ...r, data: { detail: threadOf(r.data?.detail ?? {}) } };
  },

  async leaveChatThread(this: Connection, opts: { chatThreadId: string }): Promise<Reply> {
    return this.rest("DELETE", `thread/${tid(opts)}/user/${enc(this.user)}/quit`, { resource: true });
  },

  async destroyChatThread(this: Connection, opts: { chatThreadId: string }): Promise<Reply> {
    return this.rest("DELETE", `thread/${tid(opts)}`, { resource: true });
  },

  async changeChatThreadName(this: Connection, opts: { chatThreadId: string; name: string }): Promise<Reply> {
    const id = tid(opts);
    if (!isStr(opts.name)) throw invalid("Invalid parameter name: ");
    return this.rest("PUT", `thread/${id}`, { body: { name: opts.name }, resource: true });
  },

  async getChatThreadMembers(
    this: Connection,
    opts: { chatThreadId: string; pageSize?: number; cursor?: string },
  ): Promise<Reply<{ affiliations: string[] }>> {
    const id = tid(opts);
    return this.rest("GET", `thread/${id}/users`, { query: { limit: opts.pageSize ?? 20, cursor: opts.cursor } });
  },

  async removeChatThreadMember(this: Connection, opts: { chatThreadId: string; username: string }): Promise<Reply> {
    const id = tid(opts);
    if (!isStr(opts.username)) throw invalid("Invalid parameter username: ");
    return this.rest("DELETE", `thread/${id}/users/${enc(opts.username)}`, { resource: true });
  },

  async getJoinedChatThreads(
    this: Connection,
    opts: { parentId?: string; pageSize?: number; cursor?: string } = {},
  ): Promise<Reply & { entities: Record<string, unknown>[] }> {
    if (opts.parentId !== undefined && !isStr(opts.parentId)) throw invalid("Invalid parameter parentId: ");
    const path = opts.parentId
      ? `threads/chatgroups/${enc(opts.parentId)}/user/${enc(this.user)}`
      : `threads/user/${enc(this.user)}`;
    const r = await this.rest<{ entities?: Record<string, unknown>[] }>("GET", path, {
      query: { limit: opts.pageSize ?? 20, cursor: opts.cursor },
    });
    return { ...r, entities: (r.entities ?? []).map(threadOf) };
  },

  async getChatThreads(
    this: Connection,
    opts: { parentId: string; pageSize?: number; cursor?: string },
  ): Promise<Reply & { entities: Record<string, unknown>[] }> {
    needObj(opts);
    if (!isStr(opts.parentId)) throw invalid("Invalid parameter parentId: ");
    const r = await this.rest<{ entities?: Record<string, unknown>[] }>(
      "GET",
      `threads/chatgroups/${enc(opts.parentId)}`,
      { query: { cursor: opts.cursor, limit: opts.pageSize ?? 20 } },
    );
    return { ...r, entities: (r.entities ?? []).map(threadOf) };
  },

  async getChatThreadLastMessage(
    this: Connection,
    opts: { chatThreadIds: string[] },
  ): Promise<Reply & { entities: { chatThreadId: string; lastMessage: unknown }[] }> {
    needObj(opts);
    needArray(opts.chatThreadIds, "chatThreadIds");
    const r = await this.rest<{ entities?: { thread_id?: string; last_message?: unknown }[] }>(
      "POST",
      "thread/message",
      { body: { threadIds: opts.chatThreadIds } },
    );
    return {
      ...r,
      entities: (r.entities ?? []).map((e) => ({
        chatThreadId: String(e.thread_id ?? ""),
        lastMessage: this.jsonMessage(e.last_message),
      })),
    };
  },

  async getChatThreadDetail(this: Connection, opts: { chatThreadId: string }): Promise<Reply<Record<string, unknown>>> {
    const r = await this.rest<{ data?: Record<string, unknown> }>("GET", `thread/${tid(opts)}`);
    return { ...r, data: threadOf(r.data ?? {}) };
  },
};
