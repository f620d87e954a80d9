import type { Connection } from "../connection.js";
import { err, invalid, metadataError } from "../errors.js";
import { asText } from "../proto.js";
import { statusCode as C } from "../status.js";
import { enc, isNum, isStr, nameList, needArray, needNum, needObj, needStr, type RestReply as Reply } from "./check.js";
import { membersOf } from "./groups.js";

const V3 = { version: "v3" };

const rid = (opts: { chatRoomId?: unknown } | undefined): string =>
  enc(needStr(needObj(opts).chatRoomId, "chatRoomId"));
const roomIdOf = (opts: { roomId?: unknown } | undefined): string => enc(needStr(needObj(opts).roomId, "roomId"));

type AttributeReply = { data?: { errorKeys?: Record<string, string>; successKeys?: string[] } };

/** `{status, errorKeys, successKeys}` of an attribute set or removal. */
function attributeResult(
  r: AttributeReply,
): Reply<{ status: "success" | "fail"; errorKeys: Record<string, string>; successKeys: string[] }> {
  const errorKeys = r.data?.errorKeys ?? {};
  return {
    type: 0,
    data: {
      status: Object.keys(errorKeys).length > 0 ? "fail" : "success",
      errorKeys,
      successKeys: r.data?.successKeys ?? [],
    },
  };
}

/** A single-key attribute call fails with the mapped error of its key (spec 03 §8, metadata). */
function singleAttribute(r: AttributeReply, key: string): Reply {
  const text = r.data?.errorKeys?.[key];
  if (text !== undefined) throw metadataError(text, r.data);
  return { type: 0, data: r.data };
}

function attributePath(c: Connection, chatRoomId: string, forced: boolean | undefined): string {
  return `metadata/chatroom/${chatRoomId}/user/${enc(c.user)}${forced ? "/forced" : ""}`;
}

