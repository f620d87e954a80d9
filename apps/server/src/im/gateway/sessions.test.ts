import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { decodeMessageBody, decodeMeta } from "../proto/decode";
import { CMD, KICK } from "./frames";
import { LEASE_MS } from "./leases";
import { startGatewayTest, type GatewayTest } from "./test-server";
import { isAckOf, provisionFrame, pullFrame, sendFrame, WireClient } from "./wire-client";

/**
 * Sessions across their lifetime: online-only routing, the device limit over every process's leases,
 * presence set by connecting and disconnecting, and the server-side user administration that ends
 * sessions (password change, deactivation, disconnect, removal).
 */
let g: GatewayTest;

beforeAll(async () => {
  g = await startGatewayTest();
});
afterAll(async () => {
  await g?.close();
});

const db = () => g.im.t.ctx.database.db;
const app = (method: "GET" | "POST" | "PUT" | "DELETE", path: string, body?: unknown) =>
  g.im.call(method, path, { token: g.im.appToken, body });

/** The kick operation a device was sent (a STATISTIC meta) and the close code that followed. */
async function kicked(c: WireClient): Promise<{ operation: number; close: number }> {
  const frame = await c.take((f) => (f.sync?.metas ?? []).some((m) => decodeMeta(m).ns === 0));
  const meta = (frame.sync?.metas ?? []).map((m) => decodeMeta(m)).find((m) => m.ns === 0);
  // StatisticsBody: field 1 (operation) as a varint.
  expect(meta?.payload[0]).toBe(0x08);
  return { operation: meta?.payload[1] ?? -1, close: (await c.untilClosed()).code };
}

async function loginResult(name: string, token: string, resource: string): Promise<{ code: number; reason: string }> {
  const c = await WireClient.connect(g.url);
  c.send(provisionFrame(g.appKey, name, token, resource));
  const reply = await c.take((f) => f.provision !== undefined);
  c.close();
  return { code: reply.provision?.status.code ?? -1, reason: reply.provision?.status.reason ?? "" };
}

/** Every text message a pull of `queue` returns now. */
async function pullTexts(c: WireClient, queue: { name: string; domain: string }): Promise<string[]> {
  c.send(pullFrame(g.appKey, queue));
  const b = await c.take((f) => f.sync !== undefined && f.sync.metaId === 0n && f.sync.queue?.name === queue.name);
  return (b.sync?.metas ?? [])
    .map((m) => decodeMeta(m))
    .filter((m) => m.ns === 1)
    .map((m) => decodeMessageBody(m.payload).contents[0]?.text ?? "");
}

describe("online-only routing", () => {
  test("reaches the devices connected now, is queued for nobody, and stays in history", async () => {
    const [ann, ben, cat] = await Promise.all([g.user("ann"), g.user("ben"), g.user("cat")]);
    const a = await g.login(ann.name, ann.token, "webim_o1");
    const b = await g.login(ben.name, ben.token, "webim_o2");
    a.send(
      sendFrame(g.appKey, {
        id: 5001n,
        from: ann.name,
        to: ben.name,
        chatType: 1,
        text: "now or never",
        onlineOnly: true,
      }),
    );
    const ack = await a.take(isAckOf(5001n));
    expect(ack.sync?.status?.code).toBe(0);
    const pushed = await b.take((f) => (f.sync?.metas ?? []).some((m) => decodeMeta(m).ns === 1));
    expect(decodeMessageBody(decodeMeta(pushed.sync?.metas[0] ?? new Uint8Array()).payload).contents[0]?.text).toBe(
      "now or never",
    );

    // cat is offline: logging in later finds nothing queued and nothing unread.
    a.send(
      sendFrame(g.appKey, { id: 5002n, from: ann.name, to: cat.name, chatType: 1, text: "missed", onlineOnly: true }),
    );
    expect((await a.take(isAckOf(5002n))).sync?.status?.code).toBe(0);
    const c = await g.login(cat.name, cat.token, "webim_o3");
    expect(await pullTexts(c, { name: ann.name, domain: "easemob.com" })).toEqual([]);
    const unread = await db()
      .selectFrom("im_conversations")
      .select("unread")
      .where("username", "=", cat.name)
      .execute();
    expect(unread.every((r) => r.unread === 0)).toBe(true);
    // Stored before the ack all the same.
    const stored = await db()
      .selectFrom("im_messages")
      .select("id")
      .where("id", "=", Number(ack.sync?.serverId))
      .execute();
    expect(stored).toHaveLength(1);
    for (const x of [a, b, c]) x.close();
  });
});

