import { IM_ATTRIBUTE_ERRORS, IM_LIMITS, imErrorText, type ImMucOp } from "@tessera/contracts";
import type { Executor } from "../../db/tx";
import { denied, imError, ImError, invalidParam } from "../errors";
import { markFileDeleted, mucFileUuids } from "../store/files";
import * as store from "../store/mucs";
import { existingUsers } from "../store/users";
import type { MucKind, MucRole } from "../tables";
import { inScope, type ImActor, type ImDeps, type Scope } from "./core";

/**
 * Groups and chat rooms (spec 02 §6, §7): one implementation, since the protocol treats them alike.
 * Every rule is checked here, on the server: owner, admin, member, applicant, invitee; mutes that end on
 * the app clock; blocked users cannot come back; the allowlist may speak during a ban; approval and
 * invite confirmation; and the configured limits.
 */

/** Mute "forever" (-1) lasts until this instant. */
export const FOREVER = new Date("9999-12-31T00:00:00Z");

type Level = "member" | "admin" | "owner";
const RANK: Record<MucRole, number> = { member: 1, admin: 2, owner: 3 };

export interface MucAccess {
  muc: store.MucRow;
  /** The caller's role; "app" for the app's own token, which may do anything. */
  role: MucRole | "app" | null;
  username: string | null;
}

export function mucIdOf(raw: string, kind: MucKind): number {
  if (!/^\d{1,18}$/.test(raw)) {
    throw kind === "group" ? imError("groupNotFound", { id: raw }) : imError("roomNotFound", { id: raw });
  }
  return Number(raw);
}

export class ImMucs {
  constructor(
    private readonly deps: ImDeps,
    readonly kind: MucKind,
  ) {}

  private get limits() {
    const c = this.deps.config;
    return {
      maxUsers: this.kind === "group" ? c.maxGroupUsers : c.maxRoomUsers,
      defaultMaxUsers:
        this.kind === "group"
          ? Math.min(IM_LIMITS.groupDefaultMaxUsers, c.maxGroupUsers)
          : Math.min(IM_LIMITS.roomDefaultMaxUsers, c.maxRoomUsers),
      admins: c.maxAdmins,
    };
  }

  notFound(id: string | number): ImError {
    return this.kind === "group" ? imError("groupNotFound", { id }) : imError("roomNotFound", { id });
  }

  /* ---------- access ---------- */

  /** Loads the group or room and the caller's role in it; `lock` serialises changes to its membership. */
  async access(db: Executor, actor: ImActor, rawId: string, options: { lock?: Scope } = {}): Promise<MucAccess> {
    const id = mucIdOf(rawId, this.kind);
    const muc = options.lock
      ? await store.lockMuc(options.lock.tx, id, this.kind)
      : await store.findMuc(db, id, this.kind);
    if (!muc) throw this.notFound(rawId);
    if (actor.kind === "app") return { muc, role: "app", username: null };
    const member = await store.findMember(options.lock?.tx ?? db, id, actor.username);
    return { muc, role: member?.role ?? null, username: actor.username };
  }

  /** Refuses callers below `level`: non-members get "not members", members without the rank "permission denied". */
  require(a: MucAccess, level: Level): void {
    if (a.role === "app") return;
    if (a.muc.disabled) throw imError("groupDisabled");
    if (a.role === null) throw imError("notMember", { username: a.username ?? "" });
    if (RANK[a.role] < RANK[level]) {
      throw denied(
        level === "owner"
          ? `only the owner of ${a.muc.id} may do this`
          : `only the owner or an admin of ${a.muc.id} may do this`,
      );
    }
  }

  /** The user a caller acts for: itself, or (app token) the user the request names. */
  private self(a: MucAccess, named?: string): string {
    if (a.username) return a.username;
    if (!named) throw denied("this call needs a user's token");
    return named;
  }

  private async notifyMembers(
    s: Scope,
    a: MucAccess,
    op: ImMucOp,
    extra: {
      users?: string[];
      reason?: string;
      detail?: Record<string, unknown>;
      also?: string[];
      except?: string[];
    } = {},
  ) {
    const members = await store.allMemberNames(s.tx, a.muc.id);
    const except = new Set(extra.except ?? []);
    const to = [...members, ...(extra.also ?? [])].filter((u) => !except.has(u));
    await s.notify(
      to,
      {
        ns: "muc",
        op,
        kind: this.kind,
        mucId: String(a.muc.id),
        from: a.username ?? "admin",
        ...(extra.users && { users: extra.users }),
        ...(extra.reason !== undefined && { reason: extra.reason }),
        ...(extra.detail && { detail: extra.detail }),
        // A join or leave tells the members how many they are now.
        ...((op === "presence" || op === "absence") && { memberCount: members.length }),
      },
      { durable: this.kind === "group" },
    );
  }

  private async notifyUsers(
    s: Scope,
    a: MucAccess,
    to: string[],
    op: ImMucOp,
    extra: { users?: string[]; reason?: string; detail?: Record<string, unknown> } = {},
  ) {
    await s.notify(
      to,
      { ns: "muc", op, kind: this.kind, mucId: String(a.muc.id), from: a.username ?? "admin", ...extra },
      { durable: this.kind === "group" },
    );
  }

