import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { CMD } from "./frames";
import { startGatewayTest, type GatewayTest } from "./test-server";
import { pullFrame, sendFrame, type ServerFrame, type WireClient } from "./wire-client";

/**
 * Issue 44, item 3: two deployments on one Redis server. Deployment A is two nodes on the PostgreSQL
 * database with one secret; deployment B is one node on a database of its own (embedded) with another.
 * Each deployment's channels and keys start with its own REDIS_PREFIX (derived by default), so a forced
 * logout or a message in A reaches A's other node and never B, though B has a user of the same name.
 */
const redisUrl = process.env.TEST_REDIS_URL ?? "";

describe("deployments sharing a Redis server", () => {
  let a1: GatewayTest;
  let a2: GatewayTest;
  let b: GatewayTest;
  let spy: Redis;
  const seen: { channel: string; text: string }[] = [];
  beforeAll(async () => {
    const keyA = randomBytes(32).toString("hex");
    a1 = await startGatewayTest({ REDIS_URL: redisUrl, SECRET_KEY: keyA });
    a2 = await startGatewayTest({ REDIS_URL: redisUrl, SECRET_KEY: keyA });
    b = await startGatewayTest(
      { REDIS_URL: redisUrl, SECRET_KEY: randomBytes(32).toString("hex") },
      { embedded: true },
    );
    // Everything any deployment relays, as Redis sees it.
    spy = new Redis(redisUrl);
    spy.on("pmessage", (_pattern: string, channel: string, text: string) => void seen.push({ channel, text }));
    await spy.psubscribe("*im:gateway");
  });
  afterAll(async () => {
    await spy?.quit();
    await a1?.close();
    await a2?.close();
    await b?.close();
  });

  const prefixOf = (g: GatewayTest) => g.im.t.ctx.config.im.redisPrefix;

  /** The user `name` in deployment B too (same name, B's own database). */
  async function sameNameInB(name: string): Promise<string> {
    const reg = await b.im.call("POST", "users", {
      token: b.im.appToken,
      body: { username: name, password: "pw-secret-1", nickname: name },
    });
    expect(reg.status).toBe(200);
    return b.im.login(name);
  }

  /** A round trip on B's socket: whatever B's node had to send it before this reply has arrived. */
  async function roundTrip(c: WireClient): Promise<void> {
    c.send(pullFrame(b.appKey, { name: "nobody", domain: "easemob.com" }));
    await c.take((f: ServerFrame) => f.sync?.queue?.name === "nobody");
  }

  test("the nodes of one deployment share a prefix; two deployments differ", () => {
    expect(prefixOf(a1)).toMatch(/^tessera:[0-9a-f]{12}:$/);
    expect(prefixOf(a2)).toBe(prefixOf(a1));
    expect(prefixOf(b)).toMatch(/^tessera:[0-9a-f]{12}:$/);
    expect(prefixOf(b)).not.toBe(prefixOf(a1));
  });

  test("a forced logout in one deployment kicks its other node, never the same name in the other", async () => {
    const kim = await a1.user("kim");
    const onA2 = await a2.login(kim.name, kim.token, "webim_k");
    const onB = await b.login(kim.name, await sameNameInB(kim.name), "webim_k");
    const before = seen.length;
    const r = await a1.im.call("PUT", `users/${kim.name}/password`, {
      token: a1.im.appToken,
      body: { newpassword: "other-secret-3" },
    });
    expect(r.status).toBe(200);
    expect((await onA2.untilClosed()).code).toBe(4000);
    await expect.poll(() => seen.slice(before).some((m) => m.text.includes(`"kick"`))).toBe(true);
    expect(seen.slice(before).every((m) => m.channel === `${prefixOf(a1)}im:gateway`)).toBe(true);
    await roundTrip(onB);
    expect(onB.closed).toBeNull();
    onB.close();
  });

  test("a message in one deployment wakes the receiver on its other node, never the same name in the other", async () => {
    const alice = await a1.user("alice");
    const bob = await a1.user("bob");
    const onA2 = await a2.login(bob.name, bob.token, "webim_b");
    const onB = await b.login(bob.name, await sameNameInB(bob.name), "webim_b");
    const onA1 = await a1.login(alice.name, alice.token, "webim_a");
    const before = seen.length;
    onA1.send(sendFrame(a1.appKey, { id: 21n, from: alice.name, to: bob.name, chatType: 1, text: "only for A" }));
    expect((await onA1.take((f: ServerFrame) => f.sync?.metaId === 21n)).sync?.status?.code).toBe(0);
    expect((await onA2.take((f) => f.command === CMD.NOTICE)).notice?.name).toBe(alice.name);
    await expect.poll(() => seen.length > before).toBe(true);
    expect(seen.slice(before).every((m) => m.channel === `${prefixOf(a1)}im:gateway`)).toBe(true);
    await roundTrip(onB);
    expect(onB.frames.filter((f) => f.command === CMD.NOTICE)).toEqual([]);
    expect(
      onB.frames.some((f) =>
        JSON.stringify(f, (_k, v: unknown) => (typeof v === "bigint" ? String(v) : v)).includes("only for A"),
      ),
    ).toBe(false);
    onA1.close();
    onA2.close();
    onB.close();
  });
});
