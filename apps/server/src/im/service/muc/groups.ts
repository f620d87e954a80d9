import { IM_LIMITS } from "@tessera/contracts";
import { denied, imError, invalidParam } from "../../errors";
import * as memberStore from "../../store/members";
import * as store from "../../store/mucs";
import { inScope, type ImActor, type Scope } from "../core";
import { MucMembership } from "./membership";
import { AttributeError, type MucAccess } from "./base";

/** What only groups have: applications, invitations, shielding, the public list, member attributes and read receipts (ImMucs, service/mucs.ts). */
export class MucGroupFeatures extends MucMembership {
  /** Groups: apply to join. Open public groups admit at once; approval groups queue the application. */
  async apply(actor: ImActor, rawId: string, message: string): Promise<"joined" | "applied"> {
    return inScope(this.deps, async (s) => {
      const a = await this.access(s.tx, actor, rawId, { lock: s });
      const me = this.self(a);
      if (a.role !== null && a.role !== "app") throw imError("alreadyMember", { username: me });
      if ((await memberStore.inList(s.tx, "im_muc_blocks", a.muc.id, [me])).has(me)) {
        throw imError("blockedFromMuc", { username: me, id: a.muc.id });
      }
      if (a.muc.disabled) throw imError("groupDisabled");
      if (!a.muc.public) throw denied(`${a.muc.id} is private; members join by invitation`);
      if (a.muc.member_count >= a.muc.max_users) throw imError("mucFull");
      if (a.muc.members_only) {
        await memberStore.upsertRequest(s.tx, {
          mucId: a.muc.id,
          username: me,
          kind: "apply",
          inviter: null,
          reason: message,
          now: s.now,
        });
        const moderators = [a.muc.owner, ...(await memberStore.adminNames(s.tx, a.muc.id))];
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
      const request = await memberStore.takeRequest(s.tx, a.muc.id, applicant, "apply");
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
      const current = await memberStore.membersAmong(s.tx, a.muc.id, usernames);
      const already = usernames.find((u) => current.has(u));
      if (already) throw imError("alreadyMember", { username: already });
      const blocked = await memberStore.inList(s.tx, "im_muc_blocks", a.muc.id, usernames);
      const first = usernames.find((u) => blocked.has(u));
      if (first) throw imError("blockedFromMuc", { username: first, id: a.muc.id });
      const inviter = a.username ?? a.muc.owner;
      if (a.muc.invite_need_confirm) {
        if (a.muc.member_count + usernames.length > a.muc.max_users) throw imError("mucFull");
        for (const u of usernames) {
          await memberStore.upsertRequest(s.tx, {
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
      const request = await memberStore.takeRequest(s.tx, a.muc.id, invitee, "invite");
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
      await memberStore.setShielded(s.tx, a.muc.id, me, on);
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
      if (!(await memberStore.findMember(s.tx, a.muc.id, username))) throw imError("notMember", { username });
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
      const current = await memberStore.memberAttrs(s.tx, a.muc.id, [username], []);
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
      await memberStore.putMemberAttrs(s.tx, a.muc.id, username, set, remove);
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
    const rows = await memberStore.memberAttrs(this.deps.db, a.muc.id, usernames, keys);
    const out: Record<string, Record<string, string>> = Object.fromEntries(usernames.map((u) => [u, {}]));
    for (const r of rows) (out[r.username] ??= {})[r.key] = r.value;
    return out;
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
