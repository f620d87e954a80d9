import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import {
  connection,
  ID_BASE_MS,
  message,
  STATUS,
  statusCode as C,
  uniqueId,
  type ChatSdkError,
  type Connection,
  type WebSocketLike,
} from "../src/index";
import {
  COMMAND,
  CommNotice,
  CommSyncDL,
  CommSyncUL,
  CommUnreadDL,
  decode,
  encode,
  MessageBody,
  MSync,
  MUCBody,
  NS,
  Provision,
  StatisticsBody,
  type Decoded,
} from "../src/proto";

/**
 * The connection against a scripted socket: login handshake, statuses, heartbeat, send with ack and
 * message states, queueing and reconnect backoff, token expiry timers, forced logout, receiving, recall.
 */
class FakeSocket implements WebSocketLike {
  static all: FakeSocket[] = [];
  binaryType = "";
  readyState = 0;
  onopen: ((ev: unknown) => void) | null = null;
  onclose: ((ev: unknown) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  frames: Decoded[] = [];
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  send(data: Uint8Array): void {
    this.frames.push(decode(MSync, data));
  }
  close(): void {
    if (this.readyState === 3) return;
    this.readyState = 3;
    queueMicrotask(() => this.onclose?.({}));
  }
  // --- server side
  accept(): void {
    this.readyState = 1;
    this.onopen?.({});
  }
  push(frame: Decoded): void {
    this.onmessage?.({ data: encode(MSync, frame).buffer });
  }
  provisionOk(expiresAt?: number): void {
    this.push({
      command: COMMAND.PROVISION,
      payload: encode(Provision, {
        status: { errorCode: 0 },
        resource: "webim_dev",
        ...(expiresAt && { authToken: JSON.stringify({ expires_in: expiresAt }) }),
      }),
    });
  }
  commands(): number[] {
    return this.frames.map((f) => Number(f.command ?? 0));
  }
  /** The uplink metas (sends), decoded. */
  metas(): Decoded[] {
    return this.frames
      .filter((f) => Number(f.command ?? 0) === COMMAND.SYNC)
      .map((f) => decode(CommSyncUL, f.payload as Uint8Array).meta as Decoded)
      .filter(Boolean);
  }
  ack(metaId: string, serverId: string, status: Decoded = { errorCode: 0 }): void {
    this.push({
      command: COMMAND.SYNC,
      payload: encode(CommSyncDL, { metaId, serverId, status, timestamp: Date.now() }),
    });
  }
  drop(): void {
    this.readyState = 3;
    this.onclose?.({});
  }
}

const last = (): FakeSocket => FakeSocket.all[FakeSocket.all.length - 1]!;

function newConn(extra: Record<string, unknown> = {}): Connection {
  return new connection({
    appKey: "org#app",
    apiUrl: "http://127.0.0.1:9",
    url: "ws://127.0.0.1:9/websocket",
    WebSocket: FakeSocket,
    ...extra,
  });
}

/** Logs in; `lifetimeMs` makes the provision reply name an expiry that far from now. */
async function login(conn: Connection, lifetimeMs?: number): Promise<FakeSocket> {
  const opened = conn.open({ user: "alice", accessToken: "tok" });
  await vi.waitFor(() => expect(FakeSocket.all.length).toBeGreaterThan(0));
  const sock = last();
  sock.accept();
  sock.provisionOk(lifetimeMs === undefined ? undefined : Date.now() + lifetimeMs);
  await opened;
  return sock;
}

beforeEach(() => {
  FakeSocket.all = [];
});
afterEach(() => {
  vi.useRealTimers();
});

describe("login", () => {
  test("provision handshake: statuses 402 then 403, onConnected before open() resolves, then UNREAD", async () => {
    const conn = newConn();
    const seen: (number | string)[] = [];
    conn.addEventHandler("t", {
      onConnectionStatusChange: (s) => seen.push(s),
      onConnected: () => seen.push("connected"),
    });
    const sock = await login(conn);
    expect(seen).toEqual([STATUS.DOLOGIN_IM, STATUS.OPENED, "connected"]);
    const provision = sock.frames[0]!;
    expect(provision).toMatchObject({
      command: COMMAND.PROVISION,
      auth: "$t$tok",
      guid: { appKey: "org#app", name: "alice", domain: "easemob.com" },
    });
    expect(decode(Provision, provision.payload as Uint8Array)).toMatchObject({
      osType: 16,
      deviceName: "webim",
      authToken: '{"token":"$t$tok"}',
    });
    expect(sock.commands()).toEqual([COMMAND.PROVISION, COMMAND.UNREAD]);
    expect(conn.clientResource).toBe("webim_dev");
    expect(conn.isOpened()).toBe(true);
  });

  test("a refused login rejects open() with the mapped error and does not retry", async () => {
    const conn = newConn();
    const opened = conn.open({ user: "alice", accessToken: "tok" });
    await vi.waitFor(() => expect(FakeSocket.all.length).toBe(1));
    last().accept();
    last().push({
      command: COMMAND.PROVISION,
      payload: encode(Provision, { status: { errorCode: 1, reason: "Sorry, token expired" } }),
    });
    await expect(opened).rejects.toMatchObject({ type: C.WEBIM_TOKEN_EXPIRED, message: "Sorry, token expired" });
    expect(conn.status).toBe(STATUS.ERROR);
    expect(FakeSocket.all).toHaveLength(1);
  });

  test("heartbeat: an UNREAD after heartBeatWait without frames from the server", async () => {
    vi.useFakeTimers();
    const conn = newConn({ heartBeatWait: 1000 });
    const sock = await login(conn);
    const before = sock.commands().filter((c) => c === COMMAND.UNREAD).length;
    await vi.advanceTimersByTimeAsync(2100);
    expect(sock.commands().filter((c) => c === COMMAND.UNREAD).length).toBeGreaterThan(before);
    conn.close();
  });
});

describe("sending", () => {
  test("message ids: milliseconds since 2010-02-01 plus a counter", () => {
    const now = Date.now();
    const a = Number(uniqueId(now));
    const b = Number(uniqueId(now));
    expect(ID_BASE_MS).toBe(new Date(2010, 1, 1).getTime());
    expect(a).toBeGreaterThan(now - ID_BASE_MS);
    expect(b).toBe(a + 1);
  });

  test("states CREATE → INPROGRESS → SUCCESS on the ack; the reply carries both ids", async () => {
    const conn = newConn();
    const sock = await login(conn);
    const m = message.create({ type: "txt", chatType: "singleChat", to: "bob", msg: "hi", ext: { k: 1 } });
    expect(m.status).toBe("CREATE");
    const sent = conn.send(m);
    expect(m.status).toBe("INPROGRESS");
    const meta = sock.metas()[0]!;
    expect(meta).toMatchObject({ id: m.id, ns: 1, to: { name: "bob", domain: "easemob.com" } });
    expect(decode(MessageBody, meta.payload as Uint8Array)).toMatchObject({
      type: 1,
      from: { name: "alice" },
      contents: [{ type: 0, text: "hi" }],
    });
    sock.ack(m.id, "1234567890123456789");
    await expect(sent).resolves.toMatchObject({
      localMsgId: m.id,
      serverMsgId: "1234567890123456789",
      message: { id: "1234567890123456789", msg: "hi" },
    });
    expect(m.status).toBe("SUCCESS");
  });

  test("an error ack: FAIL and the mapped error", async () => {
    const conn = newConn();
    const sock = await login(conn);
    const m = message.create({ type: "txt", chatType: "groupChat", to: "42", msg: "x" });
    const sent = conn.send(m);
    sock.ack(m.id, "0", { errorCode: 7, reason: "user is mute" });
    await expect(sent).rejects.toMatchObject({ type: C.USER_MUTED_BY_ADMIN, message: "user is mute" });
    expect(m.status).toBe("FAIL");
  });

  test("no ack in time: rejected as a send timeout", async () => {
    vi.useFakeTimers();
    const conn = newConn({ ackTimeoutMs: 1000, autoReconnectNumMax: 0 });
    await login(conn);
    const sent = conn.send(message.create({ type: "txt", to: "bob", msg: "x" }));
    const check = expect(sent).rejects.toMatchObject({ type: C.MESSAGE_SEND_TIMEOUT, message: "send message timeout" });
    await vi.advanceTimersByTimeAsync(1001);
    await check;
  });

  test("queued while disconnected, flushed after login; backoff 500 ms × attempt", async () => {
    vi.useFakeTimers();
    const conn = newConn();
    const events: string[] = [];
    conn.addEventHandler("t", {
      onReconnecting: () => events.push("reconnecting"),
      onConnected: () => events.push("connected"),
    });
    const first = await login(conn);
    first.drop();
    expect(events).toEqual(["connected", "reconnecting"]);
    const m = message.create({ type: "txt", to: "bob", msg: "while away" });
    const sent = conn.send(m);
    expect(m.status).toBe("INPROGRESS");
    // Attempt 1 after 500 ms; that socket fails to open; attempt 2 after 1000 ms more.
    await vi.advanceTimersByTimeAsync(499);
    expect(FakeSocket.all).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(FakeSocket.all).toHaveLength(2);
    last().drop();
    await vi.advanceTimersByTimeAsync(999);
    expect(FakeSocket.all).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(FakeSocket.all).toHaveLength(3);
    const sock = last();
    sock.accept();
    expect(sock.metas()).toEqual([]);
    sock.provisionOk();
    expect(sock.metas().map((x) => x.id)).toEqual([m.id]);
    sock.ack(m.id, "77");
    await expect(sent).resolves.toMatchObject({ serverMsgId: "77" });
    expect(events).toEqual(["connected", "reconnecting", "reconnecting", "connected"]);
  });

  test("after the configured number of attempts: disconnected, queued sends rejected 'websocket disconnected'", async () => {
    vi.useFakeTimers();
    const conn = newConn({ autoReconnectNumMax: 2 });
    const disconnected: (ChatSdkError | undefined)[] = [];
    conn.addEventHandler("t", { onDisconnected: (e) => disconnected.push(e) });
    const first = await login(conn);
    first.drop();
    const sent = conn.send(message.create({ type: "txt", to: "bob", msg: "lost?" }));
    const check = expect(sent).rejects.toMatchObject({
      type: C.MESSAGE_WEBSOCKET_DISCONNECTED,
      message: "websocket disconnected",
    });
    await vi.advanceTimersByTimeAsync(500);
    last().drop();
    await vi.advanceTimersByTimeAsync(1000);
    last().drop();
    await check;
    expect(disconnected.map((e) => e?.message)).toEqual(["reconnection failed"]);
    expect(conn.status).toBe(STATUS.CLOSED);
  });
});

describe("token expiry and forced logout", () => {
  test("will-expire at half the lifetime, expired plus close at the full lifetime", async () => {
    vi.useFakeTimers();
    const conn = newConn();
    const events: string[] = [];
    conn.addEventHandler("t", {
      onTokenWillExpire: () => events.push("will"),
      onTokenExpired: () => events.push("expired"),
      onDisconnected: () => events.push("disconnected"),
    });
    const sock = await login(conn, 10_000);
    await vi.advanceTimersByTimeAsync(4_999);
    expect(events).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(events).toEqual(["will"]);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(events.slice(0, 2)).toEqual(["will", "expired"]);
    expect(sock.commands()).toContain(COMMAND.LOGOUT);
    await vi.advanceTimersByTimeAsync(1);
    expect(events).toEqual(["will", "expired", "disconnected"]);
    expect(conn.logOut).toBe(true);
  });

  test.each([
    [1, C.WEBIM_CONNCTION_USER_REMOVED, "user has been removed"],
    [2, C.WEBIM_CONNCTION_USER_LOGIN_ANOTHER_DEVICE, "the user is already logged on another device"],
    [3, C.WEBIM_CONNCTION_USER_KICKED_BY_CHANGE_PASSWORD, "the user was kicked by changing password"],
    [4, C.WEBIM_CONNCTION_USER_KICKED_BY_OTHER_DEVICE, "the user was kicked by other device"],
  ])("forced logout %i: error, logged out, disconnected without reconnecting", async (operation, type, text) => {
    const conn = newConn();
    const errors: { type: number; message: string }[] = [];
    const gone: (ChatSdkError | undefined)[] = [];
    conn.addEventHandler("t", {
      onError: (e) => errors.push({ type: e.type, message: e.message }),
      onDisconnected: (e) => gone.push(e),
    });
    const sock = await login(conn);
    const meta = { id: "1", ns: 0, payload: encode(StatisticsBody, { operation }) };
    sock.push({
      command: COMMAND.SYNC,
      payload: encode(CommSyncDL, { queue: { name: "alice" }, metas: [meta], isLast: true }),
    });
    expect(errors).toEqual([{ type, message: text }]);
    sock.drop();
    expect(gone.map((e) => e?.type)).toEqual([type]);
    expect(FakeSocket.all).toHaveLength(1);
    expect(conn.status).toBe(STATUS.CLOSED);
  });
});

describe("receiving", () => {
  const text = (id: string, from: string, msg: string) => ({
    id,
    timestamp: 1_700_000_000_000,
    ns: 1,
    payload: encode(MessageBody, {
      type: 1,
      from: { name: from },
      to: { name: "alice" },
      contents: [{ type: 0, text: msg }],
    }),
  });

  test("a notice triggers a pull; messages are dispatched once; the next pull acks with the key", async () => {
    const conn = newConn();
    const got: string[] = [];
    conn.addEventHandler("t", { onTextMessage: (m) => got.push(`${m.id}:${m.from}:${m.msg}`) });
    const sock = await login(conn);
    const queue = { appKey: "org#app", name: "bob", domain: "easemob.com" };
    sock.push({ command: COMMAND.NOTICE, payload: encode(CommNotice, { queue }) });
    const pull = decode(CommSyncUL, sock.frames.at(-1)!.payload as Uint8Array);
    expect(pull).toMatchObject({ queue: { name: "bob" } });
    expect(pull.key).toBeUndefined();
    sock.push({
      command: COMMAND.SYNC,
      payload: encode(CommSyncDL, {
        queue,
        metas: [text("11", "bob", "one"), text("11", "bob", "one"), text("12", "bob", "two")],
        nextKey: "13",
        isLast: false,
      }),
    });
    expect(got).toEqual(["11:bob:one", "12:bob:two"]);
    expect(decode(CommSyncUL, sock.frames.at(-1)!.payload as Uint8Array)).toMatchObject({
      queue: { name: "bob" },
      key: "13",
    });
    sock.push({ command: COMMAND.SYNC, payload: encode(CommSyncDL, { queue, metas: [], isLast: true }) });
    // Redelivered later (e.g. after a reconnect): not dispatched twice.
    sock.push({
      command: COMMAND.SYNC,
      payload: encode(CommSyncDL, { queue, metas: [text("12", "bob", "two")], nextKey: "14", isLast: false }),
    });
    expect(got).toHaveLength(2);
  });

  test("a pull without an answer is sent again after the 10 s notice timer", async () => {
    vi.useFakeTimers();
    const conn = newConn({ heartBeatWait: 60_000 });
    const sock = await login(conn);
    sock.push({ command: COMMAND.NOTICE, payload: encode(CommNotice, { queue: { name: "bob" } }) });
    const pulls = () => sock.frames.filter((f) => Number(f.command ?? 0) === COMMAND.SYNC).length;
    expect(pulls()).toBe(1);
    await vi.advanceTimersByTimeAsync(9_999);
    expect(pulls()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(pulls()).toBe(2);
    sock.push({
      command: COMMAND.SYNC,
      payload: encode(CommSyncDL, { queue: { name: "bob" }, metas: [], isLast: true }),
    });
    await vi.advanceTimersByTimeAsync(20_000);
    expect(pulls()).toBe(2);
    conn.close();
  });

  test("UNREAD reply pulls every queue; offline sync start and finish", async () => {
    const conn = newConn();
    const events: string[] = [];
    conn.addEventHandler("t", {
      onOfflineMessageSyncStart: () => events.push("start"),
      onOfflineMessageSyncFinish: () => events.push("finish"),
    });
    const sock = await login(conn);
    sock.push({
      command: COMMAND.UNREAD,
      payload: encode(CommUnreadDL, { unread: [{ queue: { name: "bob" }, n: 1 }] }),
    });
    expect(events).toEqual(["start"]);
    sock.push({
      command: COMMAND.SYNC,
      payload: encode(CommSyncDL, { queue: { name: "bob" }, metas: [], isLast: true }),
    });
    expect(events).toEqual(["start", "finish"]);
  });

  test("recall: removed from the cache, last message refreshed, unread lowered unless already read", async () => {
    const conn = newConn();
    const sock = await login(conn);
    await conn.cache!.start("alice");
    const queue = { name: "bob" };
    sock.push({
      command: COMMAND.SYNC,
      payload: encode(CommSyncDL, {
        queue,
        metas: [text("21", "bob", "a"), { ...text("22", "bob", "b"), timestamp: 1_700_000_000_001 }],
        nextKey: "2",
        isLast: false,
      }),
    });
    expect(conn.cache!.getConversation("bob", "singleChat")).toMatchObject({
      unReadCount: 2,
      lastMessage: { id: "22" },
    });
    const recalls: string[] = [];
    conn.addEventHandler("r", { onRecallMessage: (e) => recalls.push(`${e.from}:${e.mid}`) });
    const recall = {
      id: "23",
      ns: 1,
      payload: encode(MessageBody, {
        type: 6,
        from: { name: "bob" },
        to: { name: "alice" },
        contents: [{}],
        ackMessageId: "22",
      }),
    };
    sock.push({
      command: COMMAND.SYNC,
      payload: encode(CommSyncDL, { queue, metas: [recall], nextKey: "3", isLast: false }),
    });
    expect(recalls).toEqual(["bob:22"]);
    expect(conn.cache!.getConversation("bob", "singleChat")).toMatchObject({
      unReadCount: 1,
      lastMessage: { id: "21" },
    });
    // Read everything (channel ack), then a recall of an older message leaves the count at 0.
    conn.cache!.clearUnread("bob", "singleChat", 1_800_000_000_000);
    const recallOld = {
      id: "24",
      ns: 1,
      payload: encode(MessageBody, {
        type: 6,
        from: { name: "bob" },
        to: { name: "alice" },
        contents: [{}],
        ackMessageId: "21",
      }),
    };
    sock.push({
      command: COMMAND.SYNC,
      payload: encode(CommSyncDL, { queue, metas: [recallOld], nextKey: "4", isLast: false }),
    });
    expect(conn.cache!.getConversation("bob", "singleChat")).toMatchObject({ unReadCount: 0 });
    expect(conn.cache!.getMessages("bob", "singleChat")).toEqual([]);
  });
});

describe("data reports", () => {
  afterEach(() => vi.unstubAllGlobals());

  test("with enableDataReport: init, the login, sends with their results, a reconnect and REST calls go to the server's endpoint", async () => {
    vi.useFakeTimers();
    const posts: {
      url: string;
      headers: Record<string, string>;
      events: { eventId: number; body: Record<string, unknown> }[];
    }[] = [];
    vi.stubGlobal("fetch", (url: string, init: { headers: Record<string, string>; body: string }) => {
      if (url.endsWith("/sdk/reports")) {
        posts.push({ url, headers: init.headers, events: JSON.parse(init.body) as (typeof posts)[number]["events"] });
        return Promise.resolve(new Response(JSON.stringify({ data: { accepted: 1 } }), { status: 200 }));
      }
      return Promise.resolve(
        new Response(JSON.stringify({ error: "not_found", error_description: "user not found" }), { status: 404 }),
      );
    });
    const conn = newConn({ enableDataReport: true, deviceId: "dev" });
    const sock = await login(conn);
    const ok = message.create({ type: "txt", to: "bob", msg: "one" });
    const okSent = conn.send(ok);
    sock.ack(ok.id, "501");
    await okSent;
    const refused = message.create({ type: "txt", to: "bob", msg: "two" });
    const refusedSent = conn.send(refused);
    sock.ack(refused.id, "0", { errorCode: 7, reason: "user is mute" });
    await expect(refusedSent).rejects.toMatchObject({ type: C.USER_MUTED_BY_ADMIN });
    await expect(conn.getContacts()).rejects.toMatchObject({ httpStatus: 404 });
    sock.drop();
    await vi.advanceTimersByTimeAsync(500);
    last().accept();
    last().provisionOk();
    await vi.advanceTimersByTimeAsync(1000);
    expect(posts).toHaveLength(1);
    expect(posts[0]!.url).toBe("http://127.0.0.1:9/org/app/sdk/reports");
    expect(posts[0]!.headers).toMatchObject({ token: "tok", appid: "org#app", biz: "im", debug: "false" });
    const events = posts[0]!.events;
    expect(events.map((e) => [e.eventId, e.body.operationName])).toEqual([
      [9674, undefined],
      [9675, "USER_LOGIN"],
      [9675, "SEND_MSG"],
      [9675, "SEND_MSG"],
      [9675, "REST"],
      [9675, "RECONNECT"],
    ]);
    expect(events[0]!.body).toMatchObject({ os: 7, appkey: "org#app", sdkVersion: "1.0.0" });
    expect(events[0]!.body.sdkServiceId).toMatch(/^sid_\d+_\d+$/);
    expect(events[1]!.body).toMatchObject({
      operationType: "MANUALLOGIN",
      isSuccess: 1,
      loginType: "token",
      uid: "alice",
      deviceId: "webim_dev",
    });
    expect(events[2]!.body).toMatchObject({ operationType: "SENDMESSAGE", isSuccess: 1, code: 0 });
    expect(events[3]!.body).toMatchObject({ isSuccess: 0, code: C.USER_MUTED_BY_ADMIN, codeDesc: "user is mute" });
    expect(events[4]!.body).toMatchObject({
      operationType: "REST",
      requestMethod: "GET",
      requestUrl: "users/alice/contacts/users",
      isSuccess: 0,
      httpStatus: 404,
    });
    expect(events[5]!.body).toMatchObject({ isSuccess: 1, attempts: 1 });
    expect(new Set(events.map((e) => e.body.sdkServiceId)).size).toBe(1);
    conn.close();
  });

  test("without enableDataReport nothing is reported", async () => {
    const fetched: string[] = [];
    vi.stubGlobal("fetch", (url: string) => {
      fetched.push(url);
      return Promise.resolve(new Response("{}", { status: 200 }));
    });
    const conn = newConn();
    await login(conn);
    expect(conn.reporter).toBeUndefined();
    await conn.getContacts();
    expect(fetched.filter((u) => u.includes("/sdk/reports"))).toEqual([]);
    conn.close();
  });
});

describe("multi-device events", () => {
  const queue = { name: "alice" };
  let n = 100;
  const deliver = (sock: FakeSocket, meta: Decoded) => {
    n += 1;
    sock.push({
      command: COMMAND.SYNC,
      payload: encode(CommSyncDL, {
        queue,
        metas: [{ id: String(n), ...meta }],
        nextKey: String(n + 1),
        isLast: false,
      }),
    });
  };
  const attributes = (from: Decoded) => ({
    ns: NS.MUC,
    payload: encode(MUCBody, {
      mucId: { name: "900" },
      operation: 45,
      from,
      eventInfo: { ext: JSON.stringify({ username: "alice", properties: { nick: "A" } }) },
    }),
  });
  const notify = (json: unknown) => ({ ns: NS.NOTIFY, payload: new TextEncoder().encode(JSON.stringify(json)) });

  async function watched(): Promise<{
    sock: FakeSocket;
    multi: Record<string, unknown>[];
    group: Record<string, unknown>[];
  }> {
    const conn = newConn();
    const multi: Record<string, unknown>[] = [];
    const group: Record<string, unknown>[] = [];
    conn.addEventHandler("t", { onMultiDeviceEvent: (e) => multi.push(e), onGroupEvent: (e) => group.push(e) });
    return { sock: await login(conn), multi, group };
  }

  test("member attributes: the user's own change from another device is a multi-device event, anything else a group event", async () => {
    const { sock, multi, group } = await watched();
    deliver(sock, attributes({ name: "alice", clientResource: "webim_phone" }));
    expect(multi).toEqual([
      { operation: "memberAttributesUpdate", id: "900", from: "alice", attributes: { nick: "A" }, userId: "alice" },
    ]);
    expect(group).toEqual([]);
    deliver(sock, attributes({ name: "alice", clientResource: "webim_dev" }));
    deliver(sock, attributes({ name: "bob", clientResource: "webim_phone" }));
    expect(group.map((e) => e.from)).toEqual(["alice", "bob"]);
    expect(multi).toHaveLength(1);
  });

  test("user_notification_mute: all-conversation and per-conversation settings, removal; this device's own entries ignored", async () => {
    const { sock, multi } = await watched();
    deliver(
      sock,
      notify({
        type: "user_notification_mute",
        values: [
          { operator_resource: "webim_phone", data: { type: "AT", ignoreInterval: "22:00-7:00" } },
          { operator_resource: "webim_phone", data: { type: "NONE" }, user: "bob" },
          { operator_resource: "webim_phone", data: { ignoreDuration: 1_900_000_000_000 }, group: "900" },
          { operator_resource: "webim_phone", data: {}, user: "carol" },
          { operator_resource: "webim_dev", data: { type: "ALL" }, user: "dave" },
        ],
      }),
    );
    expect(multi).toEqual([
      {
        operation: "setSilentModeForUser",
        resource: "webim_phone",
        data: { type: "AT", ignoreInterval: "22:00-7:00" },
      },
      {
        operation: "setSilentModeForConversation",
        resource: "webim_phone",
        conversationId: "bob",
        type: "singleChat",
        data: { type: "NONE" },
      },
      {
        operation: "setSilentModeForConversation",
        resource: "webim_phone",
        conversationId: "900",
        type: "groupChat",
        data: { ignoreDuration: 1_900_000_000_000 },
      },
      {
        operation: "removeSilentModeForConversation",
        resource: "webim_phone",
        conversationId: "carol",
        type: "singleChat",
        data: {},
      },
    ]);
  });
});

describe("server discovery and translation before sending", () => {
  afterEach(() => vi.unstubAllGlobals());

  test("hosts come from server.json at open and again every 5 failed reconnects", async () => {
    vi.useFakeTimers();
    const lookups: string[] = [];
    vi.stubGlobal("fetch", (url: string) => {
      lookups.push(url);
      const reply = {
        rest: { hosts: [{ protocol: "https", domain: "im.example.com", port: 443 }] },
        "msync-wx": { hosts: [{ protocol: "https", domain: "ws.example.com", port: 8443 }] },
      };
      return Promise.resolve(new Response(JSON.stringify(reply), { status: 200 }));
    });
    const conn = newConn({ isHttpDNS: true, dnsUrl: "http://dns.example.com", autoReconnectNumMax: 10 });
    await login(conn);
    expect(lookups).toHaveLength(1);
    expect(lookups[0]).toMatch(/^http:\/\/dns\.example\.com\/easemob\/server\.json\?app_key=org%23app&_v=\d+$/);
    expect(conn.apiUrl).toBe("https://im.example.com");
    expect(last().url).toBe("wss://ws.example.com:8443/websocket");
    last().drop();
    for (let attempt = 1; attempt <= 5; attempt++) {
      await vi.advanceTimersByTimeAsync(500 * attempt);
      if (attempt < 5) last().drop();
    }
    expect(lookups).toHaveLength(2);
    conn.close();
  });

  test("REST replies with unconventional statuses refresh discovery every 5; ordinary failures do not", async () => {
    vi.useFakeTimers();
    const lookups: string[] = [];
    let status = 418;
    vi.stubGlobal("fetch", (url: string) => {
      if (url.includes("server.json")) {
        lookups.push(url);
        return Promise.resolve(
          new Response(
            JSON.stringify({
              rest: { hosts: [{ protocol: "http", domain: "im.local", port: 80 }] },
              "msync-wx": { hosts: [{ protocol: "http", domain: "im.local", port: 80 }] },
            }),
            { status: 200 },
          ),
        );
      }
      return Promise.resolve(new Response(JSON.stringify({ error_description: "odd" }), { status }));
    });
    const conn = newConn({ isHttpDNS: true, dnsUrl: "http://dns" });
    await login(conn);
    expect(lookups).toHaveLength(1);
    for (let i = 0; i < 5; i++) {
      await expect(conn.getContacts()).rejects.toMatchObject({ type: C.WEBIM_CONNCTION_AJAX_ERROR });
    }
    await vi.waitFor(() => expect(lookups).toHaveLength(2));
    status = 404;
    for (let i = 0; i < 5; i++) {
      await expect(conn.getContacts()).rejects.toMatchObject({ type: C.WEBIM_CONNCTION_AJAX_ERROR });
    }
    expect(lookups).toHaveLength(2);
    conn.close();
  });

  test("msgConfig.languages: the text is translated first and the translations travel in the body", async () => {
    const conn = newConn();
    const sock = await login(conn);
    vi.stubGlobal("fetch", () =>
      Promise.resolve(new Response(JSON.stringify([{ translations: [{ to: "en", text: "hello" }] }]), { status: 200 })),
    );
    const m = message.create({ type: "txt", to: "bob", msg: "你好", msgConfig: { languages: ["en"] } });
    const sent = conn.send(m);
    await vi.waitFor(() => expect(sock.metas()).toHaveLength(1));
    const body = decode(MessageBody, sock.metas()[0]!.payload as Uint8Array);
    expect(JSON.parse(body.meta as string)).toEqual({ translations: [{ code: "en", text: "hello" }] });
    sock.ack(m.id, "5");
    await expect(sent).resolves.toMatchObject({ message: { translations: [{ code: "en", text: "hello" }] } });
  });
});