/** Chat rooms (spec 02 §7, chat rooms); joining and leaving go over the socket (Connection). */
export const roomsApi = {
  async getChatRooms(this: Connection, opts: { pagenum: number; pagesize: number }): Promise<Reply> {
    needObj(opts);
    if (!isNum(opts.pagenum) || !isNum(opts.pagesize)) throw invalid('Invalid parameter: "pagenum or pagesize"');
    try {
      return await this.rest("GET", "chatrooms", { query: { pagenum: opts.pagenum, pagesize: opts.pagesize } });
    } catch (e) {
      const d = (e as { data?: { error_description?: string } }).data;
      if ((e as { type?: number }).type === C.WEBIM_CONNCTION_AJAX_ERROR) {
        throw err(C.WEBIM_CONNCTION_LOAD_CHATROOM_ERROR, d?.error_description ?? "load chatroom error", d);
      }
      throw e;
    }
  },

  async createChatRoom(
    this: Connection,
    opts: { name: string; description?: string; maxusers?: number; members?: string[] },
  ): Promise<Reply<{ id: string }>> {
    needObj(opts);
    if (typeof opts.name !== "string") throw invalid('Invalid parameter: "name"');
    return this.rest("POST", "chatrooms", {
      body: {
        name: opts.name,
        description: opts.description ?? "",
        maxusers: opts.maxusers ?? 200,
        owner: this.user,
        members: opts.members ?? [],
      },
      resource: true,
    });
  },

  async destroyChatRoom(this: Connection, opts: { chatRoomId: string }): Promise<Reply> {
    return this.rest("DELETE", `chatrooms/${rid(opts)}`, { query: V3, resource: true });
  },

  async getChatRoomDetails(this: Connection, opts: { chatRoomId: string }): Promise<Reply<Record<string, unknown>[]>> {
    return this.rest("GET", `chatrooms/${rid(opts)}`);
  },

  async modifyChatRoom(
    this: Connection,
    opts: { chatRoomId: string; chatRoomName?: string; description?: string; maxusers?: number },
  ): Promise<Reply> {
    const id = rid(opts);
    return this.rest("PUT", `chatrooms/${id}`, {
      body: { groupname: opts.chatRoomName, description: opts.description, maxusers: opts.maxusers },
      resource: true,
    });
  },

  async addUsersToChatRoom(this: Connection, opts: { chatRoomId: string; users: string[] }): Promise<Reply> {
    const id = rid(opts);
    needArray(opts.users, "users", true);
    return this.rest("POST", `chatrooms/${id}/users`, { body: { usernames: opts.users }, resource: true });
  },

  async removeChatRoomMember(this: Connection, opts: { chatRoomId: string; username: string }): Promise<Reply> {
    const id = rid(opts);
    return this.rest("DELETE", `chatrooms/${id}/users/${enc(needStr(opts.username, "username"))}`, { resource: true });
  },

  async removeChatRoomMembers(this: Connection, opts: { chatRoomId: string; users: string[] }): Promise<Reply> {
    const id = rid(opts);
    const users = needArray<string>(opts.users, "users", true);
    return this.rest("DELETE", `chatrooms/${id}/users/${users.map(enc).join(",")}`, { resource: true });
  },

  async listChatRoomMembers(
    this: Connection,
    opts: { chatRoomId: string; pageNum: number; pageSize: number },
  ): Promise<Reply<Record<string, string>[]>> {
    const id = rid(opts);
    if (!isNum(opts.pageNum) || opts.pageNum <= 0) throw invalid('The parameter "pageNum" should be a positive number');
    if (!isNum(opts.pageSize) || opts.pageSize <= 0) {
      throw invalid('The parameter "pageSize" should be a positive number');
    }
    return this.rest("GET", `chatrooms/${id}/users`, {
      query: { ...V3, pagenum: opts.pageNum, pagesize: opts.pageSize },
    });
  },

  async getChatRoomMembers(
    this: Connection,
    opts: { chatRoomId: string; cursor?: string; limit?: number },
  ): Promise<Reply<{ cursor?: string; members: { role: string; userId: string }[] }>> {
    const id = rid(opts);
    const r = await this.rest<{ data?: Record<string, unknown>[]; cursor?: string }>("GET", `chatrooms/${id}/users`, {
      query: { cursor: opts.cursor, limit: opts.limit ?? 50, joined_time: true },
    });
    return { ...r, data: { cursor: r.cursor, members: membersOf(r.data) } };
  },

  async getJoinedChatRooms(this: Connection, opts: { pageNum: number; pageSize: number }): Promise<Reply> {
    needObj(opts);
    if (!isNum(opts.pageNum) || !isNum(opts.pageSize) || opts.pageNum < 0 || opts.pageSize < 0) {
      throw invalid('Invalid parameter: "pageNum or pageSize"');
    }
    const r = await this.rest<{ data?: Record<string, unknown>[] }>("GET", `users/${enc(this.user)}/joined_chatrooms`, {
      query: { pagenum: opts.pageNum, pagesize: opts.pageSize, detail: true },
    });
    const prefix = `${this.appKey}_`;
    return {
      ...r,
      data: (r.data ?? []).map((d) => ({
        id: d.id,
        name: d.title ?? d.name,
        owner: asText(d.owner).startsWith(prefix) ? String(d.owner).slice(prefix.length) : d.owner,
        created: d.created,
        description: d.description,
        maxusers: d.max_users ?? d.maxusers,
      })),
    };
  },

  async getChatRoomAdmin(this: Connection, opts: { chatRoomId: string }): Promise<Reply<string[]>> {
    return this.rest("GET", `chatrooms/${rid(opts)}/admin`, { query: V3 });
  },

  async setChatRoomAdmin(this: Connection, opts: { chatRoomId: string; username: string }): Promise<Reply> {
    const id = rid(opts);
    return this.rest("POST", `chatrooms/${id}/admin`, {
      body: { newadmin: needStr(opts.username, "username") },
      query: V3,
      resource: true,
    });
  },

  async removeChatRoomAdmin(this: Connection, opts: { chatRoomId: string; username: string }): Promise<Reply> {
    const id = rid(opts);
    return this.rest("DELETE", `chatrooms/${id}/admin/${enc(needStr(opts.username, "username"))}`, { resource: true });
  },

  async muteChatRoomMember(
    this: Connection,
    opts: { chatRoomId: string; username: string; muteDuration: number },
  ): Promise<Reply> {
    const id = rid(opts);
    needStr(opts.username, "username");
    needNum(opts.muteDuration, "muteDuration");
    return this.rest("POST", `chatrooms/${id}/mute`, {
      body: { usernames: [opts.username], mute_duration: opts.muteDuration },
      resource: true,
    });
  },

  async unmuteChatRoomMember(this: Connection, opts: { chatRoomId: string; username: string }): Promise<Reply> {
    const id = rid(opts);
    return this.rest("DELETE", `chatrooms/${id}/mute/${enc(needStr(opts.username, "username"))}`, { resource: true });
  },

  async getChatRoomMutelist(this: Connection, opts: { chatRoomId: string }): Promise<Reply> {
    return this.rest("GET", `chatrooms/${rid(opts)}/mute`, { query: V3 });
  },

  async isInChatRoomMutelist(this: Connection, opts: { chatRoomId: string }): Promise<Reply<boolean>> {
    return this.rest("GET", `sdk/chatrooms/${rid(opts)}/mute/${enc(this.user)}`, { query: V3 });
  },

  async blockChatRoomMember(this: Connection, opts: { chatRoomId: string; username: string }): Promise<Reply> {
    const id = rid(opts);
    const r = await this.rest<{ data?: Record<string, unknown>[] }>(
      "POST",
      `chatrooms/${id}/blocks/users/${enc(needStr(opts.username, "username"))}`,
      { query: V3, resource: true },
    );
    return { ...r, data: { ...(r.data?.[0] ?? {}), action: "add_blocks", id: opts.chatRoomId } };
  },

  async blockChatRoomMembers(this: Connection, opts: { chatRoomId: string; usernames: string[] }): Promise<Reply> {
    const id = rid(opts);
    needArray(opts.usernames, "usernames", true);
    const r = await this.rest<{ data?: Record<string, unknown>[] }>("POST", `chatrooms/${id}/blocks/users`, {
      body: { usernames: opts.usernames },
      query: V3,
      resource: true,
    });
    return { ...r, data: (r.data ?? []).map((d) => ({ ...d, action: "add_blocks", id: opts.chatRoomId })) };
  },

  async unblockChatRoomMember(this: Connection, opts: { chatRoomId: string; username: string }): Promise<Reply> {
    const id = rid(opts);
    const r = await this.rest<{ data?: Record<string, unknown>[] }>(
      "DELETE",
      `chatrooms/${id}/blocks/users/${enc(needStr(opts.username, "username"))}`,
      { query: V3, resource: true },
    );
    return { ...r, data: { ...(r.data?.[0] ?? {}), action: "remove_blocks", id: opts.chatRoomId } };
  },

  async unblockChatRoomMembers(this: Connection, opts: { chatRoomId: string; usernames: string[] }): Promise<Reply> {
    const id = rid(opts);
    const users = nameList(opts.usernames, "usernames");
    const r = await this.rest<{ data?: Record<string, unknown>[] }>(
      "DELETE",
      `chatrooms/${id}/blocks/users/${users.split(",").map(enc).join(",")}`,
      { query: V3, resource: true },
    );
    return { ...r, data: (r.data ?? []).map((d) => ({ ...d, action: "remove_blocks", id: opts.chatRoomId })) };
  },

  async getChatRoomBlocklist(this: Connection, opts: { chatRoomId: string }): Promise<Reply<string[]>> {
    return this.rest("GET", `chatrooms/${rid(opts)}/blocks/users`);
  },

  async disableSendChatRoomMsg(this: Connection, opts: { chatRoomId: string }): Promise<Reply<{ mute: boolean }>> {
    return this.rest("POST", `chatrooms/${rid(opts)}/ban`, { query: V3, resource: true });
  },

  async enableSendChatRoomMsg(this: Connection, opts: { chatRoomId: string }): Promise<Reply<{ mute: boolean }>> {
    return this.rest("DELETE", `chatrooms/${rid(opts)}/ban`, { query: V3, resource: true });
  },

  async addUsersToChatRoomAllowlist(this: Connection, opts: { chatRoomId: string; users: string[] }): Promise<Reply> {
    const id = rid(opts);
    needArray(opts.users, "users", true);
    const r = await this.rest<{ data?: Record<string, unknown>[] | Record<string, unknown> }>(
      "POST",
      `chatrooms/${id}/white/users`,
      { body: { usernames: opts.users }, query: V3, resource: true },
    );
    const list = Array.isArray(r.data) ? r.data : r.data ? [r.data] : [];
    return { ...r, data: list.length === 1 ? list[0] : list };
  },

  async removeChatRoomAllowlistMember(
    this: Connection,
    opts: { chatRoomId: string; userName: string },
  ): Promise<Reply> {
    const id = rid(opts);
    const r = await this.rest<{ data?: Record<string, unknown>[] }>(
      "DELETE",
      `chatrooms/${id}/white/users/${enc(needStr(opts.userName, "userName"))}`,
      { query: V3, resource: true },
    );
    return { ...r, data: Array.isArray(r.data) ? r.data[0] : r.data };
  },

  async getChatRoomAllowlist(this: Connection, opts: { chatRoomId: string }): Promise<Reply<string[]>> {
    return this.rest("GET", `chatrooms/${rid(opts)}/white/users`);
  },

  async isInChatRoomAllowlist(
    this: Connection,
    opts: { chatRoomId: string; userName: string },
  ): Promise<Reply<{ white: boolean }>> {
    const id = rid(opts);
    return this.rest("GET", `chatrooms/${id}/white/users/${enc(needStr(opts.userName, "userName"))}`);
  },

  async fetchChatRoomAnnouncement(
    this: Connection,
    opts: { roomId: string },
  ): Promise<Reply<{ announcement: string }>> {
    return this.rest("GET", `chatrooms/${roomIdOf(opts)}/announcement`, { query: V3 });
  },

  async updateChatRoomAnnouncement(this: Connection, opts: { roomId: string; announcement: string }): Promise<Reply> {
    const id = roomIdOf(opts);
    if (typeof opts.announcement !== "string") throw invalid('Invalid parameter: "announcement"');
    return this.rest("POST", `chatrooms/${id}/announcement`, {
      body: { announcement: opts.announcement },
      query: V3,
      resource: true,
    });
  },

  async getChatRoomSharedFilelist(this: Connection, opts: { roomId: string }): Promise<Reply> {
    return this.rest("GET", `chatrooms/${roomIdOf(opts)}/share_files`);
  },

  async deleteChatRoomSharedFile(this: Connection, opts: { roomId: string; fileId: string }): Promise<Reply> {
    const id = roomIdOf(opts);
    return this.rest("DELETE", `chatrooms/${id}/share_files/${enc(needStr(opts.fileId, "fileId"))}`, {
      resource: true,
    });
  },

  async getChatRoomAttributes(
    this: Connection,
    opts: { chatRoomId: string; attributeKeys?: string[] },
  ): Promise<Reply<Record<string, string>>> {
    const id = rid(opts);
    if (opts.attributeKeys !== undefined && !Array.isArray(opts.attributeKeys)) {
      throw invalid('Invalid parameter: "attributeKeys"');
    }
    return this.rest("POST", `metadata/chatroom/${id}`, {
      body: opts.attributeKeys ? { keys: opts.attributeKeys } : {},
    });
  },

  async setChatRoomAttributes(
    this: Connection,
    opts: { chatRoomId: string; attributes: Record<string, string>; autoDelete?: boolean; isForced?: boolean },
  ): Promise<Reply> {
    const id = rid(opts);
    if (!opts.attributes || typeof opts.attributes !== "object") throw invalid('Invalid parameter: "attributes"');
    for (const [k, v] of Object.entries(opts.attributes)) {
      if (!isStr(k) || !isStr(v)) throw invalid('Invalid parameter: "attributes"');
    }
    const r = await this.rest<AttributeReply>("PUT", attributePath(this, id, opts.isForced), {
      body: { metaData: opts.attributes, autoDelete: opts.autoDelete === false ? "NO_DELETE" : "DELETE" },
    });
    return attributeResult(r);
  },

  async setChatRoomAttribute(
    this: Connection,
    opts: {
      chatRoomId: string;
      attributeKey: string;
      attributeValue: string;
      autoDelete?: boolean;
      isForced?: boolean;
    },
  ): Promise<Reply> {
    const id = rid(opts);
    needStr(opts.attributeKey, "attributeKey");
    needStr(opts.attributeValue, "attributeValue");
    const r = await this.rest<AttributeReply>("PUT", attributePath(this, id, opts.isForced), {
      body: {
        metaData: { [opts.attributeKey]: opts.attributeValue },
        autoDelete: opts.autoDelete === false ? "NO_DELETE" : "DELETE",
      },
    });
    return singleAttribute(r, opts.attributeKey);
  },

  async removeChatRoomAttributes(
    this: Connection,
    opts: { chatRoomId: string; attributeKeys: string[]; isForced?: boolean },
  ): Promise<Reply> {
    const id = rid(opts);
    const keys = needArray<string>(opts.attributeKeys, "attributeKeys");
    const r = await this.rest<AttributeReply>("DELETE", attributePath(this, id, opts.isForced), { body: { keys } });
    return attributeResult(r);
  },

  async removeChatRoomAttribute(
    this: Connection,
    opts: { chatRoomId: string; attributeKey: string; isForced?: boolean },
  ): Promise<Reply> {
    const id = rid(opts);
    needStr(opts.attributeKey, "attributeKey");
    const r = await this.rest<AttributeReply>("DELETE", attributePath(this, id, opts.isForced), {
      body: { keys: [opts.attributeKey] },
    });
    return singleAttribute(r, opts.attributeKey);
  },
};
