import type { Connection } from "../connection.js";
import { uniqueId } from "../ids.js";
import type { ChatType } from "../message.js";
import { enc, type RestReply } from "./check.js";
import { conversationsApi } from "./conversations.js";
import { groupsApi } from "./groups.js";
import { usersApi, type USER_INFO_KEYS } from "./users.js";

/** Older names of the published client that apps still call, plus small helpers it has. */
export const aliasesApi = {
  /** Same as getContacts. */
  async getRoster(this: Connection): Promise<RestReply<string[]>> {
    return usersApi.getContacts.call(this);
  },
  /** Same as deleteContact. */
  async removeRoster(this: Connection, to: string): Promise<RestReply> {
    return usersApi.deleteContact.call(this, to);
  },
  /** Same as deleteConversation. */
  async deleteSession(
    this: Connection,
    opts: { channel: string; chatType: ChatType; deleteRoam: boolean },
  ): Promise<RestReply> {
    return conversationsApi.deleteConversation.call(this, opts);
  },
  /** Same as uploadPushToken. */
  async uploadToken(
    this: Connection,
    opts: { deviceId: string; deviceToken: string; notifierName: string },
  ): Promise<RestReply> {
    return usersApi.uploadPushToken.call(this, opts);
  },
  /** Same as updateOwnUserInfo. */
  async updateUserInfo(
    this: Connection,
    info: Partial<Record<(typeof USER_INFO_KEYS)[number], string>> | string,
    value?: string,
  ): Promise<RestReply<Record<string, string>>> {
    return usersApi.updateOwnUserInfo.call(this, info, value);
  },
  /** Same as getPublicGroups. */
  async listGroups(
    this: Connection,
    opts: { limit: number; cursor?: string },
  ): Promise<RestReply<{ groupid: string; groupname: string }[]>> {
    return groupsApi.getPublicGroups.call(this, opts);
  },
  /** A new local message id (milliseconds since 2010-02-01 plus a counter). */
  getUniqueId(this: Connection): string {
    return uniqueId();
  },
  /** The user's other logged-in devices, as `user/resource`. */
  async getSelfIdsOnOtherPlatform(this: Connection): Promise<string[]> {
    const r = await this.rest<{ data?: { res?: string }[] }>("GET", `users/${enc(this.user)}/resources`);
    return (r.data ?? [])
      .map((d) => d.res ?? "")
      .filter((res) => res && res !== this.clientResource)
      .map((res) => `${this.user}/${res}`);
  },
};
