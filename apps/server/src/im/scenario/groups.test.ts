import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { scenarioSdk } from "./clients";
import { startScenario, type Client, type Scenario } from "./setup";

/**
 * A group's whole life driven by a client SDK over REST (the published one, then ours: see clients.ts): create, modify, members and roles,
 * mutes, blocks, the allowlist and ban, announcement, shared files, member attributes, apply and invite
 * flows, change of owner and dissolution. Each call resolves with what the client reads, or rejects with
 * the `type` the client maps from our status and error text.
 */
let s: Scenario;
let owner: Client;
let admin: Client;
let member: Client;
let outsider: Client;
let groupId: string;

beforeAll(async () => {
  s = await startScenario();
  [owner, admin, member, outsider] = await Promise.all([
    s.client("owner"),
    s.client("admin"),
    s.client("member"),
    s.client("outsider"),
  ]);
});
afterAll(async () => {
  await s?.close();
});

type Reply<T = unknown> = { type: number; data: T; [k: string]: unknown };

describe(`a group driven by the ${scenarioSdk().name} client`, () => {
  test("create with every field, then read it back as details, lists and counts", async () => {
    const created = await owner.call<Reply<{ groupid: string }>>("createGroup", {
      data: {
        groupname: "Traders",
        desc: "price talk",
        members: [admin.name, member.name],
        public: true,
        approval: true,
        allowinvites: false,
        inviteNeedConfirm: false,
        maxusers: 50,
        ext: '{"tier":1}',
      },
    });
    expect(created.type).toBe(0);
    groupId = created.data.groupid;
    expect(groupId).toMatch(/^\d+$/);

    const info = await member.call<Reply<Record<string, unknown>[]>>("getGroupInfo", { groupId });
    expect(info.data[0]).toMatchObject({
      id: groupId,
      name: "Traders",
      description: "price talk",
      public: true,
      membersonly: true,
      allowinvites: false,
      maxusers: 50,
      owner: owner.name,
      custom: '{"tier":1}',
      affiliations_count: 3,
    });

    const pub = await outsider.call<Reply<{ groupid: string; groupname: string }[]>>("getPublicGroups", { limit: 100 });
    expect(pub.data).toContainEqual(expect.objectContaining({ groupid: groupId, groupname: "Traders" }));

    const joined = await member.call<Reply<{ groupid: string; groupname: string; role?: string }[]>>(
      "getJoinedGroups",
      { pageNum: 1, pageSize: 20 },
    );
    expect(joined.data).toContainEqual(expect.objectContaining({ groupid: groupId, groupname: "Traders" }));
    const detailed = await member.call<{ entities: Record<string, unknown>[] }>("getJoinedGroups", {
      pageNum: 1,
      pageSize: 20,
      needAffiliations: true,
      needRole: true,
    });
    expect(detailed.entities).toContainEqual(
      expect.objectContaining({
        groupId,
        groupName: "Traders",
        role: "member",
        affiliationsCount: 3,
        approval: true,
        public: true,
        maxUsers: 50,
      }),
    );

    const count = await member.call<Reply<number>>("getJoinedGroupsCount");
    expect(count.data).toBe(1);

    const members = await owner.call<Reply<{ members: { userId: string; role: string }[] }>>("getGroupMembers", {
      groupId,
      limit: 50,
    });
    expect(members.data.members.map((m) => m.role).sort()).toEqual(["member", "member", "owner"]);
    const listed = await owner.call<Reply<Record<string, string>[]>>("listGroupMembers", {
      groupId,
      pageNum: 1,
      pageSize: 20,
    });
    expect(listed.data).toContainEqual({ owner: owner.name });
    expect(listed.data).toContainEqual({ member: member.name });

    const missing = await outsider.fail("getGroupInfo", { groupId: "999999999999" });
    expect(missing.type).toBe(s.code.GROUP_NOT_EXIST);
  });

  test("modify is for the owner and admins; a member is refused", async () => {
    const r = await owner.call<Reply>("modifyGroup", {
      groupId,
      groupName: "Traders HK",
      description: "prices in HKD",
      ext: "x",
    });
    expect(r.type).toBe(0);
    const info = await owner.call<Reply<Record<string, unknown>[]>>("getGroupInfo", { groupId });
    expect(info.data[0]).toMatchObject({ name: "Traders HK", description: "prices in HKD", custom: "x" });
    expect((await member.fail("modifyGroup", { groupId, groupName: "mine" })).type).toBe(s.code.PERMISSION_DENIED);
  });

  test("admins: set by the owner, listed, refused to members, removed", async () => {
    expect((await member.fail("setGroupAdmin", { groupId, username: member.name })).type).toBe(
      s.code.PERMISSION_DENIED,
    );
    await owner.call("setGroupAdmin", { groupId, username: admin.name });
    const admins = await member.call<Reply<string[]>>("getGroupAdmin", { groupId });
    expect(admins.data).toEqual([admin.name]);
    await owner.call("setGroupAdmin", { groupId, username: member.name });
    await owner.call("removeGroupAdmin", { groupId, username: member.name });
    expect((await owner.call<Reply<string[]>>("getGroupAdmin", { groupId })).data).toEqual([admin.name]);
  });

  test("mute with a duration, the mute list, the own mute check, unmute; members may not mute", async () => {
    expect((await member.fail("muteGroupMember", { groupId, username: admin.name, muteDuration: 60_000 })).type).toBe(
      s.code.PERMISSION_DENIED,
    );
    const muted = await admin.call<Reply<{ user: string; result: boolean; expire: number }[]>>("muteGroupMember", {
      groupId,
      username: member.name,
      muteDuration: 60_000,
    });
    expect(muted.data[0]).toMatchObject({ user: member.name, result: true });
    const list = await owner.call<Reply<{ user: string; expire: number }[]>>("getGroupMuteList", { groupId });
    expect(list.data.map((m) => m.user)).toEqual([member.name]);
    const self = await member.call<Reply<boolean>>("isInGroupMutelist", { groupId });
    expect(self.data).toBe(true);
    await admin.call("unmuteGroupMember", { groupId, username: member.name });
    expect((await member.call<Reply<boolean>>("isInGroupMutelist", { groupId })).data).toBe(false);
  });

  test("ban and allowlist: whole-group mute, allowlisted users checked and removed", async () => {
    expect((await member.fail("disableSendGroupMsg", { groupId })).type).toBe(s.code.PERMISSION_DENIED);
    const off = await admin.call<Reply<{ mute: boolean }>>("disableSendGroupMsg", { groupId });
    expect(off.data.mute).toBe(true);
    const added = await admin.call<Reply<Record<string, unknown>>>("addUsersToGroupAllowlist", {
      groupId,
      users: [member.name],
    });
    expect(added.type).toBe(0);
    expect((await owner.call<Reply<string[]>>("getGroupAllowlist", { groupId })).data).toEqual([member.name]);
    const is = await member.call<Reply<{ white: boolean }>>("isInGroupAllowlist", { groupId, userName: member.name });
    expect(is.data.white).toBe(true);
    await admin.call("removeGroupAllowlistMember", { groupId, userName: member.name });
    expect((await owner.call<Reply<string[]>>("getGroupAllowlist", { groupId })).data).toEqual([]);
    const on = await admin.call<Reply<{ mute: boolean }>>("enableSendGroupMsg", { groupId });
    expect(on.data.mute).toBe(false);
  });

  test("announcement: members read it, only the owner or an admin writes it", async () => {
    await admin.call("updateGroupAnnouncement", { groupId, announcement: "market opens at 9" });
    const ann = await member.call<Reply<{ announcement: string }>>("fetchGroupAnnouncement", { groupId });
    expect(ann.data.announcement).toBe("market opens at 9");
    expect((await member.fail("updateGroupAnnouncement", { groupId, announcement: "x" })).type).toBe(
      s.code.PERMISSION_DENIED,
    );
    // A public group's announcement is public; a private group's is for members (see the invite test).
    expect(
      (await outsider.call<Reply<{ announcement: string }>>("fetchGroupAnnouncement", { groupId })).data.announcement,
    ).toBe("market opens at 9");
  });

  test("shared files: upload through the client's uploader, list, download, delete", async () => {
    const bytes = Buffer.from("price list v1\n");
    const uploaded = await new Promise<Record<string, unknown>>((resolve, reject) => {
      void owner.call("uploadGroupSharedFile", {
        groupId,
        file: {
          data: new File([bytes], "prices.txt", { type: "text/plain" }),
          filename: "prices.txt",
          filetype: "txt",
        },
        onFileUploadComplete: resolve,
        onFileUploadError: reject,
      });
    });
    const data = uploaded.data as { file_id: string; file_name: string; file_size: number };
    expect(data).toMatchObject({ file_name: "prices.txt", file_size: bytes.length });

    const list = await member.call<Reply<{ file_id: string; file_name: string }[]>>("getGroupSharedFilelist", {
      groupId,
      pageNum: 1,
      pageSize: 10,
    });
    expect(list.data.map((f) => f.file_id)).toEqual([data.file_id]);

    const blob = await new Promise<Blob>((resolve, reject) => {
      void member.call("downloadGroupSharedFile", {
        groupId,
        fileId: data.file_id,
        onFileDownloadComplete: resolve,
        onFileDownloadError: reject,
      });
    });
    expect(Buffer.from(await blob.arrayBuffer()).toString()).toBe("price list v1\n");

    const refused = await new Promise<{ type: number }>((resolve, reject) => {
      void outsider.call("downloadGroupSharedFile", {
        groupId,
        fileId: data.file_id,
        onFileDownloadComplete: () => reject(new Error("an outsider downloaded a group file")),
        onFileDownloadError: resolve,
      });
    });
    expect(refused.type).toBe(s.code.PERMISSION_DENIED);

    expect((await member.fail("deleteGroupSharedFile", { groupId, fileId: data.file_id })).type).toBe(
      s.code.PERMISSION_DENIED,
    );
    await owner.call("deleteGroupSharedFile", { groupId, fileId: data.file_id });
    expect(
      (await member.call<Reply<unknown[]>>("getGroupSharedFilelist", { groupId, pageNum: 1, pageSize: 10 })).data,
    ).toEqual([]);
  });

  test("member attributes: members set their own, the owner and admins anyone's; others are refused", async () => {
    await member.call("setGroupMemberAttributes", {
      groupId,
      userId: member.name,
      memberAttributes: { nick: "Mo", desk: "FX" },
    });
    const one = await owner.call<Reply<Record<string, string>>>("getGroupMemberAttributes", {
      groupId,
      userId: member.name,
    });
    expect(one.data).toEqual({ nick: "Mo", desk: "FX" });
    const many = await owner.call<Reply<Record<string, Record<string, string>>>>("getGroupMembersAttributes", {
      groupId,
      userIds: [member.name, admin.name],
      keys: ["nick"],
    });
    expect(many.data[member.name]).toEqual({ nick: "Mo" });
    await admin.call("setGroupMemberAttributes", { groupId, userId: member.name, memberAttributes: { desk: "Rates" } });
    expect(
      (await member.call<Reply<Record<string, string>>>("getGroupMemberAttributes", { groupId, userId: member.name }))
        .data,
    ).toEqual({ nick: "Mo", desk: "Rates" });
    expect(
      (await member.fail("setGroupMemberAttributes", { groupId, userId: admin.name, memberAttributes: { nick: "x" } }))
        .type,
    ).toBe(s.code.NO_PERMISSION);
    expect((await outsider.fail("getGroupMemberAttributes", { groupId, userId: member.name })).type).toBe(
      s.code.GROUP_NOT_JOINED,
    );
  });

  test("blocks: blocked members leave and cannot rejoin until unblocked", async () => {
    expect((await member.fail("blockGroupMember", { groupId, username: admin.name })).type).toBe(
      s.code.PERMISSION_DENIED,
    );
    const one = await admin.call<Reply<{ user: string; result: boolean; action: string }>>("blockGroupMember", {
      groupId,
      username: member.name,
    });
    expect(one.data).toMatchObject({ user: member.name, result: true, action: "add_blocks", groupid: groupId });
    expect((await owner.call<Reply<string[]>>("getGroupBlocklist", { groupId })).data).toEqual([member.name]);
    expect((await member.fail("joinGroup", { groupId, message: "let me back" })).type).toBe(s.code.PERMISSION_DENIED);
    const unblocked = await admin.call<Reply<{ user: string; action: string }>>("unblockGroupMember", {
      groupId,
      username: member.name,
    });
    expect(unblocked.data).toMatchObject({ user: member.name, action: "remove_blocks" });

    const many = await admin.call<Reply<{ user: string }[]>>("blockGroupMembers", {
      groupId,
      usernames: [outsider.name],
    });
    expect(many.data.map((d) => d.user)).toEqual([outsider.name]);
    await admin.call("unblockGroupMembers", { groupId, usernames: [outsider.name] });
    expect((await owner.call<Reply<string[]>>("getGroupBlocklist", { groupId })).data).toEqual([]);
  });

  test("apply: an approval group queues the request; an admin accepts or rejects it", async () => {
    await member.call("joinGroup", { groupId, message: "back again" });
    expect((await member.fail("getGroupMembers", { groupId })).type).toBe(s.code.GROUP_NOT_JOINED);
    expect((await member.fail("acceptGroupJoinRequest", { groupId, applicant: member.name })).type).toBe(
      s.code.GROUP_NOT_JOINED,
    );
    await admin.call("acceptGroupJoinRequest", { groupId, applicant: member.name });
    expect(
      (await member.call<Reply<Record<string, unknown>[]>>("getGroupInfo", { groupId })).data[0]?.affiliations_count,
    ).toBe(3);

    await outsider.call("joinGroup", { groupId, message: "hello" });
    await admin.call("rejectGroupJoinRequest", { groupId, applicant: outsider.name, reason: "members only" });
    expect((await outsider.fail("acceptGroupJoinRequest", { groupId, applicant: outsider.name })).type).toBe(
      s.code.GROUP_NOT_JOINED,
    );
    expect((await member.fail("joinGroup", { groupId, message: "twice" })).type).toBe(s.code.GROUP_ALREADY_JOINED);
  });

  test("invite: members may not invite (allowinvites off); the owner's invite needs no confirmation here", async () => {
    expect((await member.fail("inviteUsersToGroup", { groupId, users: [outsider.name] })).type).toBe(
      s.code.PERMISSION_DENIED,
    );
    await owner.call("inviteUsersToGroup", { groupId, users: [outsider.name] });
    const members = await owner.call<Reply<{ members: { userId: string }[] }>>("getGroupMembers", {
      groupId,
      limit: 50,
    });
    expect(members.data.members.map((m) => m.userId)).toContain(outsider.name);
    await owner.call("removeGroupMember", { groupId, username: outsider.name });
    expect((await outsider.fail("getGroupMembers", { groupId })).type).toBe(s.code.GROUP_NOT_JOINED);
  });

  test("invite with confirmation: the invitee accepts or rejects", async () => {
    const g = await owner.call<Reply<{ groupid: string }>>("createGroup", {
      data: {
        groupname: "Confirmed",
        desc: "",
        members: [],
        public: false,
        approval: false,
        allowinvites: true,
        inviteNeedConfirm: true,
        maxusers: 10,
      },
    });
    const id = g.data.groupid;
    await owner.call("inviteUsersToGroup", { groupId: id, users: [member.name, outsider.name] });
    expect((await member.fail("getGroupMembers", { groupId: id })).type).toBe(s.code.GROUP_NOT_JOINED);
    await member.call("acceptGroupInvite", { groupId: id, invitee: member.name });
    await outsider.call("rejectGroupInvite", { groupId: id, invitee: outsider.name });
    expect((await outsider.fail("fetchGroupAnnouncement", { groupId: id })).type).toBe(s.code.GROUP_NOT_JOINED);
    const members = await owner.call<Reply<{ members: { userId: string }[] }>>("getGroupMembers", {
      groupId: id,
      limit: 50,
    });
    expect(members.data.members.map((m) => m.userId).sort()).toEqual([member.name, owner.name].sort());
    expect((await outsider.fail("acceptGroupInvite", { groupId: id, invitee: outsider.name })).type).toBe(
      s.code.PERMISSION_DENIED,
    );
    await member.call("leaveGroup", { groupId: id });
    expect((await member.fail("getGroupMembers", { groupId: id })).type).toBe(s.code.GROUP_NOT_JOINED);
    expect((await owner.fail("leaveGroup", { groupId: id })).type).toBe(s.code.PERMISSION_DENIED);
  });

  test("remove several members at once (owner or admin only)", async () => {
    const extra = await s.client("extra");
    await owner.call("inviteUsersToGroup", { groupId, users: [outsider.name, extra.name] });
    expect((await member.fail("removeGroupMembers", { groupId, users: [outsider.name, extra.name] })).type).toBe(
      s.code.PERMISSION_DENIED,
    );
    const removed = await admin.call<Reply<{ user: string; result: boolean }[]>>("removeGroupMembers", {
      groupId,
      users: [outsider.name, extra.name],
    });
    expect(removed.data).toEqual([
      expect.objectContaining({ user: outsider.name, result: true }),
      expect.objectContaining({ user: extra.name, result: true }),
    ]);
  });

  test("change owner, then only the new owner dissolves the group", async () => {
    expect((await admin.fail("changeGroupOwner", { groupId, newOwner: admin.name })).type).toBe(
      s.code.PERMISSION_DENIED,
    );
    const changed = await owner.call<Reply<{ newowner: boolean }>>("changeGroupOwner", {
      groupId,
      newOwner: member.name,
    });
    expect(changed.data.newowner).toBe(true);
    expect((await owner.call<Reply<Record<string, unknown>[]>>("getGroupInfo", { groupId })).data[0]?.owner).toBe(
      member.name,
    );
    expect((await owner.fail("destroyGroup", { groupId })).type).toBe(s.code.PERMISSION_DENIED);
    const gone = await member.call<Reply<{ success: boolean }>>("destroyGroup", { groupId });
    expect(gone.type).toBe(0);
    expect((await member.fail("getGroupInfo", { groupId })).type).toBe(s.code.GROUP_NOT_EXIST);
  });

  test("createGroupVNext with its defaults, and members paged with the cursor", async () => {
    const created = await owner.call<Reply<{ groupId: string }>>("createGroupVNext", {
      groupName: "Next",
      members: [admin.name, member.name, outsider.name],
    });
    const id = created.data.groupId;
    const info = await owner.call<Reply<Record<string, unknown>[]>>("getGroupInfo", { groupId: id });
    // The client's defaults: private, no approval, members may invite, no confirmation, 200 members.
    expect(info.data[0]).toMatchObject({
      name: "Next",
      public: false,
      membersonly: false,
      allowinvites: true,
      maxusers: 200,
      affiliations_count: 4,
    });
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 5; page++) {
      const r = await member.call<Reply<{ cursor?: string; members: { userId: string }[] }>>("getGroupMembers", {
        groupId: id,
        limit: 3,
        ...(cursor && { cursor }),
      });
      seen.push(...r.data.members.map((m) => m.userId));
      cursor = r.data.cursor;
      if (!cursor) break;
    }
    expect(seen.sort()).toEqual([owner.name, admin.name, member.name, outsider.name].sort());
  });

  test("client-side validation and missing credentials are the client's own errors", async () => {
    await expect(owner.call("getGroupInfo", { groupId: "" })).rejects.toThrow(/Invalid parameter/);
    const anonymous = await s.client("anon");
    anonymous.conn.token = "";
    anonymous.conn.context.accessToken = "";
    expect((await anonymous.fail("getGroupInfo", { groupId: "1" })).type).toBe(s.code.REST_PARAMS_STATUS);
  });
});
