import type { Connection } from "../connection.js";
import { err, invalid } from "../errors.js";
import { request } from "../http.js";
import { statusCode as C } from "../status.js";
import { enc, isNum, isStr, needArray, needNum, needObj, needStr, type RestReply as Reply } from "./check.js";

/** The user-info keys a profile may carry (spec 02 §5); anything else is an 'illegal key'. */
export const USER_INFO_KEYS = ["nickname", "avatarurl", "mail", "phone", "gender", "sign", "birth", "ext"] as const;
const ILLEGAL_KEY =
  "illegal key, only these keys: nickname, avatarurl, mail, phone, gender, sign, birth, ext are allowed";

function me(c: Connection): string {
  return enc(c.user);
}

/** Users, contacts, the block list, push token, presence, silent mode and translation. */
export const usersApi = {
  /** Registers a user (`POST /{org}/{app}/users`, no token). */
  async registerUser(
    this: Connection,
    opts: { username: string; password: string; nickname?: string },
  ): Promise<Reply> {
    needObj(opts);
    if (!this.orgName || !this.appName) throw err(C.WEBIM_CONNCTION_APPKEY_NOT_ASSIGN_ERROR, "AppKey illegal");
    if (!isStr(opts.username)) throw err(C.WEBIM_CONNCTION_USER_NOT_ASSIGN_ERROR, "the user cannot be empty");
    needStr(opts.password, "password");
    try {
      const reply = await request({
        method: "POST",
        url: `${this.apiUrl}/${this.orgName}/${this.appName}/users`,
        body: { username: opts.username, password: opts.password, nickname: opts.nickname ?? "" },
      });
      return { ...reply, type: 0 };
    } catch (e) {
      const inner = e as { message?: string };
      throw err(C.WEBIM_CONNCTION_OPEN_USERGRID_ERROR, inner.message || "signup error", e);
    }
  },

  async getTokenExpireTimestamp(this: Connection, token: string): Promise<{ expire_timestamp: number }> {
    needStr(token, "token");
    if (!this.user) throw err(C.REST_PARAMS_STATUS, "appkey or token error");
    const reply = await request<{ expire_timestamp: number }>({
      method: "GET",
      url: `${this.apiUrl}/${this.orgName}/${this.appName}/sdk/users/${me(this)}/token/expires`,
      token,
    });
    return reply;
  },

  /** Switches to a new token and restarts the expiry timers from its expiry time. */
  async renewToken(this: Connection, token: string): Promise<{ status: boolean; token: string; expire: number }> {
    const { expire_timestamp } = await usersApi.getTokenExpireTimestamp.call(this, token);
    this.token = token;
    this.context.accessToken = token;
    this.setTokenExpiry(expire_timestamp);
    return { status: true, token, expire: expire_timestamp };
  },

  async updateCurrentUserNick(this: Connection, nick: string): Promise<Reply> {
    if (typeof nick !== "string") throw invalid('Invalid parameter: "nick"');
    return this.rest("PUT", `users/${me(this)}`, { body: { nickname: nick } });
  },

  async uploadPushToken(
    this: Connection,
    opts: { deviceId: string; deviceToken: string; notifierName: string },
  ): Promise<Reply> {
    needObj(opts);
    needStr(opts.deviceId, "deviceId");
    needStr(opts.deviceToken, "deviceToken");
    needStr(opts.notifierName, "notifierName");
    const reply = await this.rest<{ entities?: unknown[] }>("PUT", `users/${me(this)}`, {
      body: { device_id: opts.deviceId, device_token: opts.deviceToken, notifier_name: opts.notifierName },
    });
    return { type: 0, data: reply.entities?.[0] ?? {} };
  },

  async unbindPushToken(this: Connection, opts: { deviceId: string; notifierName: string }): Promise<Reply> {
    needObj(opts);
    needStr(opts.deviceId, "deviceId");
    needStr(opts.notifierName, "notifierName");
    const reply = await this.rest<{ entities?: unknown[] }>("PUT", `users/${me(this)}`, {
      body: { device_id: opts.deviceId, device_token: "", notifier_name: opts.notifierName },
    });
    return { type: 0, data: reply.entities?.[0] ?? {} };
  },

  /** Sets the own profile: an object of keys, or one key and its value. */
  async updateOwnUserInfo(
    this: Connection,
    info: Record<string, string> | string,
    value?: string,
  ): Promise<Reply<Record<string, string>>> {
    const fields: Record<string, string> =
      typeof info === "string" ? { [info]: String(value ?? "") } : { ...needObj(info, "userInfo") };
    for (const k of Object.keys(fields)) {
      if (!(USER_INFO_KEYS as readonly string[]).includes(k)) throw invalid(ILLEGAL_KEY);
    }
    return this.rest("PUT", `metadata/user/${me(this)}`, {
      form: Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, String(v)])),
    });
  },

  async fetchUserInfoById(
    this: Connection,
    users: string | string[],
    properties?: string | string[],
  ): Promise<Reply<Record<string, Record<string, string>>>> {
    const targets = typeof users === "string" ? [users] : users;
    if (!Array.isArray(targets) || targets.length === 0 || !targets.every(isStr)) {
      throw invalid('Invalid parameter: "users"');
    }
    const props =
      properties === undefined ? [...USER_INFO_KEYS] : typeof properties === "string" ? [properties] : properties;
    return this.rest("POST", "metadata/user/get", { body: { targets, properties: props } });
  },

  // --------------------------------------------------------------- contacts

  async getContacts(this: Connection): Promise<Reply<string[]>> {
    return this.rest("GET", `users/${me(this)}/contacts/users`);
  },

  async getAllContacts(this: Connection): Promise<Reply<{ userId: string; remark: string }[]>> {
    const r = await this.rest<{ entities?: { username: string; remark?: string }[] }>(
      "GET",
      `users/${me(this)}/contacts/users`,
      { query: { needReturnRemark: true } },
    );
    return { type: 0, data: (r.entities ?? []).map((e) => ({ userId: e.username, remark: e.remark ?? "" })) };
  },

  async getContactsWithCursor(
    this: Connection,
    opts: { pageSize?: number; cursor?: string } = {},
  ): Promise<Reply<{ contacts: { userId: string; remark: string }[]; cursor: string | null }>> {
    const limit = opts.pageSize ?? 20;
    needNum(limit, "pageSize");
    const r = await this.rest<{
      data?: { contacts?: { username: string; remark?: string }[]; cursor?: string | null };
    }>("GET", `users/${me(this)}/contacts`, { query: { needReturnRemark: true, limit, cursor: opts.cursor } });
    return {
      type: 0,
      data: {
        contacts: (r.data?.contacts ?? []).map((e) => ({ userId: e.username, remark: e.remark ?? "" })),
        cursor: r.data?.cursor ?? null,
      },
    };
  },

  async addContact(this: Connection, to: string, message?: string): Promise<Reply> {
    needStr(to, "to");
    return this.rest("POST", `users/${me(this)}/contacts/apply`, {
      body: { usernames: [to], reason: message ?? "" },
      resource: true,
    });
  },

  async deleteContact(this: Connection, to: string): Promise<Reply> {
    needStr(to, "to");
    return this.rest("DELETE", `users/${me(this)}/contacts/users/${enc(to)}`, { resource: true });
  },

  async acceptContactInvite(this: Connection, from: string): Promise<Reply> {
    needStr(from, "from");
    return this.rest("POST", `users/${me(this)}/contacts/accept/users/${enc(from)}`, { resource: true });
  },

  async declineContactInvite(this: Connection, from: string): Promise<Reply> {
    needStr(from, "from");
    return this.rest("POST", `users/${me(this)}/contacts/decline/users/${enc(from)}`, { resource: true });
  },

  async setContactRemark(this: Connection, opts: { userId: string; remark: string }): Promise<Reply> {
    needObj(opts);
    needStr(opts.userId, "userId");
    if (typeof opts.remark !== "string") throw invalid('Invalid parameter: "remark"');
    return this.rest("PUT", `users/${me(this)}/contacts/users/${enc(opts.userId)}`, {
      body: { remark: opts.remark },
      resource: true,
    });
  },

  async getBlocklist(this: Connection): Promise<Reply<string[]>> {
    return this.rest("GET", `users/${me(this)}/blocks/users`);
  },

  async addUsersToBlocklist(
    this: Connection,
    opts: { name: string | string[] },
  ): Promise<Reply<{ userIds: string[] }>> {
    const names = blockNames(opts);
    const r = await this.rest<{ data?: string[] }>("POST", `sdk/user/${me(this)}/blocks`, {
      body: { usernames: names },
      resource: true,
    });
    return { type: 0, data: { userIds: r.data ?? [] } };
  },

  async removeUserFromBlocklist(this: Connection, opts: { name: string | string[] }): Promise<Reply> {
    const names = blockNames(opts);
    return this.rest("DELETE", `sdk/user/${me(this)}/blocks`, { body: { usernames: names }, resource: true });
  },

  // --------------------------------------------------------------- presence

  async publishPresence(this: Connection, opts: { description: string }): Promise<Reply> {
    needObj(opts);
    if (typeof opts.description !== "string") throw invalid('Invalid parameter: "description"');
    return this.rest("POST", `users/${me(this)}/presence/${enc(this.clientResource || "webim")}/1`, {
      body: { ext: opts.description },
    });
  },

  async subscribePresence(
    this: Connection,
    opts: { usernames: string[]; expiry: number },
  ): Promise<Reply<{ result: unknown }>> {
    needObj(opts);
    needArray(opts.usernames, "usernames", true);
    needNum(opts.expiry, "expiry");
    const r = await this.rest<{ result?: unknown }>("POST", `users/${me(this)}/presence/${opts.expiry}`, {
      body: { usernames: opts.usernames },
    });
    return { ...r, data: { result: r.result } };
  },

  async unsubscribePresence(this: Connection, opts: { usernames: string[] }): Promise<Reply> {
    needObj(opts);
    needArray(opts.usernames, "usernames", true);
    return this.rest("DELETE", `users/${me(this)}/presence`, { body: opts.usernames });
  },

  async getSubscribedPresenceList(
    this: Connection,
    opts: { pageNum: number; pageSize: number },
  ): Promise<Reply<{ result: unknown }>> {
    needObj(opts);
    if (!isNum(opts.pageNum) || !isNum(opts.pageSize) || opts.pageNum < 0 || opts.pageSize < 0) {
      throw invalid('"pageNum" should >= 0 and "pageSize" should >= 0');
    }
    const r = await this.rest<{ result?: unknown }>("GET", `users/${me(this)}/presence/sublist`, {
      query: { pageNum: opts.pageNum, pageSize: opts.pageSize },
    });
    return { ...r, data: { result: r.result } };
  },

  async getPresenceStatus(this: Connection, opts: { usernames: string[] }): Promise<Reply<{ result: unknown }>> {
    needObj(opts);
    needArray(opts.usernames, "usernames", true);
    const r = await this.rest<{ result?: unknown }>("POST", `users/${me(this)}/presence`, {
      body: { usernames: opts.usernames },
    });
    return { ...r, data: { result: r.result } };
  },

  // --------------------------------------------------------------- silent mode

  async setSilentModeForAll(this: Connection, params: { options: SilentOptions }): Promise<Reply> {
    const body = silentBody(params);
    return this.rest("PUT", `users/${me(this)}/notification/user/${me(this)}`, { body, resource: true });
  },

  async getSilentModeForAll(this: Connection): Promise<Reply> {
    return this.rest("GET", `users/${me(this)}/notification/user/${me(this)}`);
  },

  async setSilentModeForConversation(
    this: Connection,
    params: { conversationId: string; type: string; options: SilentOptions },
  ): Promise<Reply> {
    const path = conversationPath(this, params);
    return this.rest("PUT", path, { body: silentBody(params), resource: true });
  },

  async getSilentModeForConversation(
    this: Connection,
    params: { conversationId: string; type: string },
  ): Promise<Reply> {
    return this.rest("GET", conversationPath(this, params));
  },

  async clearRemindTypeForConversation(
    this: Connection,
    params: { conversationId: string; type: string },
  ): Promise<Reply> {
    return this.rest("PUT", conversationPath(this, params), { body: { type: "DEFAULT" }, resource: true });
  },

  async getSilentModeForConversations(
    this: Connection,
    params: { conversationList: { id: string; type: string }[] },
  ): Promise<Reply> {
    needObj(params);
    const list = needArray<{ id: string; type: string }>(params.conversationList, "conversationList");
    const users = list.filter((c) => c.type === "singleChat").map((c) => c.id);
    const groups = list.filter((c) => c.type !== "singleChat").map((c) => c.id);
    return this.rest("GET", `users/${me(this)}/notification`, {
      query: { user: users.join(","), group: groups.join(",") },
    });
  },

  async getSilentModeRemindTypeConversations(
    this: Connection,
    opts: { pageSize?: number; cursor?: string } = {},
  ): Promise<Reply<{ conversations: { conversationId: string; type: string; remindType: string }[]; cursor: string }>> {
    const r = await this.rest<{ data?: { user?: string; group?: string; value?: string }[]; cursor?: string }>(
      "GET",
      `users/${me(this)}/notification/mute/type`,
      { query: { limit: opts.pageSize ?? 10, cursor: opts.cursor } },
    );
    const conversations = (r.data ?? []).map((d) => ({
      conversationId: String(d.user ?? d.group ?? ""),
      type: d.user ? "singleChat" : "groupChat",
      remindType: String(d.value ?? ""),
    }));
    return { type: 0, data: { conversations, cursor: r.cursor ?? "" } };
  },

  async setPushPerformLanguage(this: Connection, opts: { language: string }): Promise<Reply> {
    needObj(opts);
    needStr(opts.language, "language");
    return this.rest("PUT", `users/${me(this)}/notification/language`, {
      body: { translationLanguage: opts.language },
    });
  },

  async getPushPerformLanguage(this: Connection): Promise<Reply> {
    return this.rest("GET", `users/${me(this)}/notification/language`);
  },

  // --------------------------------------------------------------- translation

  async getSupportedLanguages(this: Connection): Promise<Reply> {
    return this.rest("GET", `users/${me(this)}/translate/support/language`);
  },

  async translateMessage(this: Connection, opts: { text: string; languages: string[] }): Promise<Reply> {
    needObj(opts);
    needStr(opts.text, "text");
    needArray(opts.languages, "languages");
    return this.rest("POST", `users/${me(this)}/translate`, { body: { text: opts.text, to: opts.languages } });
  },
};