describe("queue copies of own sends", () => {
  test("a sender with no other device gets no copy of its own message; with another device it does", async () => {
    const [solo, peer] = await Promise.all([g.user("solo"), g.user("peer")]);
    const one = await g.login(solo.name, solo.token, "webim_s1");
    one.send(sendFrame(g.appKey, { id: 5101n, from: solo.name, to: peer.name, chatType: 1, text: "just me" }));
    expect((await one.take(isAckOf(5101n))).sync?.status?.code).toBe(0);
    const copies = () => db().selectFrom("im_inbox").select("id").where("username", "=", solo.name).execute();
    expect(await copies()).toEqual([]);
    const two = await g.login(solo.name, solo.token, "webim_s2");
    one.send(sendFrame(g.appKey, { id: 5102n, from: solo.name, to: peer.name, chatType: 1, text: "now two" }));
    expect((await one.take(isAckOf(5102n))).sync?.status?.code).toBe(0);
    expect(await pullTexts(two, { name: peer.name, domain: "easemob.com" })).toEqual(["now two"]);
    // The receiver's queue has both, in order.
    const p = await g.login(peer.name, peer.token, "webim_s3");
    expect(await pullTexts(p, { name: solo.name, domain: "easemob.com" })).toEqual(["just me", "now two"]);
    for (const c of [one, two, p]) c.close();
  });
});

describe("devices across processes", () => {
  test("the device limit counts the live leases other processes hold; a lapsed lease does not count", async () => {
    const u = await g.user("leased");
    const max = g.im.t.app.im.gateway.options.maxDevices;
    const until = new Date(g.im.t.clock.now().getTime() + LEASE_MS);
    await db()
      .insertInto("im_devices")
      .values(
        Array.from({ length: max }, (_, i) => ({
          username: u.name,
          resource: `webim_far${i}`,
          first_inbox_id: 0,
          last_seen_at: g.im.t.clock.now(),
          online_node: "another-process",
          online_until: until,
        })),
      )
      .execute();
    expect(await loginResult(u.name, u.token, "webim_here")).toEqual({ code: 13, reason: "Sorry, too many devices" });
    g.im.t.clock.advance(LEASE_MS / 1000 + 1);
    const fresh = await g.im.login(u.name);
    const c = await g.login(u.name, fresh, "webim_here");
    const mine = await db()
      .selectFrom("im_devices")
      .select(["online_node", "online_until"])
      .where("username", "=", u.name)
      .where("resource", "=", "webim_here")
      .executeTakeFirst();
    expect(mine?.online_node).toBe(g.im.t.app.im.gateway.node);
    expect(mine?.online_until?.getTime()).toBeGreaterThan(g.im.t.clock.now().getTime());
    c.close();
    await c.untilClosed();
    await expect
      .poll(
        async () =>
          (
            await db()
              .selectFrom("im_devices")
              .select("online_node")
              .where("username", "=", u.name)
              .where("resource", "=", "webim_here")
              .executeTakeFirst()
          )?.online_node,
      )
      .toBeNull();
  });

  test("connecting shows the device online to presence and its subscribers, disconnecting shows it offline", async () => {
    const [u, watcher] = await Promise.all([g.user("present"), g.user("watcher")]);
    expect(
      (
        await g.im.call("POST", `users/${watcher.name}/presence/3600`, {
          token: watcher.token,
          body: { usernames: [u.name] },
        })
      ).status,
    ).toBe(200);
    const w = await g.login(watcher.name, watcher.token, "webim_w1");
    /** The presence status of webim_p1 in the next NOTIFY the watcher gets. */
    const heard = async () => {
      const f = await w.take((x) => (x.sync?.metas ?? []).some((m) => decodeMeta(m).ns === 5));
      const meta = (f.sync?.metas ?? []).map((m) => decodeMeta(m)).find((m) => m.ns === 5);
      const json = JSON.parse(Buffer.from(meta?.payload ?? new Uint8Array()).toString("utf8")) as {
        type: string;
        data: { values: { uid: string; status: Record<string, string> }[] };
      };
      expect(json.type).toBe("presence");
      expect(json.data.values[0]?.uid).toBe(u.name);
      return json.data.values[0]?.status.webim_p1;
    };
    const status = async () => (await g.im.t.app.im.services.presence.statusOf([u.name]))[0]?.status.webim_p1;
    const c = await g.login(u.name, u.token, "webim_p1");
    expect(await heard()).toBe("1");
    expect(await status()).toBe("1");
    c.close();
    expect(await heard()).toBe("0");
    expect(await status()).toBe("0");
    w.close();
  });
});

