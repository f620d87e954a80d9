import type { Executor } from "../../../db/tx";
import { denied, imError } from "../../errors";
import * as memberStore from "../../store/members";
import * as store from "../../store/mucs";
import { inScope, type ImActor } from "../core";
import { MucBase, FOREVER, mucIdOf } from "./base";

/** Admins, mutes, blocks, the whole-group ban and its allowlist, the send check and the announcement (ImMucs, service/mucs.ts). */
export class MucModeration extends MucBase {
  async admins(actor: ImActor, rawId: string): Promise<string[]> {
    const a = await this.access(this.deps.db, actor, rawId);
    this.require(a, "member");
    return memberStore.adminNames(this.deps.db, a.muc.id);
  }

  async addAdmin(actor: ImActor, rawId: string, username: string): Promise<void> {
    await inScope(this.deps, async (s) => {
      const a = await this.access(s.tx, actor, rawId, { lock: s });
      this.require(a, "owner");
      const target = await memberStore.findMember(s.tx, a.muc.id, username);
      if (!target) throw imError("notMember", { username });
      if (target.role === "owner") throw denied(`${username} owns ${a.muc.id}`);
      if (target.role === "admin") return;
      const admins = await memberStore.adminNames(s.tx, a.muc.id);
      if (admins.length >= this.limits.admins) throw imError("adminLimit", { max: this.limits.admins });
      await memberStore.setRole(s.tx, a.muc.id, username, "admin");
      await this.notifyMembers(s, a, "addAdmin", { users: [username] });
    });
  }

  async removeAdmin(actor: ImActor, rawId: string, username: string): Promise<void> {
    await inScope(this.deps, async (s) => {
      const a = await this.access(s.tx, actor, rawId, { lock: s });
      this.require(a, "owner");
      const target = await memberStore.findMember(s.tx, a.muc.id, username);
      if (!target) throw imError("notMember", { username });
      if (target.role !== "admin") throw denied(`${username} is not an admin of ${a.muc.id}`);
      await memberStore.setRole(s.tx, a.muc.id, username, "member");
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
      await memberStore.setMutes(s.tx, a.muc.id, usernames, until);
      // The client reads the mute's end from the notice's ext as `user_mute_time` (easemob-wire §3j, op 23).
      await this.notifyMembers(s, a, "addMute", { users: usernames, detail: { user_mute_time: until.getTime() } });
      return usernames.map((user) => ({ user, expire: until.getTime() }));
    });
  }

  async unmute(actor: ImActor, rawId: string, usernames: string[]): Promise<string[]> {
    return inScope(this.deps, async (s) => {
      const a = await this.access(s.tx, actor, rawId, { lock: s });
      this.require(a, "admin");
      await memberStore.deleteMutes(s.tx, a.muc.id, usernames);
      await this.notifyMembers(s, a, "removeMute", { users: usernames });
      return usernames;
    });
  }

  async muteList(actor: ImActor, rawId: string): Promise<{ user: string; expire: number }[]> {
    const a = await this.access(this.deps.db, actor, rawId);
    this.require(a, "member");
    const rows = await memberStore.activeMutes(this.deps.db, a.muc.id, this.deps.clock.now());
    return rows.map((r) => ({ user: r.username, expire: r.until.getTime() }));
  }

  /** Whether a member is muted now (the mute has not ended on the app clock). */
  async isMuted(actor: ImActor, rawId: string, username: string): Promise<boolean> {
    const a = await this.access(this.deps.db, actor, rawId);
    this.require(a, "member");
    return (await memberStore.muteOf(this.deps.db, a.muc.id, username, this.deps.clock.now())) !== null;
  }

  /* ---------- blocks ---------- */

  /** Blocks users: members among them are removed, and none can join again until unblocked. */
  async block(actor: ImActor, rawId: string, usernames: string[]): Promise<string[]> {
    return inScope(this.deps, async (s) => {
      const a = await this.access(s.tx, actor, rawId, { lock: s });
      this.require(a, "admin");
      await this.moderatable(s, a, usernames, { membersOnly: false });
      await memberStore.addToList(s.tx, "im_muc_blocks", a.muc.id, usernames, s.now);
      await memberStore.dropRequests(s.tx, a.muc.id, usernames);
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
      await memberStore.removeFromList(s.tx, "im_muc_blocks", a.muc.id, usernames);
      // Op 13 ALLOW: taken off the blocklist (legacy change "allow", event "unblockMember"), told to them.
      await this.notifyUsers(s, a, usernames, "allow", { users: usernames });
      return usernames;
    });
  }

  async blockList(actor: ImActor, rawId: string): Promise<string[]> {
    const a = await this.access(this.deps.db, actor, rawId);
    this.require(a, "admin");
    return memberStore.listOf(this.deps.db, "im_muc_blocks", a.muc.id);
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
      const members = await memberStore.membersAmong(s.tx, a.muc.id, usernames);
      const outsider = usernames.find((u) => !members.has(u));
      if (outsider) throw imError("notMember", { username: outsider });
      await memberStore.addToList(s.tx, "im_muc_allowlist", a.muc.id, usernames, s.now);
      await this.notifyMembers(s, a, "addUserToAllowlist", { users: usernames });
      return usernames;
    });
  }

  async disallow(actor: ImActor, rawId: string, usernames: string[]): Promise<string[]> {
    return inScope(this.deps, async (s) => {
      const a = await this.access(s.tx, actor, rawId, { lock: s });
      this.require(a, "admin");
      await memberStore.removeFromList(s.tx, "im_muc_allowlist", a.muc.id, usernames);
      await this.notifyMembers(s, a, "removeAllowlistMember", { users: usernames });
      return usernames;
    });
  }

  async allowList(actor: ImActor, rawId: string): Promise<string[]> {
    const a = await this.access(this.deps.db, actor, rawId);
    this.require(a, "member");
    return memberStore.listOf(this.deps.db, "im_muc_allowlist", a.muc.id);
  }

  /** A member may check itself; the owner and admins anyone. */
  async isAllowed(actor: ImActor, rawId: string, username: string): Promise<boolean> {
    const a = await this.access(this.deps.db, actor, rawId);
    this.require(a, username === a.username ? "member" : "admin");
    return (await memberStore.inList(this.deps.db, "im_muc_allowlist", a.muc.id, [username])).has(username);
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
    const member = await memberStore.findMember(db, muc.id, username);
    if (!member) return "not_member";
    if (member.role !== "member") return "ok";
    if (await memberStore.muteOf(db, muc.id, username, this.deps.clock.now())) return "muted";
    if (muc.mute_all && !(await memberStore.inList(db, "im_muc_allowlist", muc.id, [username])).has(username)) {
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
}
