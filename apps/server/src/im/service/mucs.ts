import { denied, imError, invalidParam } from "../errors";
import { markFileDeleted, mucFileUuids } from "../store/files";
import * as memberStore from "../store/members";
import * as store from "../store/mucs";
import { inScope, type ImActor } from "./core";
import { mucIdOf, type MucAccess } from "./muc/base";
import { MucRoomFeatures } from "./muc/rooms";

export { AttributeError, FOREVER, mucIdOf, type MucAccess } from "./muc/base";

/**
 * Groups and chat rooms (spec 02 §6, §7): one implementation, since the protocol treats them alike.
 * Every rule is checked here, on the server: owner, admin, member, applicant, invitee; mutes that end on
 * the app clock; blocked users cannot come back; the allowlist may speak during a ban; approval and
 * invite confirmation; and the configured limits.
 */

/**
 * The service of one kind (groups or chat rooms): creating, reading, changing and dissolving them and
 * their member lists here; the rest along the chain of service/muc/ (base.ts says how it is cut).
 */
export class ImMucs extends MucRoomFeatures {
  /* ---------- create, read, modify, destroy ---------- */

  async create(
    actor: ImActor,
    f: {
      owner?: string | undefined;
      name: string;
      description: string;
      members: string[];
      public: boolean;
      approval: boolean;
      allowInvites: boolean;
      inviteNeedConfirm: boolean;
      maxUsers: number | null;
      custom: string;
      avatar: string;
    },
  ): Promise<{ id: string; invited: string[] }> {
    const owner = actor.kind === "user" ? actor.username : f.owner;
    if (!owner) throw invalidParam("owner");
    const maxUsers = f.maxUsers ?? this.limits.defaultMaxUsers;
    if (maxUsers > this.limits.maxUsers) throw imError("maxLimit", { what: "maxusers", max: this.limits.maxUsers });
    const members = [...new Set(f.members.map((m) => m.toLowerCase()))].filter((m) => m !== owner);
    if (members.length + 1 > maxUsers) throw imError("membersOverMax");
    return inScope(this.deps, async (s) => {
      await this.requireUsers(s.tx, [owner, ...members]);
      const id = await store.nextId(s.tx);
      await store.insertMuc(s.tx, {
        id,
        kind: this.kind,
        name: f.name,
        description: f.description,
        owner,
        public: this.kind === "room" ? true : f.public,
        membersOnly: this.kind === "group" && f.approval,
        allowInvites: this.kind === "group" && f.allowInvites,
        inviteNeedConfirm: this.kind === "group" && f.inviteNeedConfirm,
        maxUsers,
        custom: f.custom,
        avatar: f.avatar,
        now: s.now,
      });
      await memberStore.addMembers(s.tx, id, [{ username: owner, role: "owner" }], s.now);
      const created = await store.lockMuc(s.tx, id, this.kind);
      if (!created) throw new Error("group vanished after insert");
      const a: MucAccess = { muc: created, role: "owner", username: owner };
      let invited: string[] = [];
      if (this.kind === "group" && f.inviteNeedConfirm && members.length > 0) {
        for (const u of members) {
          await memberStore.upsertRequest(s.tx, {
            mucId: id,
            username: u,
            kind: "invite",
            inviter: owner,
            reason: "",
            now: s.now,
          });
        }
        invited = members;
        await this.notifyUsers(s, a, members, "invite", { users: members, detail: { name: created.name } });
      } else if (members.length > 0) {
        await memberStore.addMembers(
          s.tx,
          id,
          members.map((username) => ({ username, role: "member" as const })),
          s.now,
        );
        await this.notifyUsers(s, a, members, "directJoined", { users: members, detail: { name: created.name } });
      }
      await store.refreshCount(s.tx, id);
      await this.notifyUsers(s, a, [owner], "create");
      return { id: String(id), invited };
    });
  }

