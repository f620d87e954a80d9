import { denied, imError } from "../../errors";
import * as memberStore from "../../store/members";
import * as store from "../../store/mucs";
import { inScope, type ImActor, type Scope } from "../core";
import { MucModeration } from "./moderation";
import type { MucAccess } from "./base";

/** Joining and leaving: members removed or added, quitting, and chat rooms joined and left over the socket (ImMucs, service/mucs.ts). */
export class MucMembership extends MucModeration {
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
      const until = await memberStore.muteOf(s.tx, a.muc.id, me, s.now);
      return {
        memberCount: (await store.lockMuc(s.tx, a.muc.id, this.kind))?.member_count ?? 0,
        muteExpire: until ? until.getTime() : -1,
        allowlisted: (await memberStore.inList(s.tx, "im_muc_allowlist", a.muc.id, [me])).has(me),
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
}
