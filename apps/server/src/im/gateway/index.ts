import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import type { FastifyInstance } from "fastify";
import { WebSocketServer, type WebSocket } from "ws";
import type { ImDelivery } from "../events";
import { mucQueue, purgeReadEntries, userQueue } from "../store/inbox";
import { DEVICE_DAYS } from "./sync";
import type { ImDeps } from "../service/core";
import type { ImServices } from "../service";
import { DEFAULT_GATEWAY_OPTIONS, type GatewayCtx, type GatewayOptions } from "./context";
import { AckBatcher } from "./acks";
import { AppendBatcher } from "./batcher";
import { DeviceChanges } from "./device-changes";
import { Hub } from "./hub";
import { dropAllLeases, renewLeases, RENEW_MS } from "./leases";
import { createRedisRelay } from "./relay";
import { encodeNotice } from "./notices";
import { KICK } from "./frames";
import { CLOSE, Session } from "./session";
import { SYNC_SOCKET_PATH, SyncSocket } from "./sync-socket";

/** What a session notice does to the user's devices (easemob-wire §3l). */
const SESSION_KICKS = {
  passwordChanged: KICK.CHANGE_PASSWORD,
  removed: KICK.USER_REMOVED,
  disconnected: KICK.OTHER_DEVICE,
} as const;

/** The path the published client opens (easemob-wire §3c). */
export const GATEWAY_PATH = "/websocket";
/** Largest frame accepted; bigger ones close the socket (messages are far smaller, see maxBodyBytes). */
const MAX_FRAME_BYTES = 1024 * 1024;

export interface Gateway {
  hub: Hub;
  options: GatewayOptions;
  /** This process's id in the device leases. */
  node: string;
  /** Open websocket connections on this process. */
  connections(): number;
}

/**
 * The realtime gateway: websocket upgrades on GATEWAY_PATH of the app's own HTTP server, one Session
 * per socket, and the bus wiring that wakes devices when the REST side changes something they sync.
 */
