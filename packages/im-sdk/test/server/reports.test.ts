import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { WebSocket } from "ws";
import { startImTest, type ImTest } from "../../../../apps/server/test/im-harness";
import { connection, message, statusCode, type Connection, type WebSocketClass } from "../../src/index";

/**
 * Data reports end to end: our SDK with `enableDataReport` logs in, sends, fails a send and calls the
 * REST API against the server; the reports go to the server's own endpoint and are stored, one row per
 * event, under the user, which the app admin then lists.
 */
let im: ImTest;
let baseUrl: string;
let appKey: string;
let alice: Connection | undefined;

beforeAll(async () => {
  im = await startImTest();
  await im.t.app.listen({ port: 0, host: "127.0.0.1" });
  baseUrl = `http://127.0.0.1:${(im.t.app.server.address() as AddressInfo).port}`;
  appKey = `${im.t.config.im.org}#${im.t.config.im.app}`;
});
afterAll(async () => {
  alice?.close();
  await im?.close();
});

interface Stored {
  username: string;
  eventId: number;
  appId: string;
  body: Record<string, unknown>;
}

describe("data reports", () => {
  test("what the SDK did arrives as stored rows under the user", async () => {
    const a = await im.user("alice");
    const b = await im.user("bob");
    alice = new connection({
      appKey,
      apiUrl: baseUrl,
      url: `${baseUrl.replace(/^http/, "ws")}/websocket`,
      WebSocket: WebSocket as unknown as WebSocketClass,
      enableDataReport: true,
    });
    await alice.open({ user: a.name, pwd: "pw-secret-1" });
    await alice.send(message.create({ type: "txt", chatType: "singleChat", to: b.name, msg: "reported" }));
    await expect(
      alice.send(message.create({ type: "txt", chatType: "singleChat", to: "nobody-here", msg: "x" })),
    ).rejects.toBeDefined();
    await alice.getContacts();
    await alice.reporter!.flush();
    expect(alice.reporter).toMatchObject({ failed: 0, dropped: 0, pending: 0 });

    const listed = await im.call<{ entities: Stored[] }>("GET", `sdk/reports?username=${a.name}&limit=100`, {
      token: im.appToken,
    });
    expect(listed.status).toBe(200);
    const rows = [...listed.body.entities].reverse();
    expect(rows.every((r) => r.username === a.name && r.appId === appKey)).toBe(true);
    expect(rows.map((r) => [r.eventId, r.body.operationName ?? null])).toEqual([
      [9674, null],
      [9675, "USER_LOGIN"],
      [9675, "SEND_MSG"],
      [9675, "SEND_MSG"],
      [9675, "REST"],
    ]);
    expect(rows[1]!.body).toMatchObject({
      isSuccess: 1,
      loginType: "password",
      uid: a.name,
      deviceId: alice.clientResource,
    });
    expect(rows[2]!.body).toMatchObject({ isSuccess: 1, code: 0 });
    expect(rows[3]!.body).toMatchObject({ isSuccess: 0, code: statusCode.USER_NOT_FOUND });
    expect(rows[4]!.body).toMatchObject({
      isSuccess: 1,
      requestMethod: "GET",
      requestUrl: `users/${a.name}/contacts/users`,
    });
    expect(alice.reporter!.sent).toBe(5);
  });
});
