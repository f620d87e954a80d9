import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import {
  IM_PAGE,
  imAnnouncementReq,
  imApplyReq,
  imApplyVerifyReq,
  imCreateGroupReq,
  imCreateRoomReq,
  imInviteVerifyReq,
  imMemberAttributesGetReq,
  imMemberAttributesReq,
  imModifyGroupReq,
  imModifyRoomReq,
  imMuteReq,
  imNewAdminReq,
  imRoomAttributesDeleteReq,
  imRoomAttributesGetReq,
  imRoomAttributesSetReq,
  imUsernamesReq,
} from "@tessera/contracts";
import { invalidParam } from "../errors";
import { ImAccounts } from "../service/accounts";
import type { ImMucs } from "../service/mucs";
import type { MucKind } from "../tables";
import { actorOf, boolParam, intParam, namesOf, parseBody, queryOf } from "./http";
import type { MultipartBody } from "../../platform/http/multipart";
import { serveUserFile } from "../../platform/storage/serve";
import type { RouteContext } from "./plugin";

type P<T extends string> = { Params: Record<T, string> };

/** Groups (chatgroups) and chat rooms (chatrooms): spec 02 §7, reply shapes of easemob-wire §4.3. */
export function mucRoutes(im: FastifyInstance, ctx: RouteContext): void {
  sharedRoutes(im, ctx, "group");
  sharedRoutes(im, ctx, "room");
  groupRoutes(im, ctx);
  roomRoutes(im, ctx);
}

const lower = (names: string[]) => names.map((n) => n.toLowerCase());
const present = <T>(v: T | null | undefined): v is T => v !== null && v !== undefined;