function blockNames(opts: { name: string | string[] } | undefined): string[] {
  const name = opts?.name;
  if (isStr(name)) return [name];
  if (Array.isArray(name) && name.length > 0 && name.every(isStr)) return name;
  throw invalid('Invalid parameter: "name"');
}

/** Silent-mode options: paramType 0 remind type, 1 duration, 2 interval (spec 03 §5). */
export interface SilentOptions {
  paramType: 0 | 1 | 2;
  remindType?: string;
  duration?: number;
  startTime?: { hours: number; minutes: number };
  endTime?: { hours: number; minutes: number };
}

function silentBody(params: { options: SilentOptions } | undefined): Record<string, unknown> {
  const o = params?.options;
  if (!o || typeof o !== "object") throw invalid('Invalid parameter: "options"');
  if (typeof o.paramType !== "number" || o.paramType < 0 || o.paramType > 2) {
    throw invalid('Invalid parameter: "options of paramType"');
  }
  if (o.paramType === 0) {
    if (typeof o.remindType !== "string") throw invalid('Invalid parameter: "options of remindType"');
    return { type: o.remindType };
  }
  if (o.paramType === 1) {
    if (typeof o.duration !== "number") throw invalid('Invalid parameter: "options of duration"');
    return { ignoreDuration: o.duration };
  }
  const time = (t: { hours: number; minutes: number } | undefined, name: "startTime" | "endTime"): string => {
    if (!t || typeof t !== "object" || Object.keys(t).length === 0) {
      throw invalid(`Invalid parameter: "options of ${name}"`);
    }
    // Hours and minutes must both be nonzero numbers (spec 03 §5: zero is rejected).
    if (typeof t.hours !== "number" || !t.hours || typeof t.minutes !== "number" || !t.minutes) {
      throw invalid(`Invalid parameter: "options of ${name} of hours or minutes"`);
    }
    return `${t.hours}:${t.minutes}`;
  };
  return { ignoreInterval: `${time(o.startTime, "startTime")}-${time(o.endTime, "endTime")}` };
}

function conversationPath(c: Connection, params: { conversationId: string; type: string } | undefined): string {
  needObj(params);
  needStr(params!.conversationId, "conversationId");
  needStr(params!.type, "type");
  const kind = params!.type === "singleChat" ? "user" : "chatgroup";
  return `users/${enc(c.user)}/notification/${kind}/${enc(params!.conversationId)}`;
}
