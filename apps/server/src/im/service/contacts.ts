import { createHash } from "node:crypto";
import { IM_LIMITS } from "@tessera/contracts";
import { denied, imError, invalidParam } from "../errors";
import * as store from "../store/contacts";
import { existingUsers, findUser } from "../store/users";
import { inScope, type ImDeps, type Scope } from "./core";

/** The most contacts a roster version covers (as many as the REST contact list returns). */
const ROSTER_MAX = 5000;

/**
 * Contacts (spec 02 §4): a request is sent, then accepted or declined; delete removes the friendship
 * both ways. Remarks are the owner's own; block lists are per user (a blocked user's requests and
 * messages are refused).
 */
export class ImContacts {
  constructor(private readonly deps: ImDeps) {}

  private async roster(
    s: Scope,
    to: string,
    op: "invite" | "remove" | "accept" | "decline" | "agreed" | "refused",
    from: string,
    reason?: string,
    resource?: string,
  ) {
    await s.notify(
      [to],
      { ns: "roster", op, from, to, ...(reason !== undefined && { reason }) },
      { durable: true, skipResource: resource },
    );
  }

  async apply(
    me: string,
    to: string,
    reason: string,
    resource?: string,
  ): Promise<"requested" | "accepted" | "already"> {
    if (to === me) throw invalidParam("usernames");
    return inScope(this.deps, async (s) => {
      if (!(await findUser(s.tx, to))) throw imError("userNotFound", { username: to });
      if (await store.isContact(s.tx, me, to)) return "already";
      if (await store.hasBlocked(s.tx, to, me)) throw denied(`${to} has blocked ${me}`);
      if ((await store.contactCount(s.tx, me)) >= IM_LIMITS.contacts) {
        throw imError("contactLimit", { max: IM_LIMITS.contacts });
      }
      if ((await store.contactCount(s.tx, to)) >= IM_LIMITS.contacts) {
        throw imError("inviteeContactLimit", { max: IM_LIMITS.contacts });
      }
      // Both asked: they are contacts now.
      if (await store.takeRequest(s.tx, to, me)) {
        await store.addPair(s.tx, me, to, s.now);
        await this.roster(s, to, "agreed", me);
        await this.roster(s, me, "accept", to, undefined, resource);
        return "accepted";
      }
      await store.upsertRequest(s.tx, me, to, reason, s.now);
      await this.roster(s, to, "invite", me, reason);
      return "requested";
    });
  }

  async accept(me: string, from: string, resource?: string): Promise<void> {
    await inScope(this.deps, async (s) => {
      if (!(await store.takeRequest(s.tx, from, me))) throw denied(`there is no contact request from ${from}`);
      if ((await store.contactCount(s.tx, me)) >= IM_LIMITS.contacts) {
        throw imError("contactLimit", { max: IM_LIMITS.contacts });
      }
      await store.addPair(s.tx, me, from, s.now);
      await store.takeRequest(s.tx, me, from);
      await this.roster(s, from, "agreed", me);
      await this.roster(s, me, "accept", from, undefined, resource);
    });
  }

  async decline(me: string, from: string, resource?: string): Promise<void> {
    await inScope(this.deps, async (s) => {
      if (!(await store.takeRequest(s.tx, from, me))) throw denied(`there is no contact request from ${from}`);
      await this.roster(s, from, "refused", me);
      await this.roster(s, me, "decline", from, undefined, resource);
    });
  }

  async remove(me: string, other: string, resource?: string): Promise<void> {
    await inScope(this.deps, async (s) => {
      if (!(await findUser(s.tx, other))) throw imError("userNotFound", { username: other });
      const removed = await store.removePair(s.tx, me, other);
      if (removed > 0) {
        await this.roster(s, other, "remove", me);
        await this.roster(s, me, "remove", other, undefined, resource);
      }
    });
  }

  async setRemark(me: string, contact: string, remark: string): Promise<void> {
    if (remark.length > IM_LIMITS.remarkLength) throw imError("remarkTooLong", { max: IM_LIMITS.remarkLength });
    await inScope(this.deps, async (s) => {
      if (!(await store.setRemark(s.tx, me, contact, remark))) throw imError("notFriends");
    });
  }

  async list(me: string, after: string | null, limit: number): Promise<{ contact: string; remark: string }[]> {
    return store.contactPage(this.deps.db, me, after, limit);
  }

  /**
   * A version of the user's contact list (names and remarks): the chat SDK 5 asks for it before it
   * syncs contacts (GET user/{me}/roster/metadata/version), and syncs again when it changed.
   */
  async rosterVersion(me: string): Promise<string> {
    const rows = await store.contactPage(this.deps.db, me, null, ROSTER_MAX);
    const hash = createHash("sha256");
    for (const r of rows) hash.update(`${r.contact}\u0000${r.remark}\u0000`);
    return hash.digest("base64url").slice(0, 22);
  }

  async blocks(me: string): Promise<string[]> {
    return store.blockList(this.deps.db, me);
  }

  async block(me: string, usernames: string[]): Promise<string[]> {
    const names = [...new Set(usernames.filter((u) => u !== me))];
    return inScope(this.deps, async (s) => {
      const found = await existingUsers(s.tx, names);
      const missing = names.find((u) => !found.has(u));
      if (missing) throw imError("userNotFound", { username: missing });
      const current = await store.blockList(s.tx, me);
      const fresh = names.filter((u) => !current.includes(u));
      if (current.length + fresh.length > IM_LIMITS.blocklist) {
        throw imError("maxLimit", { what: "block list", max: IM_LIMITS.blocklist });
      }
      await store.addBlocks(s.tx, me, fresh, s.now);
      return names;
    });
  }

  async unblock(me: string, usernames: string[]): Promise<void> {
    await inScope(this.deps, async (s) => store.removeBlocks(s.tx, me, usernames));
  }
}
