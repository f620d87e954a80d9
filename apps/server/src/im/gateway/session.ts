import { IM_USERNAME_RE } from "@tessera/contracts";
import type { Duplex } from "node:stream";
import type { WebSocket } from "ws";
import { findUser } from "../store/users";
import { decodeMeta, type DecodedMeta } from "../proto/decode";
import { handleChat } from "./chat";
import type { GatewayCtx } from "./context";
import {
  ack,
  batch,
  CMD,
  decodeMSync,
  decodeProvision,
  provisionToken,
  decodeSyncUl,
  KICK,
  metaOf,
  NS,
  provisionReply,
  STATUS,
  statisticsBody,
  unreadReply,
  type MSyncIn,
} from "./frames";
import { queueName, type Device } from "./hub";
import { handleMuc } from "./muc";
import { refusalOf } from "./reasons";
import { otherLiveDevices } from "./leases";
import { pendingQueues, pull, QueueState, recordDevice } from "./sync";

/** Login failure texts the client maps (easemob-wire §3d, spec 03 §8). */
const LOGIN = {
  badParameter: { code: STATUS.WRONG_PARAMETER, reason: "Invalid parameter" },
  tokenExpired: { code: STATUS.FAIL, reason: "Sorry, token expired" },
  mismatch: { code: STATUS.FAIL, reason: "Sorry, token or password does not match login info" },
  userNotFound: { code: STATUS.FAIL, reason: "Sorry, user not found" },
  tooManyDevices: { code: STATUS.TOO_MANY_DEVICES, reason: "Sorry, too many devices" },
  forbidden: { code: STATUS.IM_FORBIDDEN, reason: "Sorry, the user is banned" },
} as const;

/** ws.send's options for every frame (one object, not one per frame). */
const BINARY = { binary: true } as const;

/** Sends of one device being stored at once; beyond, the device's next frames wait. */
const MAX_INFLIGHT = 256;

/** Close codes: 1002 for frames that are not the protocol, 4001 for a failed login, 4000 for kicks. */
export const CLOSE = { protocol: 1002, login: 4001, kicked: 4000, idle: 4002, expired: 4003, shutdown: 1001 } as const;

/**
 * One websocket: unauthenticated until PROVISION succeeds, then a device of its user. Frames are
 * handled one at a time in arrival order, so one device's sends keep their order.
 */
export class Session implements Device {
  username = "";
  resource = "";
  private state: "new" | "open" | "closed" = "new";
  /** Frames received and not handled yet (one is being handled while `busy`). */
  private readonly received: Buffer[] = [];
  private busy = false;
  private expiry: NodeJS.Timeout | undefined;
  lastSeen = Date.now();
  private inflight = 0;
  /** Frame handlers not finished yet (a send being stored, a login, a pull): a drain waits for them. */
  private readonly handling = new Set<Promise<void>>();
  /** The node drains: frames that arrive from now on are dropped unread (the client sends them again elsewhere). */
  private stopping = false;
  /** Per queue: what was delivered and may be pushed (sync.ts QueueState). */
  private readonly queues = new Map<string, QueueState>();
  /** Queues with entries offered for push, sent together once the current tick's work is done. */
  private readonly offered = new Set<string>();
  /** The socket is corked until the end of the current tick (see send). */
  private corked = false;