  /** Details of one or more groups or rooms. Private groups show their details to members only. */
  async details(actor: ImActor, rawIds: string[]): Promise<Record<string, unknown>[]> {
    const ids = rawIds.map((r) => mucIdOf(r, this.kind));
    const db = this.deps.db;
    const rows = await store.findMucs(db, ids, this.kind);
    const byId = new Map(rows.map((r) => [r.id, r]));
    const out: Record<string, unknown>[] = [];
    for (const [i, id] of ids.entries()) {
      const muc = byId.get(id);
      if (!muc) throw this.notFound(rawIds[i] ?? id);
      const me = actor.kind === "user" ? await memberStore.findMember(db, id, actor.username) : undefined;
      if (this.kind === "group" && !muc.public && actor.kind === "user" && !me) {
        throw imError("notMember", { username: actor.username });
      }
      const members = await memberStore.memberPage(db, id, 0, muc.max_users + 1);
      const affiliations = members.map((m) =>
        m.role === "owner"
          ? { owner: m.username, joined_time: m.joined_at.getTime() }
          : { member: m.username, joined_time: m.joined_at.getTime() },
      );
      out.push({
        id: String(muc.id),
        name: muc.name,
        description: muc.description,
        membersonly: muc.members_only,
        allowinvites: muc.allow_invites,
        invite_need_confirm: muc.invite_need_confirm,
        maxusers: muc.max_users,
        owner: muc.owner,
        created: muc.created_at.getTime(),
        custom: muc.custom,
        avatar: muc.avatar,
        mute: muc.mute_all,
        public: muc.public,
        disabled: muc.disabled,
        shieldgroup: me?.shielded ?? false,
        affiliations_count: muc.member_count,
        affiliations,
        ...(me && { permission: me.role }),
      });
    }
    return out;
  }

  /** Changes name, description, limits and settings; the owner or an admin. Returns which fields changed. */
  async modify(
    actor: ImActor,
    rawId: string,
    f: Partial<{
      name: string;
      description: string;
      custom: string;
      avatar: string;
      maxUsers: number;
      membersOnly: boolean;
      allowInvites: boolean;
      inviteNeedConfirm: boolean;
      public: boolean;
    }>,
  ): Promise<Record<string, boolean>> {
    return inScope(this.deps, async (s) => {
      const a = await this.access(s.tx, actor, rawId, { lock: s });
      this.require(a, "admin");
      const changed: Record<string, boolean> = {};
      const patch: Parameters<typeof store.updateMuc>[2] = {};
      if (f.name !== undefined) {
        patch.name = f.name;
        changed.groupname = true;
      }
      if (f.description !== undefined) {
        patch.description = f.description;
        changed.description = true;
      }
      if (f.custom !== undefined) {
        patch.custom = f.custom;
        changed.custom = true;
      }
      if (f.avatar !== undefined) {
        patch.avatar = f.avatar;
        changed.avatar = true;
      }
      if (f.maxUsers !== undefined) {
        if (f.maxUsers > this.limits.maxUsers) {
          throw imError("maxLimit", { what: "maxusers", max: this.limits.maxUsers });
        }
        if (f.maxUsers < a.muc.member_count) throw imError("membersOverMax");
        patch.max_users = f.maxUsers;
        changed.maxusers = true;
      }
      if (this.kind === "group") {
        if (f.membersOnly !== undefined) {
          patch.members_only = f.membersOnly;
          changed.membersonly = true;
        }
        if (f.allowInvites !== undefined) {
          patch.allow_invites = f.allowInvites;
          changed.allowinvites = true;
        }
        if (f.inviteNeedConfirm !== undefined) {
          patch.invite_need_confirm = f.inviteNeedConfirm;
          changed.invite_need_confirm = true;
        }
        if (f.public !== undefined) {
          patch.public = f.public;
          changed.public = true;
        }
      }
      if (Object.keys(patch).length === 0) throw invalidParam("body");
      await store.updateMuc(s.tx, a.muc.id, patch, s.now);
      // The keys the client maps onto its event's detail (easemob-wire §3j, op 14).
      const { allow_invites: allowInvites, ...rest } = patch;
      const detail = {
        ...rest,
        ...(allowInvites !== undefined && { allow_user_invites: allowInvites }),
        last_modified: s.nowMs,
      };
      await this.notifyMembers(s, a, "updateInfo", { detail });
      return changed;
    });
  }

