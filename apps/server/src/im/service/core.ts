import type { ImConfig } from "../../config";
import { withTx, type Db, type Tx } from "../../db/tx";
import type { Clock } from "../../platform/clock";
import type { PasswordHasher } from "../../platform/crypto/passwords";
import type { FileStorage } from "../../platform/storage";
import type { TokenSigner } from "../auth";
import type { ImBus, ImDelivery, ImNotice } from "../events";
import { enqueueNotices, mucQueue, userQueue } from "../store/inbox";
import type { Translator } from "../translate";

/** Everything the IM services are built from. */
export interface ImDeps {
  db: Db;
  clock: Clock;
  config: ImConfig;
  /** `org#app` */
  appKey: string;
  /** The app's stable uuid ("application" in replies). */
  appUuid: string;
  clientId: string;
  clientSecret: string;
  signer: TokenSigner;
  hasher: PasswordHasher;
  storage: FileStorage;
  translator: Translator;
  bus: ImBus;
}

/** Who calls: a user (with the device resource it names), or the app itself (client-credentials token). */
export type ImActor =
  { kind: "user"; username: string; resource?: string | undefined } | { kind: "app"; resource?: undefined };

export { mucQueue, userQueue } from "../store/inbox";

/** One transaction's worth of work: the handle, the instant it acts at, and the notices to publish after commit. */
export class Scope {
  readonly deliveries: ImDelivery[] = [];
  constructor(
    readonly tx: Tx,
    readonly now: Date,
  ) {}

  get nowMs(): number {
    return this.now.getTime();
  }

  /**
   * Tells `to` about a change. Durable notices also go into each recipient's sync queue in this
   * transaction, so a device that is offline gets them later; the bus wakes the online ones after commit.
   */
  async notify(
    to: readonly string[],
    notice: ImNotice,
    options: { durable: boolean; skipResource?: string | undefined },
  ): Promise<void> {
    const recipients = [...new Set(to)];
    if (recipients.length === 0) return;
    if (options.durable) {
      const queue = notice.ns === "muc" ? mucQueue(notice.mucId) : userQueue(notice.from);
      await enqueueNotices(
        this.tx,
        recipients.map((username) => ({ username, queue, notice, skipResource: options.skipResource })),
        this.now,
      );
    }
    this.deliveries.push({ to: recipients, notice, skipResource: options.skipResource, durable: options.durable });
  }

  /** Tells one user about several changes, each its own durable notice, written with one statement. */
  async notifyUser(
    username: string,
    notices: readonly ImNotice[],
    options: { skipResource?: string | undefined },
  ): Promise<void> {
    if (notices.length === 0) return;
    const rows = notices.map((notice) => ({
      username,
      queue: notice.ns === "muc" ? mucQueue(notice.mucId) : userQueue(notice.from),
      notice,
      skipResource: options.skipResource,
    }));
    await enqueueNotices(this.tx, rows, this.now);
    // A durable delivery only wakes the devices to sync a queue: once per queue is enough.
    const woken = new Set<string>();
    for (const r of rows) {
      if (woken.has(r.queue)) continue;
      woken.add(r.queue);
      this.deliveries.push({ to: [username], notice: r.notice, skipResource: options.skipResource, durable: true });
    }
  }
}

/** Runs `fn` in one transaction (retried on serialization failures) and publishes its notices after commit. */
export async function inScope<T>(deps: ImDeps, fn: (scope: Scope) => Promise<T>): Promise<T> {
  let scope: Scope | undefined;
  const result = await withTx(deps.db, async (tx) => {
    scope = new Scope(tx, deps.clock.now());
    return fn(scope);
  });
  if (scope) deps.bus.publish(scope.deliveries);
  return result;
}
