import { IM_LIMITS } from "@tessera/contracts";
import { imError } from "../errors";
import * as store from "../store/presence";
import { existingUsers } from "../store/users";
import { inScope, type ImDeps } from "./core";

/**
 * Presence (spec 02 §7): a user publishes a description per device; others subscribe for a while (up to
 * 30 days, at most 3000 users) and read the status of anyone. Subscriptions end on the app clock.
 * The gateway sets devices online and offline through `setDevice`.
 */
export interface PresenceStatus {
  uid: string;
  last_time: number;
  expiry: number;
  ext: string;
  status: Record<string, string>;
}

export class ImPresence {
  constructor(private readonly deps: ImDeps) {}

  async publish(me: string, resource: string, ext: string): Promise<void> {
    if (ext.length > IM_LIMITS.presenceExtLength) throw imError("presenceExtTooBig");
    // The app token may publish for any name: an unknown one is refused, not left to the foreign key.
    if ((await existingUsers(this.deps.db, [me])).size === 0) throw imError("userNotFound", { username: me });
    await this.setDevice(me, resource, 1, ext);
  }

  /** Records a device's status (1 online, 0 offline) and tells the subscribers. */
  async setDevice(username: string, resource: string, status: number, ext?: string): Promise<void> {
    await inScope(this.deps, async (s) => {
      const current = (await store.presenceOf(s.tx, [username])).find((p) => p.resource === resource);
      await store.publish(s.tx, username, resource, ext ?? current?.ext ?? "", status, s.now);
      const subscribers = await store.subscribersOf(s.tx, username, s.now);
      await s.notify(
        subscribers,
        {
          ns: "notify",
          type: "presence",
          from: username,
          detail: { resource, status, ext: ext ?? current?.ext ?? "" },
        },
        { durable: false },
      );
    });
  }

  /**
   * The gateway's online (1) / offline (0) of devices, batched over many connects and disconnects: one
   * statement, no transaction; subscribers hear it on their online devices.
   */
  async deviceStatuses(devices: readonly { username: string; resource: string; status: 0 | 1 }[]): Promise<void> {
    const rows = await store.setDeviceStatuses(this.deps.db, devices, this.deps.clock.now());
    const heard = rows.filter((r) => r.subscribers.length > 0);
    if (heard.length === 0) return;
    this.deps.bus.publish(
      heard.map((r) => ({
        to: r.subscribers,
        notice: {
          ns: "notify",
          type: "presence",
          from: r.username,
          detail: { resource: r.resource, status: r.status, ext: r.ext },
        },
        durable: false,
      })),
    );
  }

  async statusOf(usernames: string[], expiries: Map<string, number> = new Map()): Promise<PresenceStatus[]> {
    const rows = await store.presenceOf(this.deps.db, usernames);
    return usernames.map((uid) => {
      const mine = rows.filter((r) => r.username === uid);
      const latest = mine.at(-1);
      return {
        uid,
        last_time: latest ? Math.floor(latest.updated_at.getTime() / 1000) : 0,
        expiry: expiries.get(uid) ?? 0,
        ext: latest?.ext ?? "",
        status: Object.fromEntries(mine.map((r) => [r.resource, String(r.status)])),
      };
    });
  }

  async subscribe(me: string, usernames: string[], expirySeconds: number): Promise<PresenceStatus[]> {
    if (!Number.isInteger(expirySeconds) || expirySeconds <= 0 || expirySeconds > IM_LIMITS.presenceExpirySeconds) {
      throw imError("invalidParameter", { field: "expiry" });
    }
    const names = [...new Set(usernames.map((u) => u.toLowerCase()))];
    const expiresAt = await inScope(this.deps, async (s) => {
      const found = await existingUsers(s.tx, names);
      const missing = names.find((u) => !found.has(u));
      if (missing) throw imError("userNotFound", { username: missing });
      const current = await store.liveSubscriptionCount(s.tx, me, s.now);
      if (current + names.length > IM_LIMITS.presenceSubscriptions) {
        throw imError("maxLimit", { what: "presence subscriptions", max: IM_LIMITS.presenceSubscriptions });
      }
      const until = new Date(s.nowMs + expirySeconds * 1000);
      await store.subscribe(s.tx, me, names, until, s.now);
      return until;
    });
    const expiry = Math.floor(expiresAt.getTime() / 1000);
    return this.statusOf(names, new Map(names.map((n) => [n, expiry])));
  }

  async unsubscribe(me: string, usernames: string[]): Promise<void> {
    await inScope(this.deps, (s) =>
      store.unsubscribe(
        s.tx,
        me,
        usernames.map((u) => u.toLowerCase()),
      ),
    );
  }

  async subscriptions(
    me: string,
    pageNum: number,
    pageSize: number,
  ): Promise<{ sublist: { uid: string; expiry: number }[]; totalnum: number }> {
    const now = this.deps.clock.now();
    const offset = Math.max(0, pageNum - 1) * pageSize;
    const rows = pageSize === 0 ? [] : await store.liveSubscriptions(this.deps.db, me, now, offset, pageSize);
    return {
      sublist: rows.map((r) => ({ uid: r.target, expiry: Math.floor(r.expires_at.getTime() / 1000) })),
      totalnum: await store.liveSubscriptionCount(this.deps.db, me, now),
    };
  }
}