export async function registerGateway(
  app: FastifyInstance,
  deps: ImDeps,
  services: ImServices,
  log: (m: string) => void,
  overrides: Partial<GatewayOptions> = {},
): Promise<Gateway> {
  const options = { ...DEFAULT_GATEWAY_OPTIONS, ...overrides };
  const hub = new Hub(deps.appKey);
  if (options.redisUrl) {
    hub.relay = await createRedisRelay(options.redisUrl, options.redisPrefix ?? "tessera:", (m) => hub.apply(m), log);
  }
  const node = randomUUID();
  const devices = new DeviceChanges({ deps, services, hub, node, log });
  const ctx: GatewayCtx = {
    services,
    deps,
    hub,
    batcher: new AppendBatcher(deps, services.history),
    acks: new AckBatcher(deps.db, deps.clock),
    options,
    node,
    devices,
    log,
  };
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES, perMessageDeflate: false });
  const sessions = new Set<Session>();

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const [path, query] = (req.url ?? "").split("?");
    if (path === SYNC_SOCKET_PATH) {
      openSyncSocket(query ?? "", req, socket, head).catch((err: unknown) => {
        log(`im gateway: opening a sync socket failed: ${String(err)}`);
        socket.destroy();
      });
      return;
    }
    if (path !== GATEWAY_PATH) {
      socket.destroy();
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const s = new Session(ctx, ws);
      sessions.add(s);
      ws.on("close", () => sessions.delete(s));
    });
  };
  /** The chat SDK 5's initial-sync socket (sync-socket.ts): the token in the query is the user's. */
  const openSyncSocket = async (query: string, req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const token = new URLSearchParams(query).get("token") ?? "";
    const auth = await services.accounts.authenticate(token.startsWith("$t$") ? token.slice(3) : token);
    if (auth?.actor.kind !== "user") {
      socket.end("HTTP/1.1 401 Unauthorized\r\nConnection: close\r\n\r\n");
      return;
    }
    const username = auth.actor.username;
    wss.handleUpgrade(req, socket, head, (ws) => {
      syncSockets.add(ws);
      ws.on("close", () => syncSockets.delete(ws));
      const sync = new SyncSocket(services, ws, username);
      ws.on("close", () => sync.close());
    });
  };
  const syncSockets = new Set<WebSocket>();
  app.server.on("upgrade", onUpgrade);

  // Idle sockets (no frame, not even the heartbeat, for idleMs) are closed.
  const sweep = setInterval(
    () => {
      const cutoff = Date.now() - options.idleMs;
      for (const s of sessions) if (s.lastSeen < cutoff) s.close(CLOSE.idle, "idle");
    },
    Math.min(options.idleMs, 30_000),
  );
  sweep.unref();

  // Entries some device has read (or copies of a user's own sends) wait for the user's other devices; a
  // device that has not come back within DEVICE_DAYS reads them from history instead, so they do not
  // pile up forever. Entries no device has read yet stay until one does.
  const purge = setInterval(() => {
    const before = new Date(deps.clock.now().getTime() - DEVICE_DAYS * 86_400_000);
    purgeReadEntries(deps.db, before).catch((err: unknown) =>
      log(`im gateway: purging sender copies failed: ${String(err)}`),
    );
  }, 3600_000);
  purge.unref();

  const renew = setInterval(() => {
    renewLeases(deps.db, ctx.node, deps.clock.now()).catch((err: unknown) =>
      log(`im gateway: renewing device leases failed: ${String(err)}`),
    );
  }, RENEW_MS);
  renew.unref();

  const unsubscribe = deps.bus.subscribe((deliveries) => deliver(hub, deps.appKey, deliveries));

  // Before the HTTP server closes (it waits for its connections, upgraded ones included).
  app.addHook("preClose", async () => {
    clearInterval(sweep);
    clearInterval(purge);
    clearInterval(renew);
    unsubscribe();
    app.server.off("upgrade", onUpgrade);
    // Each session stops reading, lets the frames it is handling finish and acknowledge (a send being
    // stored is acknowledged, not lost), then closes with the reconnect code; past drainMs all close.
    let bounded: NodeJS.Timeout | undefined;
    const late = await Promise.race([
      Promise.allSettled([...sessions].map((s) => s.shutdown())).then(() => false),
      new Promise<boolean>((resolve) => (bounded = setTimeout(() => resolve(true), options.drainMs))),
    ]);
    clearTimeout(bounded);
    if (late) log(`im gateway: sessions still handling frames after ${options.drainMs} ms; closing them anyway`);
    for (const s of sessions) s.close(CLOSE.shutdown, "server shutting down");
    for (const ws of syncSockets) ws.close(1001, "server shutting down");
    const end = Date.now() + 500;
    while (wss.clients.size > 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
    for (const ws of wss.clients) ws.terminate();
    await new Promise<void>((resolve) => wss.close(() => resolve()));
    await hub.relay?.close();
    await devices.drain();
    await dropAllLeases(deps.db, ctx.node).catch((err: unknown) =>
      log(`im gateway: dropping device leases failed: ${String(err)}`),
    );
  });
  return { hub, options, node: ctx.node, connections: () => sessions.size };
}

/** Notices from the REST side: durable ones are in the sync queues (wake the devices); the rest are pushed. */
function deliver(hub: Hub, appKey: string, deliveries: readonly ImDelivery[]): void {
  for (const d of deliveries) {
    if (d.notice.ns === "session") {
      hub.kickUser(d.notice.from, SESSION_KICKS[d.notice.op]);
      continue;
    }
    if (d.notice.ns === "message") {
      hub.wake(d.to, d.notice.queue, d.skipResource);
      continue;
    }
    const queue = d.notice.ns === "muc" ? mucQueue(d.notice.mucId) : userQueue(d.notice.from);
    if (d.durable !== false) {
      hub.wake(d.to, queue, d.skipResource);
    } else {
      const meta = encodeNotice(appKey, d.notice, Date.now());
      if (!meta) continue;
      // The device that acted already knows (only the acting user's device of that name is skipped).
      hub.push(d.to, queue, [meta], d.skipResource ? { username: d.notice.from, resource: d.skipResource } : undefined);
    }
  }
}
