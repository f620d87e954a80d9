import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startImTest, type ImTest } from "../../../test/im-harness";
import type { SdkReport } from "../service/reports";

/**
 * Data reports: a client posts a batch with the token in the `token` header and the protocol's headers;
 * each event becomes a row; the app admin lists them by page and filter. Bad batches get a 400 naming the
 * problem, a missing or bad token a 401.
 */
let im: ImTest;
let appKey: string;
beforeAll(async () => {
  im = await startImTest();
  appKey = `${im.t.config.im.org}#${im.t.config.im.app}`;
});
afterAll(async () => {
  await im.close();
});

interface ReportList {
  entities: SdkReport[];
  count: number;
  cursor: string;
}

const headersFor = (token: string, extra: Record<string, string> = {}) => ({
  token,
  appid: appKey,
  sendts: "1740823200",
  biz: "im",
  debug: "false",
  ...extra,
});
const post = (token: string, body: unknown, extra: Record<string, string> = {}) =>
  im.call<{ data: { accepted: number } }>("POST", "sdk/reports", { headers: headersFor(token, extra), body });
const event = (n: number, eventId = 9675) => ({ eventId, body: { operationName: "SEND_MSG", n } });

describe("posting reports", () => {
  it("stores each event of a batch; the admin lists them newest first, by page and filter", async () => {
    const alice = await im.user("rep");
    const bob = await im.user("rep");
    const sent = await post(alice.token, [{ eventId: 9674, body: { os: 7, did: "node" } }, event(1), event(2)], {
      debug: "true",
    });
    expect(sent.status).toBe(200);
    expect(sent.body.data).toEqual({ accepted: 3 });
    expect((await post(bob.token, [event(3)])).status).toBe(200);

    const mine = await im.call<ReportList>("GET", `sdk/reports?username=${alice.name}&limit=2`, { token: im.appToken });
    expect(mine.status).toBe(200);
    expect(mine.body.entities.map((r) => r.body.n)).toEqual([2, 1]);
    expect(mine.body.entities[0]).toMatchObject({
      username: alice.name,
      appId: appKey,
      biz: "im",
      debug: true,
      eventId: 9675,
      sentAt: 1_740_823_200_000,
    });
    expect(mine.body.entities[0]!.receivedAt).toBe(im.t.clock.now().getTime());
    expect(mine.body.cursor).not.toBe("");
    const rest = await im.call<ReportList>(
      "GET",
      `sdk/reports?username=${alice.name}&limit=2&cursor=${mine.body.cursor}`,
      { token: im.appToken },
    );
    expect(rest.body.entities).toEqual([expect.objectContaining({ eventId: 9674, body: { os: 7, did: "node" } })]);
    expect(rest.body.cursor).toBe("");

    const inits = await im.call<ReportList>("GET", "sdk/reports?eventId=9674&limit=100", { token: im.appToken });
    expect(inits.body.entities.every((r) => r.eventId === 9674)).toBe(true);
    expect(inits.body.entities.map((r) => r.username)).toContain(alice.name);
    const bobs = await im.call<ReportList>("GET", `sdk/reports?username=${bob.name}`, { token: im.appToken });
    expect(bobs.body.entities).toEqual([
      expect.objectContaining({ username: bob.name, debug: false, body: { operationName: "SEND_MSG", n: 3 } }),
    ]);
  });

  it("needs a valid user token in the token header", async () => {
    const u = await im.user("rep");
    const noToken = await im.call("POST", "sdk/reports", {
      headers: { appid: appKey, sendts: "1", biz: "im" },
      body: [event(1)],
    });
    expect(noToken.status).toBe(401);
    const bearerOnly = await im.call("POST", "sdk/reports", {
      token: u.token,
      headers: { appid: appKey, sendts: "1", biz: "im" },
      body: [event(1)],
    });
    expect(bearerOnly.status).toBe(401);
    expect((await post("not-a-token", [event(1)])).status).toBe(401);
    const asApp = await post(im.appToken, [event(1)]);
    expect(asApp.status).toBe(403);
    const listed = await im.call<ReportList>("GET", `sdk/reports?username=${u.name}`, { token: im.appToken });
    expect(listed.body.entities).toEqual([]);
  });

  it("refuses a bad batch with a 400 naming the problem, storing nothing", async () => {
    const u = await im.user("rep");
    const cases: [unknown, Record<string, string>, string][] = [
      [[event(1)], { appid: "other#app" }, "appid"],
      [[event(1)], { biz: "" }, "biz"],
      [[event(1)], { biz: "has space" }, "biz"],
      [[event(1)], { sendts: "soon" }, "sendts"],
      [[event(1)], { debug: "maybe" }, "debug"],
      [{ eventId: 1, body: {} }, {}, "events"],
      [[], {}, "events"],
      [Array.from({ length: 101 }, (_, i) => event(i)), {}, "events"],
      [[event(1), { eventId: 1.5, body: {} }], {}, "events[1].eventId"],
      [[{ eventId: 9675, body: "text" }], {}, "events[0].body"],
      [[{ body: {} }], {}, "events[0].eventId"],
      [["event"], {}, "events[0]"],
      [[{ eventId: 9675, body: { blob: "x".repeat(9000) } }], {}, "events[0].body"],
    ];
    for (const [body, extra, field] of cases) {
      const r = await post(u.token, body, extra);
      expect(r.status, field).toBe(400);
      expect(r.body.error_description).toBe(`Invalid parameter: ${field}`);
    }
    const listed = await im.call<ReportList>("GET", `sdk/reports?username=${u.name}`, { token: im.appToken });
    expect(listed.body.entities).toEqual([]);
  });

  it("the list is the app admin's only, with a valid page size and cursor", async () => {
    const u = await im.user("rep");
    expect((await im.call("GET", "sdk/reports", { token: u.token })).status).toBe(403);
    expect((await im.call("GET", "sdk/reports")).status).toBe(401);
    expect((await im.call("GET", "sdk/reports?limit=0", { token: im.appToken })).status).toBe(400);
    expect((await im.call("GET", "sdk/reports?cursor=%21%21", { token: im.appToken })).status).toBe(400);
    expect((await im.call("GET", "sdk/reports?eventId=x", { token: im.appToken })).status).toBe(400);
  });

  it("answers the browser's preflight for the report headers", async () => {
    const r = await im.call("OPTIONS" as "GET", "sdk/reports", {
      headers: {
        origin: "http://app.test",
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type,token,appid,sendts,biz,debug",
      },
    });
    expect(r.status).toBe(204);
    expect(r.headers["access-control-allow-headers"]).toBe("content-type,token,appid,sendts,biz,debug");
    expect(r.headers["access-control-allow-origin"]).toBe("*");
  });
});