  async changeOwner(actor: ImActor, rawId: string, newOwner: string): Promise<void> {
    await inScope(this.deps, async (s) => {
      const a = await this.access(s.tx, actor, rawId, { lock: s });
      this.require(a, "owner");
      if (newOwner === a.muc.owner) throw denied(`${newOwner} already owns ${a.muc.id}`);
      const target = await memberStore.findMember(s.tx, a.muc.id, newOwner);
      if (!target) throw imError("notMember", { username: newOwner });
      await memberStore.setRole(s.tx, a.muc.id, a.muc.owner, "member");
      await memberStore.setRole(s.tx, a.muc.id, newOwner, "owner");
      await store.updateMuc(s.tx, a.muc.id, { owner: newOwner }, s.now);
      await this.notifyMembers(s, a, "assignOwner", { users: [newOwner], detail: { oldOwner: a.muc.owner } });
    });
  }

  /** Dissolves the group or room; returns its shared files, whose bytes the caller removes after commit. */
  async destroy(actor: ImActor, rawId: string): Promise<{ fileUuids: string[] }> {
    return inScope(this.deps, async (s) => {
      const a = await this.access(s.tx, actor, rawId, { lock: s });
      this.require(a, "owner");
      const fileUuids = await mucFileUuids(s.tx, a.muc.id);
      for (const uuid of fileUuids) await markFileDeleted(s.tx, uuid, s.now);
      await this.notifyMembers(s, a, "destroy");
      await store.deleteMuc(s.tx, a.muc.id);
      return { fileUuids };
    });
  }

  /* ---------- lists ---------- */

  async memberPage(
    actor: ImActor,
    rawId: string,
    page: { pagenum: number; pagesize: number },
  ): Promise<{ items: Record<string, unknown>[]; count: number }> {
    const a = await this.access(this.deps.db, actor, rawId);
    this.require(a, "member");
    const rows = await memberStore.memberPage(
      this.deps.db,
      a.muc.id,
      (page.pagenum - 1) * page.pagesize,
      page.pagesize,
    );
    return {
      items: rows.map((m) => (m.role === "owner" ? { owner: m.username } : { member: m.username })),
      count: a.muc.member_count,
    };
  }

  async memberCursor(
    actor: ImActor,
    rawId: string,
    cursor: string | undefined,
    limit: number,
  ): Promise<{ items: Record<string, unknown>[]; cursor: string | null }> {
    const a = await this.access(this.deps.db, actor, rawId);
    this.require(a, "member");
    let after: { notOwner: boolean; joinedMs: number; username: string } | null = null;
    if (cursor) {
      try {
        const [notOwner, joinedMs, username] = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as [
          unknown,
          unknown,
          unknown,
        ];
        if (typeof notOwner !== "boolean" || typeof joinedMs !== "number" || typeof username !== "string") {
          throw new Error("bad cursor");
        }
        after = { notOwner, joinedMs, username };
      } catch {
        throw invalidParam("cursor");
      }
    }
    const rows = await memberStore.memberPageAfter(this.deps.db, a.muc.id, after, limit + 1);
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      items: page.map((m) => ({ [m.role]: m.username, joined_time: m.joined_at.getTime() })),
      cursor:
        rows.length > limit && last
          ? Buffer.from(JSON.stringify([last.role !== "owner", last.joined_at.getTime(), last.username])).toString(
              "base64url",
            )
          : null,
    };
  }

  /* ---------- joined and public lists ---------- */

  async joined(username: string, offset: number, limit: number) {
    return store.joinedPage(this.deps.db, username, this.kind, offset, limit);
  }

  async joinedCount(username: string): Promise<number> {
    return store.joinedCount(this.deps.db, username, this.kind);
  }
}
