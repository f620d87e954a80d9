import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { decodeMessageBody, decodeMeta } from "../proto/decode";
import { CMD } from "./frames";
import { startGatewayTest, type GatewayTest } from "./test-server";
import { pullFrame, sendFrame, type ServerFrame } from "./wire-client";

/**
 * Two server instances sharing PostgreSQL and Redis (REDIS_URL): a user on instance A gets what is sent
 * through instance B, and a login on one instance kicks the same device on the other. Needs a shared
 * database, so it runs in the PostgreSQL project with TEST_REDIS_URL set.
 */
const redisUrl = process.env.TEST_REDIS_URL;

describe("scale-out through Redis", () => {
  let a: GatewayTest;
  let b: GatewayTest;
  beforeAll(async () => {
    const env = { REDIS_URL: redisUrl ?? "", SECRET_KEY: randomBytes(32).toString("hex") };
    a = await startGatewayTest(env);
    b = await startGatewayTest(env);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  test("a message sent through one instance wakes the receiver on the other", async () => {
    const alice = await a.user("alice");
    const bob = await a.user("bob");
    const onB = await b.login(bob.name, bob.token, "webim_b");
    const onA = await a.login(alice.name, alice.token, "webim_a");
    onA.send(sendFrame(a.appKey, { id: 11n, from: alice.name, to: bob.name, chatType: 1, text: "across" }));
    expect((await onA.take((f: ServerFrame) => f.sync?.metaId === 11n)).sync?.status?.code).toBe(0);
    const n = await onB.take((f) => f.command === CMD.NOTICE);
    expect(n.notice?.name).toBe(alice.name);
    onB.send(pullFrame(b.appKey, { name: alice.name, domain: "easemob.com" }));
    const batch = await onB.take((f) => f.sync?.queue?.name === alice.name);
    expect((batch.sync?.metas ?? []).map((m) => decodeMessageBody(decodeMeta(m).payload).contents[0]?.text)).toEqual(["across"]);
    onA.close();
    onB.close();
  });

  test("a login on one instance kicks the same device resource on the other", async () => {
    const carol = await a.user("carol");
    const first = await a.login(carol.name, carol.token, "webim_same");
    const second = await b.login(carol.name, carol.token, "webim_same");
    expect((await first.untilClosed()).code).toBe(4000);
    second.close();
  });
});