  private async requireUsers(db: Executor, usernames: readonly string[]): Promise<void> {
    const found = await existingUsers(db, usernames);
    const missing = usernames.find((u) => !found.has(u));
    if (missing) throw imError("userNotFound", { username: missing });
  }

  /** Adds members within capacity; refuses blocked users. Returns the names actually added. */
  private async admit(
    s: Scope,
    a: MucAccess,
    usernames: readonly string[],
    role: MucRole = "member",
  ): Promise<string[]> {
    const blocked = await store.inList(s.tx, "im_muc_blocks", a.muc.id, usernames);
    const first = usernames.find((u) => blocked.has(u));
    if (first) throw imError("blockedFromMuc", { username: first, id: a.muc.id });
    const current = await store.membersAmong(s.tx, a.muc.id, usernames);
    const fresh = usernames.filter((u) => !current.has(u));
    if (fresh.length === 0) return [];
    const count = (await store.lockMuc(s.tx, a.muc.id, this.kind))?.member_count ?? a.muc.member_count;
    if (count + fresh.length > a.muc.max_users) throw imError("mucFull");
    const added = await store.addMembers(
      s.tx,
      a.muc.id,
      fresh.map((username) => ({ username, role })),
      s.now,
    );
    await store.dropRequests(s.tx, a.muc.id, added);
    await store.refreshCount(s.tx, a.muc.id);
    return added;
  }

  /** Removes members (and their admin role, mute and attributes). */
  private async expel(s: Scope, a: MucAccess, usernames: readonly string[]): Promise<string[]> {
    const removed = await store.removeMembers(s.tx, a.muc.id, usernames);
    if (removed.length === 0) return [];
    await store.deleteMutes(s.tx, a.muc.id, removed);
    await store.removeFromList(s.tx, "im_muc_allowlist", a.muc.id, removed);
    if (this.kind === "group") await store.dropMemberAttrs(s.tx, a.muc.id, removed);
    else {
      const keys = await store.dropAutoDeleteAttrs(s.tx, a.muc.id, removed);
      if (keys.length > 0) {
        await this.notifyMembers(s, a, "roomAttributesRemove", { detail: roomAttributesDetail(keys) });
      }
    }
    await store.refreshCount(s.tx, a.muc.id);
    return removed;
  }

  /** Targets of a moderation: must be members, never the owner, and admins only by the owner. */
  private async moderatable(
    s: Scope,
    a: MucAccess,
    usernames: readonly string[],
    options: { membersOnly: boolean },
  ): Promise<void> {
    const members = await store.membersAmong(s.tx, a.muc.id, usernames);
    for (const u of usernames) {
      const m = members.get(u);
      if (!m) {
        if (options.membersOnly) throw imError("notMember", { username: u });
        continue;
      }
      if (m.role === "owner") throw denied(`the owner of ${a.muc.id} cannot be moderated`);
      if (m.role === "admin" && a.role !== "owner" && a.role !== "app") {
        throw denied(`only the owner may moderate an admin of ${a.muc.id}`);
      }
    }
    if (!options.membersOnly) {
      await this.requireUsers(
        s.tx,
        usernames.filter((u) => !members.has(u)),
      );
    }
  }