/** The calls groups and rooms have in common, under chatgroups/ or chatrooms/. */
function sharedRoutes(im: FastifyInstance, { svc, replies }: RouteContext, kind: MucKind): void {
  const base = kind === "group" ? "/chatgroups" : "/chatrooms";
  const mucs: ImMucs = kind === "group" ? svc.groups : svc.rooms;
  const idKey = kind === "group" ? "groupid" : "id";
  const send = (req: FastifyRequest, reply: FastifyReply, fields: Record<string, unknown>) =>
    replies.send(req, reply, fields);

  im.get<P<"id">>(`${base}/:id/admin`, async (req, reply) =>
    send(req, reply, { data: await mucs.admins(actorOf(req), req.params.id) }),
  );

  im.post<P<"id">>(`${base}/:id/admin`, async (req, reply) => {
    const { newadmin } = parseBody(imNewAdminReq, req.body);
    const name = newadmin.toLowerCase();
    await mucs.addAdmin(actorOf(req), req.params.id, name);
    return send(req, reply, { data: { result: kind === "group" ? "success" : true, newadmin: name } });
  });

  im.delete<P<"id" | "name">>(`${base}/:id/admin/:name`, async (req, reply) => {
    const name = req.params.name.toLowerCase();
    await mucs.removeAdmin(actorOf(req), req.params.id, name);
    return send(req, reply, { data: { result: kind === "group" ? "success" : true, oldadmin: name } });
  });

  im.post<P<"id">>(`${base}/:id/mute`, async (req, reply) => {
    const body = parseBody(imMuteReq, req.body);
    const muted = await mucs.mute(actorOf(req), req.params.id, lower(body.usernames), body.mute_duration);
    return send(req, reply, { data: muted.map((m) => ({ result: true, expire: m.expire, user: m.user })) });
  });

  im.delete<P<"id" | "names">>(`${base}/:id/mute/:names`, async (req, reply) => {
    const names = await mucs.unmute(actorOf(req), req.params.id, namesOf(req.params.names));
    return send(req, reply, { data: names.map((user) => ({ result: true, user })) });
  });

  im.get<P<"id">>(`${base}/:id/mute`, async (req, reply) =>
    send(req, reply, { data: await mucs.muteList(actorOf(req), req.params.id) }),
  );

  im.get<P<"id" | "user">>(`/sdk${base}/:id/mute/:user`, async (req, reply) => {
    const actor = actorOf(req);
    const user = ImAccounts.self(actor, req.params.user);
    return send(req, reply, { data: await mucs.isMuted(actor, req.params.id, user) });
  });

  const blockReply = (id: string, names: string[]) =>
    names.map((user) => ({ result: true, action: "add_blocks", user, [idKey]: id }));
  im.post<P<"id" | "name">>(`${base}/:id/blocks/users/:name`, async (req, reply) => {
    const names = await mucs.block(actorOf(req), req.params.id, namesOf(req.params.name));
    return send(req, reply, { data: blockReply(req.params.id, names) });
  });
  im.post<P<"id">>(`${base}/:id/blocks/users`, async (req, reply) => {
    const { usernames } = parseBody(imUsernamesReq, req.body);
    const names = await mucs.block(actorOf(req), req.params.id, lower(usernames));
    return send(req, reply, { data: blockReply(req.params.id, names) });
  });
  im.delete<P<"id" | "names">>(`${base}/:id/blocks/users/:names`, async (req, reply) => {
    const names = await mucs.unblock(actorOf(req), req.params.id, namesOf(req.params.names));
    return send(req, reply, {
      data: names.map((user) => ({ result: true, action: "remove_blocks", user, [idKey]: req.params.id })),
    });
  });
  im.get<P<"id">>(`${base}/:id/blocks/users`, async (req, reply) =>
    send(req, reply, { data: await mucs.blockList(actorOf(req), req.params.id) }),
  );

  im.post<P<"id">>(`${base}/:id/ban`, async (req, reply) => {
    await mucs.setMuteAll(actorOf(req), req.params.id, true);
    return send(req, reply, { data: { mute: true } });
  });
  im.delete<P<"id">>(`${base}/:id/ban`, async (req, reply) => {
    await mucs.setMuteAll(actorOf(req), req.params.id, false);
    return send(req, reply, { data: { mute: false } });
  });

  im.post<P<"id">>(`${base}/:id/white/users`, async (req, reply) => {
    const { usernames } = parseBody(imUsernamesReq, req.body);
    const names = await mucs.allow(actorOf(req), req.params.id, lower(usernames));
    return send(req, reply, {
      data: names.map((user) => ({ result: true, action: "add_user_whitelist", user, [idKey]: req.params.id })),
    });
  });
  im.delete<P<"id" | "names">>(`${base}/:id/white/users/:names`, async (req, reply) => {
    const names = await mucs.disallow(actorOf(req), req.params.id, namesOf(req.params.names));
    return send(req, reply, {
      data: names.map((user) => ({ result: true, action: "remove_user_whitelist", user, [idKey]: req.params.id })),
    });
  });
  im.get<P<"id">>(`${base}/:id/white/users`, async (req, reply) =>
    send(req, reply, { data: await mucs.allowList(actorOf(req), req.params.id) }),
  );
  im.get<P<"id" | "name">>(`${base}/:id/white/users/:name`, async (req, reply) => {
    const name = req.params.name.toLowerCase();
    return send(req, reply, { data: { member: name, white: await mucs.isAllowed(actorOf(req), req.params.id, name) } });
  });

  im.get<P<"id">>(`${base}/:id/announcement`, async (req, reply) =>
    send(req, reply, { data: { announcement: await mucs.announcement(actorOf(req), req.params.id) } }),
  );
  im.post<P<"id">>(`${base}/:id/announcement`, async (req, reply) => {
    const { announcement } = parseBody(imAnnouncementReq, req.body);
    await mucs.setAnnouncement(actorOf(req), req.params.id, announcement);
    return send(req, reply, { data: { id: req.params.id, result: true } });
  });

  /** Members: pagenum/pagesize (version v3), or cursor/limit with join times. */
  im.get<P<"id">>(`${base}/:id/users`, async (req, reply) => {
    const q = queryOf(req);
    const actor = actorOf(req);
    if (q.pagenum !== undefined || q.pagesize !== undefined || (q.cursor === undefined && q.limit === undefined)) {
      const pagenum = intParam(q.pagenum, "pagenum", { min: 1, fallback: 1 });
      const pagesize = intParam(q.pagesize, "pagesize", { min: 1, max: IM_PAGE.maxPageSize, fallback: 1000 });
      const page = await mucs.memberPage(actor, req.params.id, { pagenum, pagesize });
      return send(req, reply, {
        data: page.items,
        count: page.count,
        params: { pagenum: [String(pagenum)], pagesize: [String(pagesize)] },
      });
    }
    const limit = intParam(q.limit, "limit", { min: 1, max: IM_PAGE.maxPageSize, fallback: IM_PAGE.memberPageSize });
    const page = await mucs.memberCursor(actor, req.params.id, q.cursor, limit);
    return send(req, reply, {
      data: page.items,
      count: page.items.length,
      ...(page.cursor && { cursor: page.cursor }),
    });
  });

  im.delete<P<"id" | "names">>(`${base}/:id/users/:names`, async (req, reply) => {
    const names = namesOf(req.params.names);
    const removed = await mucs.remove(actorOf(req), req.params.id, names);
    const data = names.map((user) => ({
      result: removed.includes(user),
      action: "remove_member",
      user,
      [idKey]: req.params.id,
    }));
    return send(req, reply, { data: names.length === 1 && req.params.names.indexOf(",") < 0 ? data[0] : data });
  });

  /* ---------- shared files ---------- */

  im.post<P<"id">>(`${base}/:id/share_files`, async (req, reply) => {
    const body = req.body as MultipartBody | undefined;
    const file =
      body && typeof body === "object" && "files" in body ? body.files.find((f) => f.field === "file") : undefined;
    const actor = actorOf(req);
    const row = await svc.files.uploadShared(mucs, actor, req.params.id, file);
    return send(req, reply, {
      data: {
        file_url: `${svc.files.baseUrl(req)}${base}/${req.params.id}/share_files/${row.uuid}`,
        [kind === "group" ? "group_id" : "id"]: req.params.id,
        file_name: row.filename,
        created: row.created_at.getTime(),
        file_id: row.uuid,
        file_owner: row.owner,
        file_size: row.size,
      },
    });
  });

  im.get<P<"id">>(`${base}/:id/share_files`, async (req, reply) => {
    const q = queryOf(req);
    const pagenum = intParam(q.pagenum, "pagenum", { min: 1, fallback: IM_PAGE.groupSharedFilesPage });
    const pagesize = intParam(q.pagesize, "pagesize", {
      min: 1,
      max: IM_PAGE.maxPageSize,
      fallback: kind === "group" ? IM_PAGE.groupSharedFilesPageSize : 1000,
    });
    const rows = await svc.files.listShared(mucs, actorOf(req), req.params.id, (pagenum - 1) * pagesize, pagesize);
    return send(req, reply, {
      data: rows.map((r) => ({
        file_id: r.uuid,
        file_name: r.filename,
        file_owner: r.owner,
        file_size: r.size,
        created: r.created_at.getTime(),
      })),
    });
  });

  im.delete<P<"id" | "fileId">>(`${base}/:id/share_files/:fileId`, async (req, reply) => {
    await svc.files.deleteShared(mucs, actorOf(req), req.params.id, req.params.fileId);
    return send(req, reply, {
      data: { [kind === "group" ? "group_id" : "id"]: req.params.id, file_id: req.params.fileId, result: true },
    });
  });

  im.get<P<"id" | "fileId">>(`${base}/:id/share_files/:fileId`, async (req, reply) => {
    const file = await svc.files.openShared(mucs, actorOf(req), req.params.id, req.params.fileId);
    return serveUserFile(
      reply.status(200),
      { contentType: file.contentType, filename: file.filename, size: file.size },
      file.stream,
    );
  });
}

