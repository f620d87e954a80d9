import { IM_MUC_DOMAIN, IM_USER_DOMAIN } from "@tessera/contracts";
import { batch, notice, type Jid } from "./frames";
import type { Relay, RelayMessage } from "./relay";

/** One logged-in device: what the rest of the gateway may do with it. */
export interface Device {
  readonly username: string;
  readonly resource: string;
  send(frame: Uint8Array): void;
  /** Ends the session with a STATISTIC kick the client reports (easemob-wire §3l), then closes. */
  kick(operation: number, reason?: string): void;
  /** `queue` has entries this device was not handed: it sends the notice `frame` (the client pulls). */
  wake(queue: string, frame: Uint8Array): void;
  /** A new entry of `queue`, as its meta: pushed when the device may take it, else announced by a notice. */
  offer(queue: string, id: number, meta: Uint8Array, notice: () => Uint8Array, seq?: number): void;
}

/**
 * The devices connected to this process, by user and resource. Delivery looks devices up here; with
 * several processes each has its own hub and the bus carries wake-ups between them.
 */
export class Hub {
  private readonly byUser = new Map<string, Map<string, Device>>();

  /** Set when REDIS_URL is: other processes get every wake-up, push and kick too. */
  relay: Relay | null = null;

  constructor(readonly appKey: string) {}

  /** What another process asked for, applied to this process's sockets. */
  apply(m: RelayMessage): void {
    if (m.t === "wake") this.wakeHere(m.users, m.queue, m.skip);
    else if (m.t === "push") {
      this.pushHere(
        m.users,
        m.queue,
        m.metas.map((b) => Buffer.from(b, "base64")),
        m.skip ?? undefined,
      );
    } else if (m.resource === null) this.kickHere(m.username, m.operation, m.reason ?? undefined);
    else {
      this.byUser
        .get(m.username)
        ?.get(m.resource)
        ?.kick(m.operation, m.reason ?? undefined);
    }
  }

  /** Ends every session of `username`, in every process (its password changed, it was removed ...). */
  kickUser(username: string, operation: number, reason?: string): void {
    this.relay?.publish({ t: "kick", username, resource: null, operation, reason: reason ?? null });
    this.kickHere(username, operation, reason);
  }

  private kickHere(username: string, operation: number, reason?: string): void {
    for (const d of this.devices(username)) d.kick(operation, reason);
  }

  /** Kicks the device on `resource` in the other processes (a login there replaced it). */
  kickElsewhere(username: string, resource: string, operation: number, reason?: string): void {
    this.relay?.publish({ t: "kick", username, resource, operation, reason: reason ?? null });
  }

  /** Registers a device; returns the one it replaces on the same resource (to be kicked). */
  add(d: Device): Device | undefined {
    let devices = this.byUser.get(d.username);
    if (!devices) this.byUser.set(d.username, (devices = new Map<string, Device>()));
    const previous = devices.get(d.resource);
    devices.set(d.resource, d);
    return previous === d ? undefined : previous;
  }

  remove(d: Device): void {
    const devices = this.byUser.get(d.username);
    if (devices?.get(d.resource) !== d) return;
    devices.delete(d.resource);
    if (devices.size === 0) this.byUser.delete(d.username);
  }

  devices(username: string): Device[] {
    return [...(this.byUser.get(username)?.values() ?? [])];
  }

  count(username: string): number {
    return this.byUser.get(username)?.size ?? 0;
  }

  get size(): number {
    let n = 0;
    for (const d of this.byUser.values()) n += d.size;
    return n;
  }

  all(): Device[] {
    return [...this.byUser.values()].flatMap((m) => [...m.values()]);
  }

  /** The JID the client names a sync queue by (`name@domain`). */
  jid(queue: string): Jid {
    const at = queue.lastIndexOf("@");
    return {
      appKey: this.appKey,
      name: at < 0 ? queue : queue.slice(0, at),
      domain: at < 0 ? IM_USER_DOMAIN : queue.slice(at + 1),
    };
  }

  /**
   * Sends metas straight to the online devices of `users` (chat rooms keep no queue). The client treats
   * the frame as a pull reply and pulls the queue once more, which then answers empty.
   */
  push(
    users: Iterable<string>,
    queue: string,
    metas: readonly Uint8Array[],
    skip?: { username: string; resource: string },
  ): void {
    const list = [...new Set(users)];
    this.relay?.publish({
      t: "push",
      users: list,
      queue,
      metas: metas.map((m) => Buffer.from(m).toString("base64")),
      skip: skip ? { username: skip.username, resource: skip.resource } : null,
    });
    this.pushHere(list, queue, metas, skip);
  }

  private pushHere(
    users: Iterable<string>,
    queue: string,
    metas: readonly Uint8Array[],
    skip?: { username: string; resource: string },
  ): void {
    let frame: Uint8Array | undefined;
    for (const u of new Set(users)) {
      for (const d of this.byUser.get(u)?.values() ?? []) {
        if (skip && d.username === skip.username && d.resource === skip.resource) continue;
        frame ??= batch({ queue: this.jid(queue), metas, nextKey: 1, isLast: false, nowMs: Date.now() });
        d.send(frame);
      }
    }
  }

  /** Tells the online devices of `users` that `queue` has new entries; the client then pulls it. */
  wake(users: Iterable<string>, queue: string, skipResource?: string | null): void {
    const list = [...users];
    this.relay?.publish({ t: "wake", users: list, queue, skip: skipResource ?? null });
    this.wakeHere(list, queue, skipResource);
  }

  private wakeHere(users: Iterable<string>, queue: string, skipResource?: string | null): void {
    let frame: Uint8Array | undefined;
    for (const u of users) {
      for (const d of this.byUser.get(u)?.values() ?? []) {
        if (skipResource && d.resource === skipResource) continue;
        frame ??= notice(this.jid(queue));
        d.wake(queue, frame);
      }
    }
  }

  /**
   * New entries of `queue` (one message's, for several users), with the meta every one of them carries:
   * the devices here get them pushed (or a notice, see Session.offer); the other processes are woken and
   * their devices pull.
   */
  offer(
    queue: string,
    entries: readonly { id: number; username: string; seq?: number | undefined }[],
    meta: Uint8Array,
    skipResource?: string | null,
  ): void {
    if (entries.length === 0) return;
    this.relay?.publish({ t: "wake", users: entries.map((e) => e.username), queue, skip: skipResource ?? null });
    let frame: Uint8Array | undefined;
    const noticeFrame = () => (frame ??= notice(this.jid(queue)));
    for (const e of entries) {
      for (const d of this.byUser.get(e.username)?.values() ?? []) {
        if (skipResource && d.resource === skipResource) continue;
        d.offer(queue, e.id, meta, noticeFrame, e.seq);
      }
    }
  }
}

export const queueName = (jid: { name: string; domain: string }): string =>
  `${jid.domain === IM_MUC_DOMAIN ? jid.name : jid.name.toLowerCase()}@${jid.domain || IM_USER_DOMAIN}`;