describe("user administration ends sessions", () => {
  test("a password change logs every device out with CHANGE_PASSWORD and revokes the old token", async () => {
    const u = await g.user("pwchange");
    const d1 = await g.login(u.name, u.token, "webim_c1");
    const d2 = await g.login(u.name, u.token, "webim_c2");
    const wrong = await g.im.call("PUT", `users/${u.name}/password`, {
      token: u.token,
      body: { oldpassword: "not-it", newpassword: "new-secret-2" },
    });
    expect(wrong.status).toBe(400);
    const r = await g.im.call("PUT", `users/${u.name}/password`, {
      token: u.token,
      body: { oldpassword: "pw-secret-1", newpassword: "new-secret-2" },
    });
    expect(r.status).toBe(200);
    expect(await kicked(d1)).toEqual({ operation: KICK.CHANGE_PASSWORD, close: 4000 });
    expect(await kicked(d2)).toEqual({ operation: KICK.CHANGE_PASSWORD, close: 4000 });
    expect(await loginResult(u.name, u.token, "webim_c3")).toEqual({
      code: 1,
      reason: "Sorry, token or password does not match login info",
    });
    g.im.t.clock.advance(1);
    const grant = await g.im.call<{ access_token: string }>("POST", "token", {
      body: { grant_type: "password", username: u.name, password: "new-secret-2" },
    });
    expect(grant.status).toBe(200);
    (await g.login(u.name, grant.body.access_token, "webim_c3")).close();
  });

  test("deactivation logs devices out with USER_REMOVED and refuses logins until reactivated", async () => {
    const u = await g.user("banned");
    const d = await g.login(u.name, u.token, "webim_b1");
    expect((await app("POST", `users/${u.name}/deactivate`)).status).toBe(200);
    expect(await kicked(d)).toEqual({ operation: KICK.USER_REMOVED, close: 4000 });
    g.im.t.clock.advance(1);
    const token = await g.im.login(u.name).catch(() => "");
    expect(token).toBe("");
    const signer = g.im.t.app.im.services.deps.signer;
    const now = g.im.t.clock.now().getTime();
    const forged = signer.sign({ subject: u.name, issuedMs: now, expiresMs: now + 60_000 });
    expect(await loginResult(u.name, forged, "webim_b2")).toEqual({ code: 12, reason: "Sorry, the user is banned" });
    expect((await app("POST", `users/${u.name}/activate`)).status).toBe(200);
    (await g.login(u.name, forged, "webim_b2")).close();
  });

  test("disconnect logs devices out with OTHER_DEVICE; the token still works", async () => {
    const u = await g.user("dropped");
    const d = await g.login(u.name, u.token, "webim_x1");
    expect((await app("GET", `users/${u.name}/disconnect`)).body).toMatchObject({ data: { result: true } });
    expect(await kicked(d)).toEqual({ operation: KICK.OTHER_DEVICE, close: 4000 });
    (await g.login(u.name, u.token, "webim_x1")).close();
  });

  test("removal logs devices out, dissolves the groups the user owned, and the user is gone", async () => {
    const [owner, member] = await Promise.all([g.user("leaving"), g.user("stays")]);
    const created = await g.im.call<{ data: { groupid: string } }>("POST", "chatgroups", {
      token: owner.token,
      body: { groupname: "Gone", desc: "d", public: false, maxusers: 20, members: [member.name] },
    });
    const gid = created.body.data.groupid;
    const d = await g.login(owner.name, owner.token, "webim_r1");
    expect((await app("DELETE", `users/${owner.name}`)).status).toBe(200);
    expect(await kicked(d)).toEqual({ operation: KICK.USER_REMOVED, close: 4000 });
    expect((await app("GET", `users/${owner.name}`)).status).toBe(404);
    expect((await g.im.call("GET", `chatgroups/${gid}`, { token: member.token })).status).not.toBe(200);
    const m = await g.login(member.name, member.token, "webim_r2");
    m.send(sendFrame(g.appKey, { id: 6001n, from: member.name, to: gid, chatType: 2, text: "anyone?" }));
    expect((await m.take(isAckOf(6001n))).sync?.status?.code).not.toBe(0);
    m.close();
  });

  test("only the app administers users: a user token is refused and nothing changes", async () => {
    const [u, other] = await Promise.all([g.user("selfish"), g.user("victim")]);
    const d = await g.login(other.name, other.token, "webim_v1");
    for (const [method, path] of [
      ["POST", `users/${other.name}/deactivate`],
      ["GET", `users/${other.name}/disconnect`],
      ["DELETE", `users/${other.name}`],
      ["PUT", `users/${other.name}/password`],
    ] as const) {
      const r = await g.im.call(method, path, {
        token: u.token,
        body: { newpassword: "x-secret-9", oldpassword: "pw-secret-1" },
      });
      expect(r.status, `${method} ${path}`).toBe(403);
    }
    d.send(pullFrame(g.appKey, { name: u.name, domain: "easemob.com" }));
    await d.take((f) => f.command === CMD.SYNC);
    expect(d.closed).toBeNull();
    d.close();
  });
});
