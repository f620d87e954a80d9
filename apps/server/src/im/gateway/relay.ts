import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";

/**
 * Delivery between server processes (REDIS_URL): every process publishes its wake-ups, pushes and kicks
 * on one Redis channel of its deployment (`<REDIS_PREFIX>im:gateway`: Redis pub/sub ignores database
 * numbers, so only the name keeps two deployments on one Redis server apart) and applies the others' to
 * its own sockets. The messages themselves are in
 * PostgreSQL; a lost relay message only delays delivery until the device's next sync (heartbeat).
 */
export type RelayMessage =
  | { t: "wake"; users: string[]; queue: string; skip: string | null }
  | { t: "push"; users: string[]; queue: string; metas: string[]; skip: { username: string; resource: string } | null }
  /** resource null: every device of the user (password changed, user removed or disconnected). */
  | { t: "kick"; username: string; resource: string | null; operation: number; reason: string | null };

export interface Relay {
  readonly node: string;
  publish(m: RelayMessage): void;
  /** Whether Redis answers (readiness). */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export async function createRedisRelay(
  url: string,
  prefix: string,
  onMessage: (m: RelayMessage) => void,
  log: (m: string) => void,
): Promise<Relay> {
  const node = randomUUID();
  const channel = `${prefix}im:gateway`;
  const pub = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2 });
  const sub = new Redis(url, { lazyConnect: true });
  pub.on("error", (err: Error) => log(`im relay (publish): ${err.message}`));
  sub.on("error", (err: Error) => log(`im relay (subscribe): ${err.message}`));
  await pub.connect();
  await sub.connect();
  sub.on("message", (_channel: string, text: string) => {
    let parsed: { node: string; m: RelayMessage };
    try {
      parsed = JSON.parse(text) as { node: string; m: RelayMessage };
    } catch {
      return;
    }
    if (parsed.node !== node) onMessage(parsed.m);
  });
  await sub.subscribe(channel);
  return {
    node,
    publish(m) {
      pub
        .publish(channel, JSON.stringify({ node, m }))
        .catch((err: unknown) => log(`im relay publish failed: ${String(err)}`));
    },
    ping: async () => (await pub.ping()) === "PONG",
    async close() {
      await Promise.allSettled([sub.quit(), pub.quit()]);
    },
  };
}
