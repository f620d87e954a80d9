import type { GatewayCtx } from "./context";
import { dropLeases } from "./leases";

/**
 * Connects and disconnects change presence and leases in the database. A storm of them (a server
 * restart, a network blip, thousands of idle clients closing) must not queue thousands of statements
 * in front of the messages, so they are written in batches: whatever arrived while the previous batch
 * was being written goes in the next one (a statement or two per batch, not per device).
 */
interface Change {
  username: string;
  resource: string;
  status: 0 | 1;
}

const MAX_BATCH = 1000;

export class DeviceChanges {
  private pending: Change[] = [];
  private running = false;

  constructor(private readonly ctx: Pick<GatewayCtx, "deps" | "services" | "hub" | "node" | "log">) {}

  online(username: string, resource: string): void {
    this.push({ username, resource, status: 1 });
  }

  offline(username: string, resource: string): void {
    this.push({ username, resource, status: 0 });
  }

  /** Resolves once everything pushed so far is written (shutdown, tests). */
  async drain(): Promise<void> {
    while (this.running || this.pending.length > 0) await new Promise((r) => setTimeout(r, 5));
  }

  private push(c: Change): void {
    this.pending.push(c);
    this.next();
  }

  private next(): void {
    if (this.running || this.pending.length === 0) return;
    this.running = true;
    const batch = this.pending.splice(0, MAX_BATCH);
    void this.write(batch)
      .catch((err: unknown) =>
        this.ctx.log(`im gateway: writing ${batch.length} device changes failed: ${String(err)}`),
      )
      .finally(() => {
        this.running = false;
        this.next();
      });
  }

  private async write(batch: Change[]): Promise<void> {
    // The latest change of each device wins.
    const latest = new Map<string, Change>();
    for (const c of batch) latest.set(`${c.username}\0${c.resource}`, c);
    // A device that went away here gives its lease back, unless it has connected to this process again
    // since; one that another process took meanwhile is not this process's to mark offline.
    const gone = [...latest.values()].filter(
      (c) => c.status === 0 && !this.ctx.hub.devices(c.username).some((d) => d.resource === c.resource),
    );
    const released = new Set(
      (await dropLeases(this.ctx.deps.db, this.ctx.node, gone)).map((d) => `${d.username}\0${d.resource}`),
    );
    const statuses = [...latest.values()].filter((c) => c.status === 1 || released.has(`${c.username}\0${c.resource}`));
    await this.ctx.services.presence.deviceStatuses(statuses);
  }
}