function groupRoutes(im: FastifyInstance, { svc, replies }: RouteContext): void {
  const groups = svc.groups;
  const send = (req: FastifyRequest, reply: FastifyReply, fields: Record<string, unknown>) =>
    replies.send(req, reply, fields);

  im.post("/chatgroups", async (req, reply) => {
    const b = parseBody(imCreateGroupReq, req.body);
    const { id } = await groups.create(actorOf(req), {
      owner: b.owner?.toLowerCase(),
      name: b.groupname,
      description: b.desc ?? b.description ?? "",
      members: b.members ?? [],
      public: b.public,
      approval: b.approval,
      allowInvites: b.allowinvites,
      inviteNeedConfirm: b.invite_need_confirm,
      maxUsers: b.maxusers ?? null,
      custom: b.custom ?? "",
      avatar: b.avatar ?? "",
    });
    return send(req, reply, { data: { groupid: id } });
  });

  im.get("/publicchatgroups", async (req, reply) => {
    actorOf(req);
    const q = queryOf(req);
    const limit = intParam(q.limit, "limit", {
      min: 1,
      max: IM_PAGE.maxPageSize,
      fallback: IM_PAGE.publicGroupPageSize,
    });
    const page = await groups.publicGroups(q.cursor, limit);
    return send(req, reply, {
      data: page.rows.map((g) => ({
        id: String(g.id),
        groupid: String(g.id),
        name: g.name,
        groupname: g.name,
        owner: `${svc.deps.appKey}_${g.owner}`,
        affiliations: g.member_count,
        description: g.description,
        maxusers: g.max_users,
        membersonly: g.members_only,
        created: g.created_at.getTime(),
      })),
      count: page.rows.length,
      ...(page.cursor && { cursor: page.cursor }),
    });
  });

  /** The user's groups, short form (the client maps id, name, disabled, permission). */
  im.get<P<"user">>("/users/:user/joined_chatgroups", async (req, reply) => {
    const user = ImAccounts.self(actorOf(req), req.params.user);
    const q = queryOf(req);
    const pagenum = intParam(q.pagenum, "pagenum", { min: 0, fallback: 1 });
    const pagesize = intParam(q.pagesize, "pagesize", {
      min: 0,
      max: IM_PAGE.maxPageSize,
      fallback: IM_PAGE.maxPageSize,
    });
    const rows = pagesize === 0 ? [] : await groups.joined(user, Math.max(0, pagenum - 1) * pagesize, pagesize);
    return send(req, reply, {
      data: rows.map((g) => ({
        id: String(g.id),
        groupid: String(g.id),
        name: g.name,
        groupname: g.name,
        disabled: g.disabled,
        permission: g.role,
      })),
      count: rows.length,
    });
  });

  /** The user's groups, long form with member counts and the caller's role. */
  im.get<P<"user">>("/chatgroups/user/:user", async (req, reply) => {
    const user = ImAccounts.self(actorOf(req), req.params.user);
    const q = queryOf(req);
    const pagenum = intParam(q.pagenum, "pagenum", { min: 0, fallback: 1 });
    const pagesize = intParam(q.pagesize, "pagesize", { min: 0, max: IM_PAGE.maxPageSize, fallback: 20 });
    const needAffiliations = boolParam(q.needAffiliations) ?? false;
    const needRole = boolParam(q.needRole) ?? false;
    const rows = pagesize === 0 ? [] : await groups.joined(user, Math.max(0, pagenum - 1) * pagesize, pagesize);
    return send(req, reply, {
      entities: rows.map((g) => ({
        groupId: String(g.id),
        name: g.name,
        ...(needAffiliations && { affiliations_count: g.member_count }),
        ...(needRole && { permission: g.role }),
        disabled: g.disabled,
        membersonly: g.members_only,
        allowinvites: g.allow_invites,
        description: g.description,
        maxusers: g.max_users,
        public: g.public,
      })),
      count: rows.length,
    });
  });

  im.get<P<"user">>("/chatgroups/user/:user/joined_count", async (req, reply) => {
    const user = ImAccounts.self(actorOf(req), req.params.user);
    return send(req, reply, { data: await groups.joinedCount(user) });
  });

  im.get<P<"ids">>("/chatgroups/:ids", async (req, reply) => {
    const ids = req.params.ids.split(",").filter((s) => s !== "");
    if (ids.length === 0 || ids.length > 100) throw invalidParam("groupId");
    const data = await groups.details(actorOf(req), ids);
    return send(req, reply, { data, count: data.length });
  });

  im.put<P<"id">>("/chatgroups/:id", async (req, reply) => {
    const b = parseBody(imModifyGroupReq, req.body);
    const actor = actorOf(req);
    if (b.newowner) {
      await groups.changeOwner(actor, req.params.id, b.newowner.toLowerCase());
      return send(req, reply, { data: { newowner: true } });
    }
    const data = await groups.modify(actor, req.params.id, {
      ...(present(b.groupname) && { name: b.groupname }),
      ...(present(b.description) && { description: b.description }),
      ...(present(b.custom) && { custom: b.custom }),
      ...(present(b.avatar) && { avatar: b.avatar }),
      ...(present(b.maxusers) && { maxUsers: b.maxusers }),
      ...(present(b.membersonly) && { membersOnly: b.membersonly }),
      ...(present(b.allowinvites) && { allowInvites: b.allowinvites }),
      ...(present(b.invite_need_confirm) && { inviteNeedConfirm: b.invite_need_confirm }),
      ...(present(b.public) && { public: b.public }),
    });
    return send(req, reply, { data });
  });

  im.delete<P<"id">>("/chatgroups/:id", async (req, reply) => {
    const { fileUuids } = await groups.destroy(actorOf(req), req.params.id);
    await svc.files.purge(fileUuids);
    return send(req, reply, { data: { success: true, groupid: req.params.id, id: req.params.id } });
  });

  im.delete<P<"id">>("/chatgroups/:id/quit", async (req, reply) => {
    await groups.quit(actorOf(req), req.params.id);
    return send(req, reply, { data: { result: true, action: "quit", id: req.params.id, groupid: req.params.id } });
  });

  im.post<P<"id">>("/chatgroups/:id/invite", async (req, reply) => {
    const { usernames } = parseBody(imUsernamesReq, req.body);
    const results = await groups.invite(actorOf(req), req.params.id, lower(usernames));
    return send(req, reply, {
      data: results.map((r) => ({ action: "invite", id: req.params.id, result: true, user: r.user, joined: r.joined })),
    });
  });

  im.post<P<"id">>("/chatgroups/:id/apply", async (req, reply) => {
    const { message } = parseBody(imApplyReq, req.body);
    const actor = actorOf(req);
    const outcome = await groups.apply(actor, req.params.id, message ?? "");
    const user = actor.kind === "user" ? actor.username : "";
    return send(req, reply, { data: { action: "apply", id: req.params.id, result: true, user, status: outcome } });
  });

  im.post<P<"id">>("/chatgroups/:id/apply_verify", async (req, reply) => {
    const b = parseBody(imApplyVerifyReq, req.body);
    const applicant = b.applicant.toLowerCase();
    await groups.verifyApplication(actorOf(req), req.params.id, applicant, b.verifyResult, b.reason ?? "");
    return send(req, reply, {
      data: {
        action: b.verifyResult ? "accept_apply" : "decline_apply",
        id: req.params.id,
        result: true,
        user: applicant,
      },
    });
  });

  im.post<P<"id">>("/chatgroups/:id/invite_verify", async (req, reply) => {
    const b = parseBody(imInviteVerifyReq, req.body);
    const invitee = b.invitee.toLowerCase();
    await groups.verifyInvitation(actorOf(req), req.params.id, invitee, b.verifyResult);
    return send(req, reply, {
      data: {
        action: b.verifyResult ? "accept_invite" : "decline_invite",
        id: req.params.id,
        result: true,
        user: invitee,
      },
    });
  });

  im.get<P<"id" | "msgId">>("/chatgroups/:id/acks/:msgId", async (req, reply) => {
    const q = queryOf(req);
    const limit = intParam(q.limit, "limit", {
      min: 1,
      max: IM_PAGE.groupReadAckLimit,
      fallback: IM_PAGE.groupReadAckLimit,
    });
    if (!/^\d{1,19}$/.test(req.params.msgId)) throw invalidParam("msgId");
    const messageId = Number(req.params.msgId);
    await svc.history.requireGroupMessage(req.params.id, messageId);
    const r = await groups.readAcks(actorOf(req), req.params.id, messageId, q.key, limit);
    return send(req, reply, {
      data: {
        ackmid: req.params.msgId,
        is_last: r.isLast,
        next_key: r.nextKey,
        timestamp: svc.deps.clock.now().getTime(),
        total: r.total,
        userlist: r.users,
      },
    });
  });

  im.put<P<"id" | "user">>("/sdk/metadata/chatgroup/:id/user/:user", async (req, reply) => {
    const { metaData } = parseBody(imMemberAttributesReq, req.body);
    const data = await groups.setMemberAttributes(actorOf(req), req.params.id, req.params.user.toLowerCase(), metaData);
    return send(req, reply, { data });
  });

  im.post<P<"id">>("/sdk/metadata/chatgroup/:id/get", async (req, reply) => {
    const b = parseBody(imMemberAttributesGetReq, req.body);
    return send(req, reply, {
      data: await groups.memberAttributes(actorOf(req), req.params.id, lower(b.targets), b.properties),
    });
  });

  const shield = (on: boolean) => async (req: FastifyRequest<P<"id">>, reply: FastifyReply) => {
    const user = await groups.shield(actorOf(req), req.params.id, on);
    return send(req, reply, {
      data: { action: on ? "shield" : "unshield", groupid: req.params.id, result: true, user },
    });
  };
  im.post<P<"id">>("/chatgroups/:id/shield", shield(true));
  im.delete<P<"id">>("/chatgroups/:id/shield", shield(false));
}