  async memberNames(db: Executor, id: number): Promise<string[]> {
    return store.allMemberNames(db, id);
  }

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
      await store.addMembers(s.tx, id, [{ username: owner, role: "owner" }], s.now);
      const created = await store.lockMuc(s.tx, id, this.kind);
      if (!created) throw new Error("group vanished after insert");
      const a: MucAccess = { muc: created, role: "owner", username: owner };
      let invited: string[] = [];
      if (this.kind === "group" && f.inviteNeedConfirm && members.length > 0) {
        for (const u of members) {
          await store.upsertRequest(s.tx, {
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
        await store.addMembers(
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
      const me = actor.kind === "user" ? await store.findMember(db, id, actor.username) : undefined;
      if (this.kind === "group" && !muc.public && actor.kind === "user" && !me) {
        throw imError("notMember", { username: actor.username });
      }
      const members = await store.memberPage(db, id, 0, muc.max_users + 1);
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
      const target = await store.findMember(s.tx, a.muc.id, newOwner);
      if (!target) throw imError("notMember", { username: newOwner });
      await store.setRole(s.tx, a.muc.id, a.muc.owner, "member");
      await store.setRole(s.tx, a.muc.id, newOwner, "owner");
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
    const rows = await store.memberPage(this.deps.db, a.muc.id, (page.pagenum - 1) * page.pagesize, page.pagesize);
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
    const rows = await store.memberPageAfter(this.deps.db, a.muc.id, after, limit + 1);
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

  async admins(actor: ImActor, rawId: string): Promise<string[]> {
    const a = await this.access(this.deps.db, actor, rawId);
    this.require(a, "member");
    return store.adminNames(this.deps.db, a.muc.id);
  }

  async addAdmin(actor: ImActor, rawId: string, username: string): Promise<void> {
    await inScope(this.deps, async (s) => {
      const a = await this.access(s.tx, actor, rawId, { lock: s });
      this.require(a, "owner");
      const target = await store.findMember(s.tx, a.muc.id, username);
      if (!target) throw imError("notMember", { username });
      if (target.role === "owner") throw denied(`${username} owns ${a.muc.id}`);
      if (target.role === "admin") return;
      const admins = await store.adminNames(s.tx, a.muc.id);
      if (admins.length >= this.limits.admins) throw imError("adminLimit", { max: this.limits.admins });
      await store.setRole(s.tx, a.muc.id, username, "admin");
      await this.notifyMembers(s, a, "addAdmin", { users: [username] });
    });
  }

  async removeAdmin(actor: ImActor, rawId: string, username: string): Promise<void> {
    await inScope(this.deps, async (s) => {
      const a = await this.access(s.tx, actor, rawId, { lock: s });
      this.require(a, "owner");
      const target = await store.findMember(s.tx, a.muc.id, username);
      if (!target) throw imError("notMember", { username });
      if (target.role !== "admin") throw denied(`${username} is not an admin of ${a.muc.id}`);
      await store.setRole(s.tx, a.muc.id, username, "member");
      await this.notifyMembers(s, a, "removeAdmin", { users: [username] });
    });
  }

  /* ---------- mutes ---------- */

  /** Mutes members for `durationMs` (-1: until unmuted). Returns each mute's end, in ms. */
  async mute(
    actor: ImActor,
    rawId: string,
    usernames: string[],
    durationMs: number,
  ): Promise<{ user: string; expire: number }[]> {
    return inScope(this.deps, async (s) => {
      const a = await this.access(s.tx, actor, rawId, { lock: s });
      this.require(a, "admin");
      await this.moderatable(s, a, usernames, { membersOnly: true });
      const until = durationMs < 0 ? FOREVER : new Date(Math.min(s.nowMs + durationMs, FOREVER.getTime()));
      await store.setMutes(s.tx, a.muc.id, usernames, until);
      // The client reads the mute's end from the notice's ext as `user_mute_time` (easemob-wire §3j, op 23).
      await this.notifyMembers(s, a, "addMute", { users: usernames, detail: { user_mute_time: until.getTime() } });
      return usernames.map((user) => ({ user, expire: until.getTime() }));
    });
  }

  async unmute(actor: ImActor, rawId: string, usernames: string[]): Promise<string[]> {
    return inScope(this.deps, async (s) => {
      const a = await this.access(s.tx, actor, rawId, { lock: s });
      this.require(a, "admin");
      await store.deleteMutes(s.tx, a.muc.id, usernames);
      await this.notifyMembers(s, a, "removeMute", { users: usernames });
      return usernames;
    });
  }

  async muteList(actor: ImActor, rawId: string): Promise<{ user: string; expire: number }[]> {
    const a = await this.access(this.deps.db, actor, rawId);
    this.require(a, "member");
    const rows = await store.activeMutes(this.deps.db, a.muc.id, this.deps.clock.now());
    return rows.map((r) => ({ user: r.username, expire: r.until.getTime() }));
  }

  /** Whether a member is muted now (the mute has not ended on the app clock). */
  async isMuted(actor: ImActor, rawId: string, username: string): Promise<boolean> {
    const a = await this.access(this.deps.db, actor, rawId);
    this.require(a, "member");
    return (await store.muteOf(this.deps.db, a.muc.id, username, this.deps.clock.now())) !== null;
  }

  /* ---------- blocks ---------- */

  /** Blocks users: members among them are removed, and none can join again until unblocked. */
  async block(actor: ImActor, rawId: string, usernames: string[]): Promise<string[]> {
    return inScope(this.deps, async (s) => {
      const a = await this.access(s.tx, actor, rawId, { lock: s });
      this.require(a, "admin");
      await this.moderatable(s, a, usernames, { membersOnly: false });
      await store.addToList(s.tx, "im_muc_blocks", a.muc.id, usernames, s.now);
      await store.dropRequests(s.tx, a.muc.id, usernames);
      const removed = await this.expel(s, a, usernames);
      // Op 12 BAN: added to the blocklist (the client's legacy change "ban"; no event object).
      await this.notifyMembers(s, a, "ban", { users: usernames, also: removed });
      return usernames;
    });
  }

  async unblock(actor: ImActor, rawId: string, usernames: string[]): Promise<string[]> {
    return inScope(this.deps, async (s) => {
      const a = await this.access(s.tx, actor, rawId, { lock: s });
      this.require(a, "admin");
      await store.removeFromList(s.tx, "im_muc_blocks", a.muc.id, usernames);
      // Op 13 ALLOW: taken off the blocklist (legacy change "allow", event "unblockMember"), told to them.
      await this.notifyUsers(s, a, usernames, "allow", { users: usernames });
      return usernames;
    });
  }

  async blockList(actor: ImActor, rawId: string): Promise<string[]> {
    const a = await this.access(this.deps.db, actor, rawId);
    this.require(a, "admin");
    return store.listOf(this.deps.db, "im_muc_blocks", a.muc.id);
  }

  /* ---------- whole-group ban and the allowlist ---------- */

  async setMuteAll(actor: ImActor, rawId: string, on: boolean): Promise<void> {
    await inScope(this.deps, async (s) => {
      const a = await this.access(s.tx, actor, rawId, { lock: s });
      this.require(a, "admin");
      await store.updateMuc(s.tx, a.muc.id, { mute_all: on }, s.now);
      await this.notifyMembers(s, a, on ? "muteAll" : "unmuteAll");
    });
  }

  async allow(actor: ImActor, rawId: string, usernames: string[]): Promise<string[]> {
    return inScope(this.deps, async (s) => {
      const a = await this.access(s.tx, actor, rawId, { lock: s });
      this.require(a, "admin");
      const members = await store.membersAmong(s.tx, a.muc.id, usernames);
      const outsider = usernames.find((u) => !members.has(u));
      if (outsider) throw imError("notMember", { username: outsider });
      await store.addToList(s.tx, "im_muc_allowlist", a.muc.id, usernames, s.now);
      await this.notifyMembers(s, a, "addUserToAllowlist", { users: usernames });
      return usernames;
    });
  }

  async disallow(actor: ImActor, rawId: string, usernames: string[]): Promise<string[]> {
    return inScope(this.deps, async (s) => {
      const a = await this.access(s.tx, actor, rawId, { lock: s });
      this.require(a, "admin");
      await store.removeFromList(s.tx, "im_muc_allowlist", a.muc.id, usernames);
      await this.notifyMembers(s, a, "removeAllowlistMember", { users: usernames });
      return usernames;
    });
  }

  async allowList(actor: ImActor, rawId: string): Promise<string[]> {
    const a = await this.access(this.deps.db, actor, rawId);
    this.require(a, "member");
    return store.listOf(this.deps.db, "im_muc_allowlist", a.muc.id);
  }

  /** A member may check itself; the owner and admins anyone. */
  async isAllowed(actor: ImActor, rawId: string, username: string): Promise<boolean> {
    const a = await this.access(this.deps.db, actor, rawId);
    this.require(a, username === a.username ? "member" : "admin");
    return (await store.inList(this.deps.db, "im_muc_allowlist", a.muc.id, [username])).has(username);
  }

  /**
   * May `username` send to this group or room now? The gateway asks before accepting a message: members
   * only; not while muted; not during a ban unless allowlisted (the owner and admins always may).
   */
  async sendCheck(
    db: Executor,
    rawId: string,
    username: string,
  ): Promise<"ok" | "not_member" | "muted" | "banned" | "not_found" | "disabled"> {
    const muc = await store.findMuc(db, mucIdOf(rawId, this.kind), this.kind);
    if (!muc) return "not_found";
    if (muc.disabled) return "disabled";
    const member = await store.findMember(db, muc.id, username);
    if (!member) return "not_member";
    if (member.role !== "member") return "ok";
    if (await store.muteOf(db, muc.id, username, this.deps.clock.now())) return "muted";
    if (muc.mute_all && !(await store.inList(db, "im_muc_allowlist", muc.id, [username])).has(username)) {
      return "banned";
    }
    return "ok";
  }

  /* ---------- announcement ---------- */

  async announcement(actor: ImActor, rawId: string): Promise<string> {
    const a = await this.access(this.deps.db, actor, rawId);
    if (!(this.kind === "group" && a.muc.public)) this.require(a, "member");
    return a.muc.announcement;
  }

  async setAnnouncement(actor: ImActor, rawId: string, text: string): Promise<void> {
    await inScope(this.deps, async (s) => {
      const a = await this.access(s.tx, actor, rawId, { lock: s });
      this.require(a, "admin");
      await store.updateMuc(s.tx, a.muc.id, { announcement: text }, s.now);
      // The client reads the new announcement from the notice's reason (easemob-wire §3j, op 25).
      await this.notifyMembers(s, a, text === "" ? "deleteAnnouncement" : "updateAnnouncement", {
        reason: text,
        detail: { announcement: text },
      });
    });
  }

  /* ---------- joining and leaving ---------- */

  /** Removes members: the owner or an admin; admins only by the owner. */
  async remove(actor: ImActor, rawId: string, usernames: string[]): Promise<string[]> {
    return inScope(this.deps, async (s) => {
      const a = await this.access(s.tx, actor, rawId, { lock: s });
      this.require(a, "admin");
      await this.moderatable(s, a, usernames, { membersOnly: true });
      const removed = await this.expel(s, a, usernames);
      await this.notifyUsers(s, a, removed, "kick", { users: removed });
      await this.notifyMembers(s, a, "absence", { users: removed });
      return removed;
    });
  }

  /** Adds users directly (chat rooms: the owner or an admin; the gateway's join goes through join()). */
  async addUsers(actor: ImActor, rawId: string, usernames: string[]): Promise<string[]> {
    return inScope(this.deps, async (s) => {
      const a = await this.access(s.tx, actor, rawId, { lock: s });
      this.require(a, "admin");
      await this.requireUsers(s.tx, usernames);
      const added = await this.admit(s, a, usernames);
      await this.notifyUsers(s, a, added, "directJoined", { users: added, detail: { name: a.muc.name } });
      await this.notifyMembers(s, a, "presence", { users: added, except: added });
      return added;
    });
  }

  async quit(actor: ImActor, rawId: string): Promise<void> {
    await inScope(this.deps, (s) => this.quitIn(s, actor, rawId));
  }

  private async quitIn(s: Scope, actor: ImActor, rawId: string): Promise<{ a: MucAccess; me: string }> {
    const a = await this.access(s.tx, actor, rawId, { lock: s });
    const me = this.self(a);
    if (a.role === null) throw imError("notMember", { username: me });
    if (a.role === "owner") throw denied(`the owner cannot leave ${a.muc.id}; transfer it or dissolve it`);
    await this.expel(s, a, [me]);
    await this.notifyMembers(s, a, "absence", { users: [me] });
    return { a, me };
  }

  /**
   * Ops 2 JOIN / 3 LEAVE: a chat room joined or left over the socket is acknowledged to the device that
   * asked; the user's other devices online now hear of it (legacy change "join" / "leave"; rooms keep
   * no sync queue, so a device that is offline does not).
   */
  private async tellOwnDevices(
    s: Scope,
    a: MucAccess,
    me: string,
    op: "join" | "leave",
    resource: string | undefined,
  ): Promise<void> {
    await s.notify(
      [me],
      { ns: "muc", op, kind: this.kind, mucId: String(a.muc.id), from: me, users: [me] },
      { durable: this.kind === "group", skipResource: resource },
    );
  }

  /** Chat rooms: join (over the socket). Blocked users and full rooms are refused. */
  async join(
    actor: ImActor,
    rawId: string,
  ): Promise<{ memberCount: number; muteExpire: number; allowlisted: boolean; muted: boolean; created: number }> {
    return inScope(this.deps, async (s) => {
      const a = await this.access(s.tx, actor, rawId, { lock: s });
      const me = this.self(a);
      if (this.kind === "group" && a.role === null && (!a.muc.public || a.muc.members_only)) {
        throw denied(`${a.muc.id} needs an application to join`);
      }
      const added = await this.admit(s, a, [me]);
      if (added.length > 0) {
        await this.notifyMembers(s, a, "presence", { users: [me], except: [me] });
        if (this.kind === "room") await this.tellOwnDevices(s, a, me, "join", actor.resource);
      }
      const until = await store.muteOf(s.tx, a.muc.id, me, s.now);
      return {
        memberCount: (await store.lockMuc(s.tx, a.muc.id, this.kind))?.member_count ?? 0,
        muteExpire: until ? until.getTime() : -1,
        allowlisted: (await store.inList(s.tx, "im_muc_allowlist", a.muc.id, [me])).has(me),
        muted: a.muc.mute_all,
        created: a.muc.created_at.getTime(),
      };
    });
  }

  /** Chat rooms: leave (over the socket). */
  async leave(actor: ImActor, rawId: string): Promise<void> {
    await inScope(this.deps, async (s) => {
      const { a, me } = await this.quitIn(s, actor, rawId);
      if (this.kind === "room") await this.tellOwnDevices(s, a, me, "leave", actor.resource);
    });
  }

  /** Groups: apply to join. Open public groups admit at once; approval groups queue the application. */
  async apply(actor: ImActor, rawId: string, message: string): Promise<"joined" | "applied"> {
    return inScope(this.deps, async (s) => {
      const a = await this.access(s.tx, actor, rawId, { lock: s });
      const me = this.self(a);
      if (a.role !== null && a.role !== "app") throw imError("alreadyMember", { username: me });
      if ((await store.inList(s.tx, "im_muc_blocks", a.muc.id, [me])).has(me)) {
        throw imError("blockedFromMuc", { username: me, id: a.muc.id });
      }
      if (a.muc.disabled) throw imError("groupDisabled");
      if (!a.muc.public) throw denied(`${a.muc.id} is private; members join by invitation`);
      if (a.muc.member_count >= a.muc.max_users) throw imError("mucFull");
      if (a.muc.members_only) {
        await store.upsertRequest(s.tx, {
          mucId: a.muc.id,
          username: me,
          kind: "apply",
          inviter: null,
          reason: message,
          now: s.now,
        });
        const moderators = [a.muc.owner, ...(await store.adminNames(s.tx, a.muc.id))];
        await this.notifyUsers(s, { ...a, username: me }, moderators, "apply", { reason: message });
        return "applied";
      }
      await this.admit(s, a, [me]);
      await this.notifyMembers(s, { ...a, username: me }, "presence", { users: [me], except: [me] });
      return "joined";
    });
  }

  /** Groups: an owner or admin accepts or declines an application. */
  async verifyApplication(
    actor: ImActor,
    rawId: string,
    applicant: string,
    accept: boolean,
    reason: string,
  ): Promise<void> {
    await inScope(this.deps, async (s) => {
      const a = await this.access(s.tx, actor, rawId, { lock: s });
      this.require(a, "admin");
      const request = await store.takeRequest(s.tx, a.muc.id, applicant, "apply");
      if (!request) throw denied(`${applicant} has no pending application to ${a.muc.id}`);
      if (!accept) {
        await this.notifyUsers(s, a, [applicant], "applyDecline", { users: [applicant], reason });
        return;
      }
      await this.admit(s, a, [applicant]);
      await this.notifyUsers(s, a, [applicant], "applyAccept");
      await this.notifyMembers(s, a, "presence", { users: [applicant], except: [applicant] });
    });
  }

  /**
   * Groups: invite users. Plain members may invite only when the group allows it. With invite
   * confirmation the invitees are asked; otherwise they join at once.
   */
  async invite(actor: ImActor, rawId: string, usernames: string[]): Promise<{ user: string; joined: boolean }[]> {
    return inScope(this.deps, async (s) => {
      const a = await this.access(s.tx, actor, rawId, { lock: s });
      this.require(a, "member");
      if (a.role === "member" && !a.muc.allow_invites) throw denied(`members of ${a.muc.id} may not invite`);
      await this.requireUsers(s.tx, usernames);
      const current = await store.membersAmong(s.tx, a.muc.id, usernames);
      const already = usernames.find((u) => current.has(u));
      if (already) throw imError("alreadyMember", { username: already });
      const blocked = await store.inList(s.tx, "im_muc_blocks", a.muc.id, usernames);
      const first = usernames.find((u) => blocked.has(u));
      if (first) throw imError("blockedFromMuc", { username: first, id: a.muc.id });
      const inviter = a.username ?? a.muc.owner;
      if (a.muc.invite_need_confirm) {
        if (a.muc.member_count + usernames.length > a.muc.max_users) throw imError("mucFull");
        for (const u of usernames) {
          await store.upsertRequest(s.tx, {
            mucId: a.muc.id,
            username: u,
            kind: "invite",
            inviter,
            reason: "",
            now: s.now,
          });
        }
        await this.notifyUsers(s, a, usernames, "invite", { users: usernames, detail: { name: a.muc.name } });
        return usernames.map((user) => ({ user, joined: false }));
      }
      const added = await this.admit(s, a, usernames);
      await this.notifyUsers(s, a, added, "directJoined", { users: added, detail: { name: a.muc.name } });
      await this.notifyMembers(s, a, "presence", { users: added, except: added });
      return usernames.map((user) => ({ user, joined: true }));
    });
  }

  /** Groups: the invitee accepts or declines its own invitation. */
  async verifyInvitation(actor: ImActor, rawId: string, invitee: string, accept: boolean): Promise<void> {
    await inScope(this.deps, async (s) => {
      const a = await this.access(s.tx, actor, rawId, { lock: s });
      if (a.username && a.username !== invitee) throw denied("only the invitee may answer an invitation");
      const request = await store.takeRequest(s.tx, a.muc.id, invitee, "invite");
      if (!request) throw denied(`${invitee} has no pending invitation to ${a.muc.id}`);
      const inviter = request.inviter ?? a.muc.owner;
      const as = { ...a, username: invitee };
      if (!accept) {
        await this.notifyUsers(s, as, [inviter], "inviteDecline", { users: [invitee] });
        return;
      }
      await this.admit(s, a, [invitee]);
      await this.notifyUsers(s, as, [inviter], "inviteAccept", { users: [invitee] });
      await this.notifyMembers(s, as, "presence", { users: [invitee], except: [invitee, inviter] });
    });
  }

  /** Groups: stop (or resume) receiving the group's messages. */
  async shield(actor: ImActor, rawId: string, on: boolean): Promise<string> {
    return inScope(this.deps, async (s) => {
      const a = await this.access(s.tx, actor, rawId);
      const me = this.self(a);
      if (a.role === null) throw imError("notMember", { username: me });
      await store.setShielded(s.tx, a.muc.id, me, on);
      // Ops 15 BLOCK / 16 UNBLOCK: the user's other devices learn that it stopped (or resumed) receiving
      // the group's messages (legacy change "block" / "unblock"); the device that asked already knows.
      await s.notify(
        [me],
        { ns: "muc", op: on ? "block" : "unblock", kind: this.kind, mucId: String(a.muc.id), from: me, users: [me] },
        { durable: true, skipResource: actor.resource },
      );
      return me;
    });
  }

  /* ---------- joined and public lists ---------- */

  async joined(username: string, offset: number, limit: number) {
    return store.joinedPage(this.deps.db, username, this.kind, offset, limit);
  }

  async joinedCount(username: string): Promise<number> {
    return store.joinedCount(this.deps.db, username, this.kind);
  }

  async publicGroups(
    cursor: string | undefined,
    limit: number,
  ): Promise<{ rows: store.MucRow[]; cursor: string | null }> {
    const after = cursor ? Number(Buffer.from(cursor, "base64url").toString("utf8")) : 0;
    if (!Number.isSafeInteger(after) || after < 0) throw invalidParam("cursor");
    const rows = await store.publicGroupsAfter(this.deps.db, after, limit + 1);
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      rows: page,
      cursor: rows.length > limit && last ? Buffer.from(String(last.id)).toString("base64url") : null,
    };
  }

  async rooms(offset: number, limit: number): Promise<store.MucRow[]> {
    return store.roomPage(this.deps.db, offset, limit);
  }

  /* ---------- member attributes (groups) ---------- */

  /**
   * Sets a member's attributes: a member its own, the owner or an admin anyone's. An empty value removes
   * the key. Keys up to 16 characters, values up to 512, all of one member's up to the configured bytes.
   */
  async setMemberAttributes(
    actor: ImActor,
    rawId: string,
    username: string,
    metaData: Record<string, string>,
  ): Promise<Record<string, string>> {
    return inScope(this.deps, async (s) => {
      const a = await this.access(s.tx, actor, rawId);
      this.require(a, "member");
      if (a.username && a.username !== username && a.role === "member") {
        throw new AttributeError(60010, "you have no permission to set the attributes of other members");
      }
      if (!(await store.findMember(s.tx, a.muc.id, username))) throw imError("notMember", { username });
      const set: Record<string, string> = {};
      const remove: string[] = [];
      for (const [key, value] of Object.entries(metaData)) {
        if (key.length === 0 || key.length > IM_LIMITS.memberAttributeKeyLength) throw invalidParam(`metaData.${key}`);
        if (value.length > IM_LIMITS.memberAttributeValueLength) {
          throw new AttributeError(
            60010,
            `the value of ${key} exceeds chatgroup user metadata single value limit of ${IM_LIMITS.memberAttributeValueLength}`,
          );
        }
        if (value === "") remove.push(key);
        else set[key] = value;
      }
      const current = await store.memberAttrs(s.tx, a.muc.id, [username], []);
      const merged: Record<string, string> = Object.fromEntries(current.map((r) => [r.key, r.value]));
      for (const k of remove) delete merged[k];
      Object.assign(merged, set);
      const bytes = Object.entries(merged).reduce((n, [k, v]) => n + Buffer.byteLength(k) + Buffer.byteLength(v), 0);
      if (bytes > this.deps.config.maxMemberAttributesBytes) {
        throw new AttributeError(
          60006,
          `the attributes of ${username} exceed the limit of ${this.deps.config.maxMemberAttributesBytes} bytes`,
        );
      }
      await store.putMemberAttrs(s.tx, a.muc.id, username, set, remove);
      await this.announceMemberAttributes(s, a, actor, username, metaData);
      return merged;
    });
  }

  /**
   * Tells the members about a member's changed attributes (`eventInfo.ext` carries `username` and
   * `properties`, what the client reads). The acting user's other devices get it with the acting device
   * in `from`, which the client turns into a multi-device event; the acting device itself already knows.
   */
  private async announceMemberAttributes(
    s: Scope,
    a: MucAccess,
    actor: ImActor,
    username: string,
    metaData: Record<string, string>,
  ): Promise<void> {
    const detail = { username, properties: metaData };
    if (!a.username) {
      await this.notifyMembers(s, a, "memberAttributesUpdate", { users: [username], detail });
      return;
    }
    await this.notifyMembers(s, a, "memberAttributesUpdate", { users: [username], detail, except: [a.username] });
    const resource = actor.kind === "user" ? actor.resource : undefined;
    await s.notify(
      [a.username],
      {
        ns: "muc",
        op: "memberAttributesUpdate",
        kind: this.kind,
        mucId: String(a.muc.id),
        from: a.username,
        ...(resource && { fromResource: resource }),
        users: [username],
        detail,
      },
      { durable: this.kind === "group", skipResource: resource },
    );
  }

  async memberAttributes(
    actor: ImActor,
    rawId: string,
    usernames: string[],
    keys: string[],
  ): Promise<Record<string, Record<string, string>>> {
    const a = await this.access(this.deps.db, actor, rawId);
    this.require(a, "member");
    const rows = await store.memberAttrs(this.deps.db, a.muc.id, usernames, keys);
    const out: Record<string, Record<string, string>> = Object.fromEntries(usernames.map((u) => [u, {}]));
    for (const r of rows) (out[r.username] ??= {})[r.key] = r.value;
    return out;
  }

  /* ---------- chat-room attributes ---------- */

  async roomAttributes(actor: ImActor, rawId: string, keys: string[] | undefined): Promise<Record<string, string>> {
    const a = await this.access(this.deps.db, actor, rawId);
    this.require(a, "member");
    const rows = await store.roomAttrs(this.deps.db, a.muc.id, keys);
    return Object.fromEntries(rows.map((r) => [r.key, r.value]));
  }

  /**
   * Sets chat-room attributes. Each key is set or refused on its own: a key another member set needs
   * `forced` (owner or admin only); keys and values must be legal and within the limits.
   */
  async setRoomAttributes(
    actor: ImActor,
    rawId: string,
    pathUser: string,
    metaData: Record<string, string>,
    options: { autoDelete: boolean; forced: boolean },
  ): Promise<{ successKeys: string[]; errorKeys: Record<string, string> }> {
    return inScope(this.deps, async (s) => {
      const a = await this.access(s.tx, actor, rawId, { lock: s });
      this.require(a, "member");
      const me = a.username ?? pathUser;
      if (a.username && a.username !== pathUser) throw denied("a user may set attributes only as itself");
      if (options.forced) this.require(a, "admin");
      const existing = new Map((await store.roomAttrs(s.tx, a.muc.id)).map((r) => [r.key, r]));
      const errorKeys: Record<string, string> = {};
      const rows: { key: string; value: string; owner: string; autoDelete: boolean }[] = [];
      let count = existing.size;
      for (const [key, value] of Object.entries(metaData)) {
        if (!/^[a-zA-Z0-9_.-]{1,128}$/.test(key) || value.length === 0) {
          errorKeys[key] = imErrorText(IM_ATTRIBUTE_ERRORS.illegal, { key });
        } else if (value.length > IM_LIMITS.roomAttributeValueLength) {
          errorKeys[key] = imErrorText(IM_ATTRIBUTE_ERRORS.tooLong, { key });
        } else {
          const prev = existing.get(key);
          if (prev && prev.owner !== me && !options.forced) {
            errorKeys[key] = imErrorText(IM_ATTRIBUTE_ERRORS.notOwner, { key });
          } else if (!prev && count >= this.deps.config.maxRoomAttributes) errorKeys[key] = IM_ATTRIBUTE_ERRORS.tooMany;
          else {
            if (!prev) count++;
            rows.push({ key, value, owner: me, autoDelete: options.autoDelete });
          }
        }
      }
      await store.putRoomAttrs(s.tx, a.muc.id, rows, s.now);
      if (rows.length > 0) {
        await this.notifyMembers(s, { ...a, username: me }, "roomAttributesUpdate", {
          detail: roomAttributesDetail(
            rows.map((r) => r.key),
            Object.fromEntries(rows.map((r) => [r.key, r.value])),
          ),
        });
      }
      return { successKeys: rows.map((r) => r.key), errorKeys };
    });
  }

  async removeRoomAttributes(
    actor: ImActor,
    rawId: string,
    pathUser: string,
    keys: string[],
    forced: boolean,
  ): Promise<{ successKeys: string[]; errorKeys: Record<string, string> }> {
    return inScope(this.deps, async (s) => {
      const a = await this.access(s.tx, actor, rawId, { lock: s });
      this.require(a, "member");
      const me = a.username ?? pathUser;
      if (a.username && a.username !== pathUser) throw denied("a user may remove attributes only as itself");
      if (forced) this.require(a, "admin");
      const existing = new Map((await store.roomAttrs(s.tx, a.muc.id, keys)).map((r) => [r.key, r]));
      const errorKeys: Record<string, string> = {};
      const gone: string[] = [];
      for (const key of keys) {
        const prev = existing.get(key);
        if (!prev) errorKeys[key] = imErrorText(IM_ATTRIBUTE_ERRORS.illegal, { key });
        else if (prev.owner !== me && !forced) errorKeys[key] = imErrorText(IM_ATTRIBUTE_ERRORS.notOwner, { key });
        else gone.push(key);
      }
      await store.deleteRoomAttrs(s.tx, a.muc.id, gone);
      if (gone.length > 0) {
        await this.notifyMembers(s, { ...a, username: me }, "roomAttributesRemove", {
          detail: roomAttributesDetail(gone),
        });
      }
      return { successKeys: gone, errorKeys };
    });
  }

  /* ---------- group read receipts ---------- */

  async readAcks(actor: ImActor, rawId: string, messageId: number, key: string | undefined, limit: number) {
    const a = await this.access(this.deps.db, actor, rawId);
    this.require(a, "member");
    let after: { readMs: number; username: string } | null = null;
    if (key) {
      try {
        const [readMs, username] = JSON.parse(Buffer.from(key, "base64url").toString("utf8")) as [unknown, unknown];
        if (typeof readMs !== "number" || typeof username !== "string") throw new Error("bad key");
        after = { readMs, username };
      } catch {
        throw invalidParam("key");
      }
    }
    const rows = await store.readAcksAfter(this.deps.db, messageId, after, limit + 1);
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      users: page.map((r) => r.username),
      total: await store.readAckCount(this.deps.db, messageId),
      nextKey:
        rows.length > limit && last
          ? Buffer.from(JSON.stringify([last.read_at.getTime(), last.username])).toString("base64url")
          : "",
      isLast: rows.length <= limit,
      mucId: a.muc.id,
    };
  }
}

/** Group member attribute failures: 400 with the error codes the client maps (60010, 60006). */
export class AttributeError extends ImError {
  constructor(code: number, description: string) {
    super("memberAttributes", {}, { code, description });
  }
}

/**
 * A chat room's attribute change as the client reads it from the notice's event info (easemob-wire §3j,
 * ops 43 and 44): `result.successKeys` names the keys changed, `properties` their new values (updates
 * only). The client walks `result.successKeys` unconditionally, so it must be there.
 */
function roomAttributesDetail(keys: string[], properties?: Record<string, string>): Record<string, unknown> {
  return { result: { successKeys: keys, errorKeys: {} }, ...(properties && { properties }) };
}
