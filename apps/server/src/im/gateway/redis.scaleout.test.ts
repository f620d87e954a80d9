import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { decodeMessageBody, decodeMeta } from "../proto/decode";
import { CMD } from "./frames";
import { startGatewayTest, type GatewayTest } from "./test-server";
import { provisionFrame, pullFrame, sendFrame, WireClient, type ServerFrame } from "./wire-client";

/**
 * Two server instances sharing PostgreSQL and Redis (REDIS_URL): a user on instance A gets what is sent
 * through instance B, a login on one instance kicks the same device on the other, and the device limit,
 * presence and administrative logouts hold across instances. Needs a shared
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
    expect((batch.sync?.metas ?? []).map((m) => decodeMessageBody(decodeMeta(m).payload).contents[0]?.text)).toEqual([
      "across",
    ]);
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

  test("the device limit counts the devices connected to every instance", async () => {
    const dave = await a.user("dave");
    const max = a.im.t.app.im.gateway.options.maxDevices;
    const open = [];
    for (let i = 0; i < max; i++) open.push(await (i % 2 === 0 ? a : b).login(dave.name, dave.token, `webim_d${i}`));
    const extra = await WireClient.connect(b.url);
    extra.send(provisionFrame(b.appKey, dave.name, dave.token, "webim_extra"));
    expect((await extra.take((f) => f.provision !== undefined)).provision?.status.code).toBe(13);
    for (const c of open) c.close();
  });

  test("a password changed through one instance logs the user out on the other", async () => {
    const erin = await a.user("erin");
    const onB = await b.login(erin.name, erin.token, "webim_e");
    const r = await a.im.call("PUT", `users/${erin.name}/password`, {
      token: a.im.appToken,
      body: { newpassword: "other-secret-3" },
    });
    expect(r.status).toBe(200);
    expect((await onB.untilClosed()).code).toBe(4000);
  });

  test("presence set by a device on one instance is read on the other", async () => {
    const fay = await a.user("fay");
    const onB = await b.login(fay.name, fay.token, "webim_f");
    await expect
      .poll(async () => (await a.im.t.app.im.services.presence.statusOf([fay.name]))[0]?.status.webim_f)
      .toBe("1");
    onB.close();
    await expect
      .poll(async () => (await a.im.t.app.im.services.presence.statusOf([fay.name]))[0]?.status.webim_f)
      .toBe("0");
  });
});