function roomRoutes(im: FastifyInstance, { svc, replies }: RouteContext): void {
  const rooms = svc.rooms;
  const send = (req: FastifyRequest, reply: FastifyReply, fields: Record<string, unknown>) =>
    replies.send(req, reply, fields);

  im.get("/chatrooms", async (req, reply) => {
    actorOf(req);
    const q = queryOf(req);
    const pagenum = intParam(q.pagenum, "pagenum", { min: 1, fallback: IM_PAGE.roomPageNum });
    const pagesize = intParam(q.pagesize, "pagesize", {
      min: 1,
      max: IM_PAGE.maxPageSize,
      fallback: IM_PAGE.roomPageSize,
    });
    const rows = await rooms.rooms((pagenum - 1) * pagesize, pagesize);
    return send(req, reply, {
      data: rows.map((r) => ({ id: String(r.id), name: r.name, owner: r.owner, affiliations_count: r.member_count })),
      count: rows.length,
      params: { pagenum: [String(pagenum)], pagesize: [String(pagesize)] },
    });
  });

  im.post("/chatrooms", async (req, reply) => {
    const b = parseBody(imCreateRoomReq, req.body);
    const { id } = await rooms.create(actorOf(req), {
      owner: b.owner?.toLowerCase(),
      name: b.name,
      description: b.description ?? "",
      members: b.members ?? [],
      public: true,
      approval: false,
      allowInvites: false,
      inviteNeedConfirm: false,
      maxUsers: b.maxusers ?? null,
      custom: b.custom ?? "",
      avatar: "",
    });
    return send(req, reply, { data: { id } });
  });

  im.get<P<"ids">>("/chatrooms/:ids", async (req, reply) => {
    const ids = req.params.ids.split(",").filter((s) => s !== "");
    if (ids.length === 0 || ids.length > 100) throw invalidParam("chatRoomId");
    const data = await rooms.details(actorOf(req), ids);
    return send(req, reply, { data, count: data.length });
  });

  im.put<P<"id">>("/chatrooms/:id", async (req, reply) => {
    const b = parseBody(imModifyRoomReq, req.body);
    const data = await rooms.modify(actorOf(req), req.params.id, {
      ...(present(b.groupname) && { name: b.groupname }),
      ...(present(b.description) && { description: b.description }),
      ...(present(b.maxusers) && { maxUsers: b.maxusers }),
      ...(present(b.custom) && { custom: b.custom }),
    });
    return send(req, reply, { data });
  });

  im.delete<P<"id">>("/chatrooms/:id", async (req, reply) => {
    const { fileUuids } = await rooms.destroy(actorOf(req), req.params.id);
    await svc.files.purge(fileUuids);
    return send(req, reply, { data: { success: true, id: req.params.id } });
  });

  im.post<P<"id">>("/chatrooms/:id/users", async (req, reply) => {
    const { usernames } = parseBody(imUsernamesReq, req.body);
    const added = await rooms.addUsers(actorOf(req), req.params.id, lower(usernames));
    return send(req, reply, { data: { newmembers: added, action: "add_member", id: req.params.id } });
  });

  im.get<P<"user">>("/users/:user/joined_chatrooms", async (req, reply) => {
    const user = ImAccounts.self(actorOf(req), req.params.user);
    const q = queryOf(req);
    const pagenum = intParam(q.pagenum, "pagenum", { min: 1, fallback: 1 });
    const pagesize = intParam(q.pagesize, "pagesize", { min: 1, max: IM_PAGE.maxPageSize, fallback: 20 });
    const rows = await rooms.joined(user, (pagenum - 1) * pagesize, pagesize);
    return send(req, reply, {
      data: rows.map((r) => ({
        id: String(r.id),
        title: r.name,
        name: r.name,
        owner: `${svc.deps.appKey}_${r.owner}`,
        created: r.created_at.getTime(),
        description: r.description,
        max_users: r.max_users,
        affiliations_count: r.member_count,
      })),
      count: rows.length,
    });
  });

  im.post<P<"id">>("/metadata/chatroom/:id", async (req, reply) => {
    const { keys } = parseBody(imRoomAttributesGetReq, req.body);
    return send(req, reply, { data: await rooms.roomAttributes(actorOf(req), req.params.id, keys ?? undefined) });
  });

  const setAttrs = (forced: boolean) => async (req: FastifyRequest<P<"id" | "user">>, reply: FastifyReply) => {
    const b = parseBody(imRoomAttributesSetReq, req.body);
    if (Object.keys(b.metaData).length === 0) throw invalidParam("metaData");
    const data = await rooms.setRoomAttributes(actorOf(req), req.params.id, req.params.user.toLowerCase(), b.metaData, {
      autoDelete: b.autoDelete === "DELETE",
      forced,
    });
    return send(req, reply, { data });
  };
  im.put<P<"id" | "user">>("/metadata/chatroom/:id/user/:user", setAttrs(false));
  im.put<P<"id" | "user">>("/metadata/chatroom/:id/user/:user/forced", setAttrs(true));

  const removeAttrs = (forced: boolean) => async (req: FastifyRequest<P<"id" | "user">>, reply: FastifyReply) => {
    const { keys } = parseBody(imRoomAttributesDeleteReq, req.body);
    const data = await rooms.removeRoomAttributes(
      actorOf(req),
      req.params.id,
      req.params.user.toLowerCase(),
      keys,
      forced,
    );
    return send(req, reply, { data });
  };
  im.delete<P<"id" | "user">>("/metadata/chatroom/:id/user/:user", removeAttrs(false));
  im.delete<P<"id" | "user">>("/metadata/chatroom/:id/user/:user/forced", removeAttrs(true));
  // Joining and leaving a chat room go through the socket (issue 9): ImMucs.join and ImMucs.leave.
}
