import { IM_LIMITS, type ImMucOp } from "@tessera/contracts";
import type { Executor } from "../../../db/tx";
import { denied, imError, ImError } from "../../errors";
import * as memberStore from "../../store/members";
import * as store from "../../store/mucs";
import { existingUsers } from "../../store/users";
import type { MucKind, MucRole } from "../../tables";
import { type ImActor, type ImDeps, type Scope } from "../core";

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

/**
 * What every part of ImMucs (service/mucs.ts) stands on: loading a group or room with the caller's role,
 * the rank checks, the notices to members, and admitting and expelling members. ImMucs is one class cut
 * into files along this chain: MucBase, MucModeration, MucMembership, MucGroupFeatures, MucRoomFeatures.
 */
export class MucBase {
  constructor(
    protected readonly deps: ImDeps,
    readonly kind: MucKind,
  ) {}

  protected get limits() {
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
    const member = await memberStore.findMember(options.lock?.tx ?? db, id, actor.username);
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
  protected self(a: MucAccess, named?: string): string {
    if (a.username) return a.username;
    if (!named) throw denied("this call needs a user's token");
    return named;
  }

  protected async notifyMembers(
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
    const members = await memberStore.allMemberNames(s.tx, a.muc.id);
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

  protected async notifyUsers(
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

  protected async requireUsers(db: Executor, usernames: readonly string[]): Promise<void> {
    const found = await existingUsers(db, usernames);
    const missing = usernames.find((u) => !found.has(u));
    if (missing) throw imError("userNotFound", { username: missing });
  }

  /** Adds members within capacity; refuses blocked users. Returns the names actually added. */
  protected async admit(
    s: Scope,
    a: MucAccess,
    usernames: readonly string[],
    role: MucRole = "member",
  ): Promise<string[]> {
    const blocked = await memberStore.inList(s.tx, "im_muc_blocks", a.muc.id, usernames);
    const first = usernames.find((u) => blocked.has(u));
    if (first) throw imError("blockedFromMuc", { username: first, id: a.muc.id });
    const current = await memberStore.membersAmong(s.tx, a.muc.id, usernames);
    const fresh = usernames.filter((u) => !current.has(u));
    if (fresh.length === 0) return [];
    const count = (await store.lockMuc(s.tx, a.muc.id, this.kind))?.member_count ?? a.muc.member_count;
    if (count + fresh.length > a.muc.max_users) throw imError("mucFull");
    const added = await memberStore.addMembers(
      s.tx,
      a.muc.id,
      fresh.map((username) => ({ username, role })),
      s.now,
    );
    await memberStore.dropRequests(s.tx, a.muc.id, added);
    await store.refreshCount(s.tx, a.muc.id);
    return added;
  }

  /** Removes members (and their admin role, mute and attributes). */
  protected async expel(s: Scope, a: MucAccess, usernames: readonly string[]): Promise<string[]> {
    const removed = await memberStore.removeMembers(s.tx, a.muc.id, usernames);
    if (removed.length === 0) return [];
    await memberStore.deleteMutes(s.tx, a.muc.id, removed);
    await memberStore.removeFromList(s.tx, "im_muc_allowlist", a.muc.id, removed);
    if (this.kind === "group") await memberStore.dropMemberAttrs(s.tx, a.muc.id, removed);
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
  protected async moderatable(
    s: Scope,
    a: MucAccess,
    usernames: readonly string[],
    options: { membersOnly: boolean },
  ): Promise<void> {
    const members = await memberStore.membersAmong(s.tx, a.muc.id, usernames);
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
    return memberStore.allMemberNames(db, id);
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
export function roomAttributesDetail(keys: string[], properties?: Record<string, string>): Record<string, unknown> {
  return { result: { successKeys: keys, errorKeys: {} }, ...(properties && { properties }) };
}
