import type { Connection } from "../connection.js";
import { invalid } from "../errors.js";
import { asText } from "../proto.js";
import { enc, isNum, nameList, needArray, needNum, needObj, needStr, type RestReply as Reply } from "./check.js";

const V3 = { version: "v3" };

export interface CreateGroupData {
  groupname: string;
  desc?: string;
  members?: string[];
  public?: boolean;
  approval?: boolean;
  allowinvites?: boolean;
  inviteNeedConfirm?: boolean;
  maxusers?: number;
  ext?: string;
}

const gid = (opts: { groupId?: unknown } | undefined): string => enc(needStr(needObj(opts).groupId, "groupId"));

/** Members listed as `{owner|admin|member: id, joined_time}` → `{role, userId, joinedTime}`. */
export function membersOf(
  data: Record<string, unknown>[] | undefined,
): { role: string; userId: string; joinedTime?: number }[] {
  return (data ?? []).map((item) => {
    const role = ["owner", "admin", "member"].find((r) => r in item) ?? "member";
    return {
      role,
      userId: String(item[role]),
      ...(item.joined_time !== undefined && { joinedTime: Number(item.joined_time) }),
    };
  });
}

/** Groups (spec 02 §7, groups). */
export const groupsApi = {
  async createGroup(this: Connection, opts: { data: CreateGroupData }): Promise<Reply<{ groupid: string }>> {
    const d = needObj(needObj(opts).data, "data");
    if (typeof d.groupname !== "string") throw invalid('Invalid parameter: "groupname"');
    return this.rest("POST", "chatgroups", {
      body: {
        owner: this.user,
        groupname: d.groupname,
        desc: d.desc ?? "",
        members: d.members ?? [],
        public: d.public ?? false,
        approval: d.approval ?? false,
        allowinvites: d.allowinvites ?? false,
        invite_need_confirm: d.inviteNeedConfirm ?? false,
        maxusers: d.maxusers ?? 200,
        ...(d.ext !== undefined && { custom: d.ext }),
      },
      resource: true,
    });
  },

  async createGroupVNext(
    this: Connection,
    opts: {
      groupName: string;
      description?: string;
      members?: string[];
      avatar?: string;
      isPublic?: boolean;
      needApprovalToJoin?: boolean;
      allowMemberToInvite?: boolean;
      inviteNeedConfirm?: boolean;
      maxMemberCount?: number;
      extension?: string;
    },
  ): Promise<Reply<{ groupId: string }>> {
    needObj(opts);
    if (typeof opts.groupName !== "string") throw invalid('Invalid parameter: "groupName"');
    const r = await this.rest<{ data?: { groupid?: string } }>("POST", "chatgroups", {
      body: {
        owner: this.user,
        groupname: opts.groupName,
        avatar: opts.avatar ?? "",
        desc: opts.description ?? "",
        members: opts.members ?? [],
        public: opts.isPublic ?? false,
        approval: opts.needApprovalToJoin ?? false,
        allowinvites: opts.allowMemberToInvite ?? true,
        invite_need_confirm: opts.inviteNeedConfirm ?? false,
        maxusers: opts.maxMemberCount ?? 200,
        ...(opts.extension !== undefined && { custom: opts.extension }),
      },
      resource: true,
    });
    return { ...r, type: 0, data: { groupId: asText(r.data?.groupid) } };
  },

  async getPublicGroups(
    this: Connection,
    opts: { limit: number; cursor?: string },
  ): Promise<Reply<{ groupid: string; groupname: string }[]>> {
    needNum(needObj(opts).limit, "limit");
    const r = await this.rest<{ data?: { groupid?: string; id?: string; groupname?: string; name?: string }[] }>(
      "GET",
      "publicchatgroups",
      { query: { ...V3, limit: opts.limit, cursor: opts.cursor } },
    );
    return {
      ...r,
      data: (r.data ?? []).map((g) => ({
        groupid: asText(g.groupid ?? g.id),
        groupname: asText(g.groupname ?? g.name),
      })),
    };
  },

  async getJoinedGroups(
    this: Connection,
    opts: { pageNum: number; pageSize: number; needAffiliations?: boolean; needRole?: boolean },
  ): Promise<Reply> {
    needObj(opts);
    if (!isNum(opts.pageNum) || !isNum(opts.pageSize) || opts.pageNum < 0 || opts.pageSize < 0) {
      throw invalid('Invalid parameter: "pageNum or pageSize"');
    }
    if (opts.needAffiliations || opts.needRole) {
      const r = await this.rest<{ entities?: Record<string, unknown>[] }>("GET", `chatgroups/user/${enc(this.user)}`, {
        query: {
          pagenum: opts.pageNum,
          pagesize: opts.pageSize,
          needAffiliations: Boolean(opts.needAffiliations),
          needRole: Boolean(opts.needRole),
          ...V3,
        },
      });
      const entities = (r.entities ?? []).map((e) => ({
        groupId: asText(e.groupId ?? e.groupid),
        groupName: e.name ?? e.groupname,
        ...(opts.needAffiliations && { affiliationsCount: e.affiliations_count }),
        ...(opts.needRole && { role: e.permission }),
        disabled: e.disabled,
        approval: e.membersonly,
        allowInvites: e.allowinvites,
        description: e.description,
        maxUsers: e.maxusers,
        public: e.public,
      }));
      return { ...r, entities };
    }
    const r = await this.rest<{ data?: Record<string, unknown>[] }>(
      "GET",
      `users/${enc(this.user)}/joined_chatgroups`,
      { query: { pagenum: opts.pageNum, pagesize: opts.pageSize, ...V3 } },
    );
    return {
      ...r,
      data: (r.data ?? []).map((g) => ({
        groupid: asText(g.groupid ?? g.id),
        groupname: g.groupname ?? g.name,
        disabled: g.disabled,
        ...(g.permission !== undefined && { role: g.permission }),
      })),
    };
  },

  async getJoinedGroupsCount(this: Connection): Promise<Reply<number>> {
    return this.rest("GET", `chatgroups/user/${enc(this.user)}/joined_count`);
  },

  async getGroupInfo(
    this: Connection,
    opts: { groupId: string | string[] },
  ): Promise<Reply<Record<string, unknown>[]>> {
    needObj(opts);
    const ids = nameList(opts.groupId, "groupId");
    return this.rest("GET", `chatgroups/${ids.split(",").map(enc).join(",")}`, { query: { joined_time: true } });
  },

  async modifyGroup(
    this: Connection,
    opts: { groupId: string; groupName?: string; description?: string; ext?: string; avatar?: string },
  ): Promise<Reply> {
    const id = gid(opts);
    return this.rest("PUT", `chatgroups/${id}`, {
      body: { groupname: opts.groupName, avatar: opts.avatar, description: opts.description, custom: opts.ext },
      resource: true,
    });
  },

  async changeGroupOwner(this: Connection, opts: { groupId: string; newOwner: string }): Promise<Reply> {
    const id = gid(opts);
    needStr(opts.newOwner, "newOwner");
    return this.rest("PUT", `chatgroups/${id}`, { body: { newowner: opts.newOwner }, resource: true });
  },

  async destroyGroup(this: Connection, opts: { groupId: string }): Promise<Reply> {
    return this.rest("DELETE", `chatgroups/${gid(opts)}`, { query: V3, resource: true });
  },

  async leaveGroup(this: Connection, opts: { groupId: string }): Promise<Reply> {
    return this.rest("DELETE", `chatgroups/${gid(opts)}/quit`, { resource: true });
  },

  async listGroupMembers(
    this: Connection,
    opts: { groupId: string; pageNum: number; pageSize: number },
  ): Promise<Reply<Record<string, string>[]>> {
    const id = gid(opts);
    if (!isNum(opts.pageNum) || opts.pageNum <= 0) throw invalid('The parameter "pageNum" should be a positive number');
    if (!isNum(opts.pageSize) || opts.pageSize <= 0) {
      throw invalid('The parameter "pageSize" should be a positive number');
    }
    return this.rest("GET", `chatgroups/${id}/users`, {
      query: { ...V3, pagenum: opts.pageNum, pagesize: opts.pageSize },
    });
  },

  async getGroupMembers(
    this: Connection,
    opts: { groupId: string; cursor?: string; limit?: number },
  ): Promise<Reply<{ cursor?: string; members: { role: string; userId: string; joinedTime?: number }[] }>> {
    const id = gid(opts);
    const r = await this.rest<{ data?: Record<string, unknown>[]; cursor?: string }>("GET", `chatgroups/${id}/users`, {
      query: { cursor: opts.cursor, limit: opts.limit ?? 50, joined_time: true },
    });
    return { ...r, data: { cursor: r.cursor, members: membersOf(r.data) } };
  },

  async getGroupAdmin(this: Connection, opts: { groupId: string }): Promise<Reply<string[]>> {
    return this.rest("GET", `chatgroups/${gid(opts)}/admin`, { query: V3 });
  },

  async setGroupAdmin(this: Connection, opts: { groupId: string; username: string }): Promise<Reply> {
    const id = gid(opts);
    needStr(opts.username, "username");
    return this.rest("POST", `chatgroups/${id}/admin`, {
      body: { newadmin: opts.username },
      query: V3,
      resource: true,
    });
  },

  async removeGroupAdmin(this: Connection, opts: { groupId: string; username: string }): Promise<Reply> {
    const id = gid(opts);
    return this.rest("DELETE", `chatgroups/${id}/admin/${enc(needStr(opts.username, "username"))}`, {
      query: V3,
      resource: true,
    });
  },

  async inviteUsersToGroup(this: Connection, opts: { groupId: string; users: string[] }): Promise<Reply> {
    const id = gid(opts);
    needArray(opts.users, "users", true);
    return this.rest("POST", `chatgroups/${id}/invite`, { body: { usernames: opts.users }, resource: true });
  },

  async joinGroup(this: Connection, opts: { groupId: string; message?: string }): Promise<Reply> {
    const id = gid(opts);
    return this.rest("POST", `chatgroups/${id}/apply`, { body: { message: opts.message ?? "" }, resource: true });
  },

  async acceptGroupJoinRequest(this: Connection, opts: { groupId: string; applicant: string }): Promise<Reply> {
    const id = gid(opts);
    needStr(opts.applicant, "applicant");
    return this.rest("POST", `chatgroups/${id}/apply_verify`, {
      body: { applicant: opts.applicant, verifyResult: true, reason: "no clue" },
      resource: true,
    });
  },

  async rejectGroupJoinRequest(
    this: Connection,
    opts: { groupId: string; applicant: string; reason?: string },
  ): Promise<Reply> {
    const id = gid(opts);
    needStr(opts.applicant, "applicant");
    return this.rest("POST", `chatgroups/${id}/apply_verify`, {
      body: { applicant: opts.applicant, verifyResult: false, reason: opts.reason ?? "" },
      resource: true,
    });
  },

  async acceptGroupInvite(this: Connection, opts: { groupId: string; invitee: string }): Promise<Reply> {
    const id = gid(opts);
    needStr(opts.invitee, "invitee");
    return this.rest("POST", `chatgroups/${id}/invite_verify`, {
      body: { invitee: opts.invitee, verifyResult: true },
      resource: true,
    });
  },

  async rejectGroupInvite(this: Connection, opts: { groupId: string; invitee: string }): Promise<Reply> {
    const id = gid(opts);
    needStr(opts.invitee, "invitee");
    return this.rest("POST", `chatgroups/${id}/invite_verify`, {
      body: { invitee: opts.invitee, verifyResult: false },
      resource: true,
    });
  },

  async removeGroupMember(this: Connection, opts: { groupId: string; username: string }): Promise<Reply> {
    const id = gid(opts);
    return this.rest("DELETE", `chatgroups/${id}/users/${enc(needStr(opts.username, "username"))}`, { resource: true });
  },

  async removeGroupMembers(this: Connection, opts: { groupId: string; users: string[] }): Promise<Reply> {
    const id = gid(opts);
    const users = needArray<string>(opts.users, "users", true);
    return this.rest("DELETE", `chatgroups/${id}/users/${users.map(enc).join(",")}`, { resource: true });
  },

  async muteGroupMember(
    this: Connection,
    opts: { groupId: string; username: string | string[]; muteDuration: number },
  ): Promise<Reply> {
    const id = gid(opts);
    const users = nameList(opts.username, "username").split(",");
    needNum(opts.muteDuration, "muteDuration");
    return this.rest("POST", `chatgroups/${id}/mute`, {
      body: { usernames: users, mute_duration: opts.muteDuration },
      query: V3,
      resource: true,
    });
  },

  async unmuteGroupMember(this: Connection, opts: { groupId: string; username: string | string[] }): Promise<Reply> {
    const id = gid(opts);
    return this.rest(
      "DELETE",
      `chatgroups/${id}/mute/${nameList(opts.username, "username").split(",").map(enc).join(",")}`,
      { query: V3, resource: true },
    );
  },

  async getGroupMuteList(this: Connection, opts: { groupId: string }): Promise<Reply> {
    return this.rest("GET", `chatgroups/${gid(opts)}/mute`, { query: V3 });
  },

  async isInGroupMutelist(this: Connection, opts: { groupId: string }): Promise<Reply<boolean>> {
    return this.rest("GET", `sdk/chatgroups/${gid(opts)}/mute/${enc(this.user)}`, { query: V3 });
  },

  async blockGroupMember(this: Connection, opts: { groupId: string; username: string }): Promise<Reply> {
    const id = gid(opts);
    const r = await this.rest<{ data?: Record<string, unknown>[] }>(
      "POST",
      `chatgroups/${id}/blocks/users/${enc(needStr(opts.username, "username"))}`,
      { query: V3, resource: true },
    );
    return { ...r, data: { ...(r.data?.[0] ?? {}), action: "add_blocks", groupid: opts.groupId } };
  },

  async blockGroupMembers(this: Connection, opts: { groupId: string; usernames: string[] }): Promise<Reply> {
    const id = gid(opts);
    needArray(opts.usernames, "usernames", true);
    const r = await this.rest<{ data?: Record<string, unknown>[] }>("POST", `chatgroups/${id}/blocks/users`, {
      body: { usernames: opts.usernames },
      query: V3,
      resource: true,
    });
    return { ...r, data: (r.data ?? []).map((d) => ({ ...d, action: "add_blocks", groupid: opts.groupId })) };
  },

  async unblockGroupMember(this: Connection, opts: { groupId: string; username: string }): Promise<Reply> {
    const id = gid(opts);
    const r = await this.rest<{ data?: Record<string, unknown>[] }>(
      "DELETE",
      `chatgroups/${id}/blocks/users/${enc(needStr(opts.username, "username"))}`,
      { query: V3, resource: true },
    );
    return { ...r, data: { ...(r.data?.[0] ?? {}), action: "remove_blocks", groupid: opts.groupId } };
  },

  async unblockGroupMembers(this: Connection, opts: { groupId: string; usernames: string[] }): Promise<Reply> {
    const id = gid(opts);
    const users = needArray<string>(opts.usernames, "usernames", true);
    const r = await this.rest<{ data?: Record<string, unknown>[] }>(
      "DELETE",
      `chatgroups/${id}/blocks/users/${users.map(enc).join(",")}`,
      { query: V3, resource: true },
    );
    return { ...r, data: (r.data ?? []).map((d) => ({ ...d, action: "remove_blocks", groupid: opts.groupId })) };
  },

  async getGroupBlocklist(this: Connection, opts: { groupId: string }): Promise<Reply<string[]>> {
    return this.rest("GET", `chatgroups/${gid(opts)}/blocks/users`, { query: V3 });
  },

  async disableSendGroupMsg(this: Connection, opts: { groupId: string }): Promise<Reply<{ mute: boolean }>> {
    return this.rest("POST", `chatgroups/${gid(opts)}/ban`, { query: V3, resource: true });
  },

  async enableSendGroupMsg(this: Connection, opts: { groupId: string }): Promise<Reply<{ mute: boolean }>> {
    return this.rest("DELETE", `chatgroups/${gid(opts)}/ban`, { query: V3, resource: true });
  },

  async addUsersToGroupAllowlist(this: Connection, opts: { groupId: string; users: string[] }): Promise<Reply> {
    const id = gid(opts);
    needArray(opts.users, "users", true);
    const r = await this.rest<{ data?: Record<string, unknown>[] | Record<string, unknown> }>(
      "POST",
      `chatgroups/${id}/white/users`,
      { body: { usernames: opts.users }, query: V3, resource: true },
    );
    const list = (Array.isArray(r.data) ? r.data : r.data ? [r.data] : []).map((d) => ({
      ...d,
      groupid: opts.groupId,
    }));
    return { ...r, data: list.length === 1 ? list[0] : list };
  },

  async removeGroupAllowlistMember(this: Connection, opts: { groupId: string; userName: string }): Promise<Reply> {
    const id = gid(opts);
    const r = await this.rest<{ data?: Record<string, unknown>[] }>(
      "DELETE",
      `chatgroups/${id}/white/users/${enc(needStr(opts.userName, "userName"))}`,
      { query: V3, resource: true },
    );
    return { ...r, data: Array.isArray(r.data) ? r.data[0] : r.data };
  },

  async getGroupAllowlist(this: Connection, opts: { groupId: string }): Promise<Reply<string[]>> {
    return this.rest("GET", `chatgroups/${gid(opts)}/white/users`, { query: V3 });
  },

  async isInGroupAllowlist(
    this: Connection,
    opts: { groupId: string; userName: string },
  ): Promise<Reply<{ white: boolean }>> {
    const id = gid(opts);
    return this.rest("GET", `chatgroups/${id}/white/users/${enc(needStr(opts.userName, "userName"))}`, { query: V3 });
  },

  async getGroupMsgReadUser(this: Connection, opts: { groupId: string; msgId: string }): Promise<Reply> {
    const id = gid(opts);
    needStr(opts.msgId, "msgId");
    return this.rest("GET", `chatgroups/${id}/acks/${enc(opts.msgId)}`, { query: { limit: 500 } });
  },

  async fetchGroupAnnouncement(this: Connection, opts: { groupId: string }): Promise<Reply<{ announcement: string }>> {
    return this.rest("GET", `chatgroups/${gid(opts)}/announcement`, { query: V3 });
  },

  async updateGroupAnnouncement(this: Connection, opts: { groupId: string; announcement: string }): Promise<Reply> {
    const id = gid(opts);
    if (typeof opts.announcement !== "string") throw invalid('Invalid parameter: "announcement"');
    return this.rest("POST", `chatgroups/${id}/announcement`, {
      body: { announcement: opts.announcement },
      query: V3,
      resource: true,
    });
  },

  async getGroupSharedFilelist(
    this: Connection,
    opts: { groupId: string; pageNum?: number; pageSize?: number },
  ): Promise<Reply> {
    const id = gid(opts);
    return this.rest("GET", `chatgroups/${id}/share_files`, {
      query: { pagenum: opts.pageNum ?? 1, pagesize: opts.pageSize ?? 10, ...V3 },
    });
  },

  async deleteGroupSharedFile(this: Connection, opts: { groupId: string; fileId: string }): Promise<Reply> {
    const id = gid(opts);
    return this.rest("DELETE", `chatgroups/${id}/share_files/${enc(needStr(opts.fileId, "fileId"))}`, {
      resource: true,
    });
  },

  async setGroupMemberAttributes(
    this: Connection,
    opts: { groupId: string; userId: string; memberAttributes: Record<string, string> },
  ): Promise<Reply> {
    const id = gid(opts);
    needStr(opts.userId, "userId");
    if (!opts.memberAttributes || typeof opts.memberAttributes !== "object") {
      throw invalid('Invalid parameter: "memberAttributes"');
    }
    return this.rest("PUT", `sdk/metadata/chatgroup/${id}/user/${enc(opts.userId)}`, {
      body: { metaData: opts.memberAttributes },
      query: V3,
      resource: true,
    });
  },

  async getGroupMemberAttributes(
    this: Connection,
    opts: { groupId: string; userId: string },
  ): Promise<Reply<Record<string, string>>> {
    const id = gid(opts);
    needStr(opts.userId, "userId");
    const r = await this.rest<{ data?: Record<string, Record<string, string>> }>(
      "POST",
      `sdk/metadata/chatgroup/${id}/get`,
      { body: { targets: [opts.userId], properties: [] }, query: V3 },
    );
    return { ...r, data: r.data?.[opts.userId] ?? {} };
  },

  async getGroupMembersAttributes(
    this: Connection,
    opts: { groupId: string; userIds: string[]; keys?: string[] },
  ): Promise<Reply<Record<string, Record<string, string>>>> {
    const id = gid(opts);
    const users = needArray<string>(opts.userIds, "userIds", true);
    const keys = opts.keys ?? [];
    if (!Array.isArray(keys)) throw invalid('Invalid parameter: "keys"');
    return this.rest("POST", `sdk/metadata/chatgroup/${id}/get`, {
      body: { targets: users, properties: keys },
      query: V3,
    });
  },

  async blockGroupMessage(this: Connection, opts: { groupId: string }): Promise<Reply> {
    return this.rest("POST", `chatgroups/${gid(opts)}/shield`, { query: V3, resource: true });
  },

  async unblockGroupMessage(this: Connection, opts: { groupId: string }): Promise<Reply> {
    return this.rest("DELETE", `chatgroups/${gid(opts)}/shield`, { query: V3, resource: true });
  },

  /** The legacy switch: `PUT users/{me}` with `notification_ignore_{groupId}`. */
  async blockGroup(this: Connection, opts: { groupId: string }): Promise<Reply> {
    const id = needStr(needObj(opts).groupId, "groupId");
    return this.rest("PUT", `users/${enc(this.user)}`, {
      body: { entities: [{ [`notification_ignore_${id}`]: true }] },
      resource: true,
    });
  },
};