  constructor(
    private readonly ctx: GatewayCtx,
    private readonly ws: WebSocket,
  ) {
    ws.on("message", (data, isBinary) => {
      if (this.stopping) return;
      this.lastSeen = Date.now();
      if (!isBinary) return this.close(CLOSE.protocol, "decode message fail.");
      // ws hands a Buffer of its own (binaryType "nodebuffer"): kept as is, not copied.
      this.received.push(Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data));
      if (!this.busy) this.drain();
    });
    ws.on("close", () => this.closed());
    ws.on("error", () => this.closed());
  }

  get open(): boolean {
    return this.state === "open";
  }

  send(frame: Uint8Array): void {
    if (this.state === "closed") return;
    if (!this.corked) {
      // The frames one tick sends this device (a batch's acks, a push, a pull reply) leave in one write
      // instead of one system call each: the socket is corked until the tick's work is done. ws has no
      // public way to do this, so its socket is reached directly (ws.send itself corks it the same way).
      const socket = (this.ws as unknown as { _socket?: Duplex | null })._socket;
      if (socket) {
        this.corked = true;
        socket.cork();
        process.nextTick(() => {
          this.corked = false;
          socket.uncork();
        });
      }
    }
    this.ws.send(frame, BINARY);
  }

  wake(queue: string, frame: Uint8Array): void {
    const st = this.queues.get(queue);
    if (st) {
      st.clean = false;
      if (st.pulling) st.woke = true;
    }
    this.send(frame);
  }

  /**
   * A new entry of `queue`. On a clean queue it is pushed (after the pull being answered, if any), with
   * whatever else arrives in the same tick (a batch of messages becomes one frame); otherwise the
   * client is told to pull, which hands it out in order with what it has not got yet.
   */
  offer(queue: string, id: number, meta: Uint8Array, notice: () => Uint8Array, seq?: number): void {
    if (this.state !== "open") return;
    const st = this.queues.get(queue);
    if (!st || (!st.clean && !st.pulling)) return this.send(notice());
    st.pending.push({ id, meta, seq });
    if (st.pulling) return;
    if (this.offered.size === 0) process.nextTick(() => this.pushOffered());
    this.offered.add(queue);
  }

  private pushOffered(): void {
    for (const queue of this.offered) {
      const st = this.queues.get(queue);
      if (st && !st.pulling) this.pushPending(queue, st);
    }
    this.offered.clear();
  }

  /** Sends the pending entries of a clean queue as one unsolicited pull reply; the client pulls to acknowledge. */
  private pushPending(queue: string, st: QueueState): void {
    const pending = st.pending;
    st.pending = [];
    if (!st.clean || this.state !== "open") return;
    const metas: Uint8Array[] = [];
    const ids: number[] = [];
    let maxId = 0;
    for (const e of pending) {
      if (st.sent.has(e.id)) continue;
      metas.push(e.meta);
      ids.push(e.id);
      if (e.seq !== undefined) st.seqs.set(e.id, e.seq);
      if (e.id > maxId) maxId = e.id;
    }
    if (metas.length === 0) return;
    const key = st.nextKeyFor(maxId);
    for (const id of ids) st.sent.set(id, key);
    const nowMs = this.ctx.deps.clock.now().getTime();
    this.send(batch({ queue: this.ctx.hub.jid(queue), metas, nextKey: key, isLast: false, nowMs }));
  }

  /**
   * The node drains: no new frame is handled (those not yet started are dropped: unacknowledged, so the
   * client sends them again after reconnecting, to another node), the handlers already running finish and
   * write their acks, then the socket closes with the reconnect code. What was stored is acknowledged.
   * The caller bounds the wait (a handler stuck on the database) by closing the session itself.
   */
  async shutdown(): Promise<void> {
    if (this.state === "closed") return;
    this.stopping = true;
    this.received.length = 0;
    while (this.handling.size > 0) await Promise.allSettled([...this.handling]);
    this.close(CLOSE.shutdown, "server shutting down");
  }

  private track(work: Promise<void>): Promise<void> {
    if (this.handling.has(work)) return work;
    this.handling.add(work);
    const done = () => void this.handling.delete(work);
    work.then(done, done);
    return work;
  }

  close(code: number, reason: string): void {
    if (this.state === "closed") return;
    this.closed();
    this.ws.close(code, reason);
  }

  kick(operation: number, reason?: string): void {
    const nowMs = Date.now();
    const meta = metaOf({ id: BigInt(nowMs), nowMs, ns: NS.STATISTIC, payload: statisticsBody(operation, reason) });
    this.send(
      batch({
        queue: this.ctx.hub.jid(`${this.username}@easemob.com`),
        metas: [meta],
        nextKey: null,
        isLast: true,
        nowMs,
      }),
    );
    this.close(CLOSE.kicked, "kicked");
  }

  private closed(): void {
    if (this.state === "closed") return;
    const wasOpen = this.state === "open";
    this.state = "closed";
    clearTimeout(this.expiry);
    if (wasOpen) {
      this.ctx.hub.remove(this);
      this.releaseDevice(this.username, this.resource);
    }
  }

  private fail(err: unknown): void {
    this.ctx.log(`im gateway: closing a connection after ${err instanceof Error ? err.message : String(err)}`);
    this.close(CLOSE.protocol, "decode message fail.");
  }

  /**
   * Handles the received frames in order. Most frames finish synchronously (a message send is queued for
   * storage and its ack follows later, see uplink); a frame whose handling waits (a login, a pull) holds
   * the next ones back until it is done.
   */
  private drain(): void {
    let frame: Buffer | undefined;
    while ((frame = this.received.shift()) !== undefined) {
      let pending: Promise<void> | void;
      try {
        pending = this.frame(frame);
      } catch (err) {
        this.fail(err);
        continue;
      }
      if (pending) {
        this.busy = true;
        this.track(pending).then(
          () => this.resume(),
          (err: unknown) => {
            this.fail(err);
            this.resume();
          },
        );
        return;
      }
    }
  }

  private resume(): void {
    this.busy = false;
    this.drain();
  }

  private frame(buf: Buffer): Promise<void> | void {
    if (this.state === "closed" || this.stopping) return;
    const m = decodeMSync(buf);
    if (this.state === "new") {
      if (m.command !== CMD.PROVISION) return this.close(CLOSE.protocol, "provision first");
      return this.provision(m);
    }
    switch (m.command) {
      case CMD.UNREAD:
        return this.unread();
      case CMD.SYNC:
        return this.sync(m.payload);
      case CMD.LOGOUT:
        return this.close(1000, "logout");
      case CMD.PROVISION:
        return this.close(CLOSE.protocol, "already logged in");
      default:
        return this.close(CLOSE.protocol, `unknown command ${m.command}`);
    }
  }

  private refuseLogin(r: { code: number; reason: string }): void {
    this.send(provisionReply(r));
    this.close(CLOSE.login, "provision error");
  }

  private async provision(m: MSyncIn): Promise<void> {
    if (!m.payload) return this.refuseLogin(LOGIN.badParameter);
    const p = decodeProvision(m.payload);
    const name = (m.guid?.name ?? "").toLowerCase();
    const resource = p.resource || m.guid?.clientResource || "";
    if (!IM_USERNAME_RE.test(name) || resource === "" || resource.length > 128) {
      return this.refuseLogin(LOGIN.badParameter);
    }
    const token = provisionToken(m.auth, p);
    const claims = this.ctx.deps.signer.verify(token);
    const nowMs = this.ctx.deps.clock.now().getTime();
    if (!claims || claims.subject !== name) return this.refuseLogin(LOGIN.mismatch);
    if (claims.expiresMs <= nowMs) return this.refuseLogin(LOGIN.tokenExpired);
    const user = await findUser(this.ctx.deps.db, name);
    if (!user) return this.refuseLogin(LOGIN.userNotFound);
    if (!user.activated) return this.refuseLogin(LOGIN.forbidden);
    if (claims.issuedMs < user.token_epoch_ms) return this.refuseLogin(LOGIN.mismatch);
    if (this.state !== "new") return;
    // Devices connected to this process and to the others (their leases in the database).
    const here = this.ctx.hub.devices(name).filter((d) => d.resource !== resource).length;
    const anywhere = await otherLiveDevices(this.ctx.deps.db, name, resource, this.ctx.deps.clock.now());
    if (Math.max(here, anywhere) >= this.ctx.options.maxDevices) return this.refuseLogin(LOGIN.tooManyDevices);
    if (this.state !== "new") return;
    // Entries wait for this device's acknowledgement from now on (per-device delivery); this process
    // holds its lease while it is connected.
    await recordDevice(this.ctx.deps.db, name, resource, this.ctx.deps.clock.now(), this.ctx.node);
    if (this.state !== "new") {
      this.releaseDevice(name, resource);
      return;
    }
    this.username = name;
    this.resource = resource;
    this.state = "open";
    const previous = this.ctx.hub.add(this);
    // A second login on the same device resource replaces the first, which learns why (spec 03 §4).
    previous?.kick(KICK.LOGIN_ANOTHER_DEVICE, p.reason || undefined);
    this.ctx.hub.kickElsewhere(name, resource, KICK.LOGIN_ANOTHER_DEVICE, p.reason || undefined);
    this.send(provisionReply({ resource, expiresMs: claims.expiresMs }));
    this.expiry = setTimeout(
      () => this.close(CLOSE.expired, "token expired"),
      Math.min(claims.expiresMs - nowMs, 2 ** 31 - 1),
    );
    this.expiry.unref();
    this.ctx.devices.online(name, resource);
  }

  /** The socket is gone: its lease goes back and the device shows offline (unless it was replaced here). */
  private releaseDevice(name: string, resource: string): void {
    const replacedHere = this.ctx.hub.devices(name).some((d) => d.resource === resource && d !== this);
    if (!replacedHere) this.ctx.devices.offline(name, resource);
  }

  private async unread(): Promise<void> {
    const queues = await pendingQueues(
      this.ctx.deps.db,
      this.username,
      this.resource,
      this.ctx.deps.clock.now().getTime(),
    );
    this.send(
      unreadReply(
        queues.map((q) => ({ queue: this.ctx.hub.jid(q.queue), n: q.n })),
        this.ctx.deps.clock.now().getTime(),
      ),
    );
  }

  private sync(payload: Uint8Array | null): Promise<void> | void {
    if (!payload) return this.close(CLOSE.protocol, "empty sync");
    const ul = decodeSyncUl(payload);
    if (ul.meta) return this.uplink(decodeMeta(ul.meta));
    if (!ul.queue) return this.close(CLOSE.protocol, "sync without meta or queue");
    return this.pullQueue(queueName(ul.queue), ul.key);
  }

  private async pullQueue(queue: string, key: bigint | null): Promise<void> {
    let st = this.queues.get(queue);
    if (!st) this.queues.set(queue, (st = new QueueState()));
    st.pulling = true;
    st.woke = false;
    try {
      const b = await pull(
        this.ctx.deps.db,
        this.ctx.acks,
        this.ctx.deps.appKey,
        this,
        queue,
        key,
        this.ctx.options.batchSize,
        st,
        this.ctx.deps.clock.now().getTime(),
      );
      this.send(
        batch({
          queue: this.ctx.hub.jid(queue),
          metas: b.metas,
          nextKey: b.nextKey,
          isLast: b.nextKey === null,
          nowMs: this.ctx.deps.clock.now().getTime(),
        }),
      );
    } finally {
      st.pulling = false;
    }
    // Entries offered while the pull ran: pushed behind its reply if the queue is clean, else the
    // client's next pull (it has one to make: a notice came or the reply was not the last) gets them.
    if (st.pending.length > 0) this.pushPending(queue, st);
  }

  /**
   * Messages are pipelined: a send is queued for storage in arrival order (synchronously, so a device's
   * messages keep their order) and its ack goes out when it is stored, while the next frames are read.
   */
  private uplink(meta: DecodedMeta): Promise<void> | void {
    if (meta.ns === NS.STATISTIC) return;
    if (meta.ns !== NS.CHAT) return this.answer(meta);
    this.inflight++;
    const work = this.track(this.answer(meta));
    if (this.inflight > MAX_INFLIGHT) return work;
  }

  /**
   * One uplink meta gets exactly one ack with its id (statistics metas get none: the client expects none).
   * Never rejects: a failure is the ack's status.
   */
  private async answer(meta: DecodedMeta): Promise<void> {
    const nowMs = () => this.ctx.deps.clock.now().getTime();
    try {
      const out =
        meta.ns === NS.CHAT
          ? await handleChat(this.ctx, this, meta)
          : meta.ns === NS.MUC
            ? await handleMuc(this.ctx, this, meta)
            : null;
      if (!out) {
        this.send(
          ack({
            metaId: meta.id,
            serverId: 0,
            nowMs: nowMs(),
            code: STATUS.FAIL,
            reason: `namespace ${meta.ns} is not accepted`,
          }),
        );
        return;
      }
      this.send(ack({ metaId: meta.id, serverId: out.serverId, nowMs: out.nowMs, code: STATUS.OK, metas: out.metas }));
      out.after?.();
    } catch (err) {
      const r = refusalOf(err);
      if (!r) {
        this.ctx.log(`im gateway: send failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
        this.send(ack({ metaId: meta.id, serverId: 0, nowMs: nowMs(), code: STATUS.FAIL, reason: "server error" }));
        return;
      }
      this.send(ack({ metaId: meta.id, serverId: 0, nowMs: nowMs(), code: r.code, reason: r.reason }));
    } finally {
      if (meta.ns === NS.CHAT) this.inflight--;
    }
  }
}
