import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startImTest, type ImTest } from "../../../test/im-harness";
import { pendingQueues, readQueue, userQueue } from "../store/inbox";

let im: ImTest;
beforeAll(async () => {
  im = await startImTest();
});
afterAll(async () => {
  await im.close();
});

type Data<T> = { data: T };

describe("contacts", () => {
  it("request, accept (both sides become contacts), remark, list with remarks and by cursor, delete", async () => {
    const a = await im.user("c");
    const b = await im.user("c");
    const apply = await im.call("POST", `users/${a.name}/contacts/apply?resource=web`, {
      token: a.token,
      body: { usernames: [b.name], reason: "hi, it's A" },
    });
    expect(apply.status).toBe(200);
    // B's devices learn of the request from its sync queue, even while offline.
    const queues = await pendingQueues(im.t.ctx.database.db, b.name);
    expect(queues).toContainEqual({ queue: userQueue(a.name), n: 1 });
    const [entry] = await readQueue(im.t.ctx.database.db, b.name, userQueue(a.name), 0, 10);
    expect(entry?.notice).toMatchObject({ ns: "roster", op: "invite", from: a.name, to: b.name, reason: "hi, it's A" });

    expect(
      (await im.call<Data<string[]>>("GET", `users/${a.name}/contacts/users`, { token: a.token })).body.data,
    ).toEqual([]);
    const accept = await im.call("POST", `users/${b.name}/contacts/accept/users/${a.name}?resource=web`, {
      token: b.token,
    });
    expect(accept.status).toBe(200);
    expect(
      (await im.call<Data<string[]>>("GET", `users/${a.name}/contacts/users`, { token: a.token })).body.data,
    ).toEqual([b.name]);
    expect(
      (await im.call<Data<string[]>>("GET", `users/${b.name}/contacts/users`, { token: b.token })).body.data,
    ).toEqual([a.name]);

    expect(
      (
        await im.call("PUT", `users/${a.name}/contacts/users/${b.name}?resource=web`, {
          token: a.token,
          body: { remark: "Bee" },
        })
      ).status,
    ).toBe(200);
    const withRemarks = await im.call<{ entities: { username: string; remark: string }[] }>(
      "GET",
      `users/${a.name}/contacts/users?needReturnRemark=true`,
      { token: a.token },
    );
    expect(withRemarks.body.entities).toEqual([{ username: b.name, remark: "Bee" }]);
    const paged = await im.call<Data<{ contacts: { username: string; remark: string }[]; cursor: string }>>(
      "GET",
      `users/${a.name}/contacts?needReturnRemark=true&limit=10&cursor=`,
      { token: a.token },
    );
    expect(paged.body.data).toEqual({ contacts: [{ username: b.name, remark: "Bee" }], cursor: "" });

    expect(
      (await im.call("DELETE", `users/${b.name}/contacts/users/${a.name}?resource=web`, { token: b.token })).status,
    ).toBe(200);
    expect(
      (await im.call<Data<string[]>>("GET", `users/${a.name}/contacts/users`, { token: a.token })).body.data,
    ).toEqual([]);
    const notFriends = await im.call("PUT", `users/${a.name}/contacts/users/${b.name}`, {
      token: a.token,
      body: { remark: "x" },
    });
    expect(notFriends.status).toBe(400);
    expect(notFriends.body.error_description).toBe(
      "updateRemark | they are not friends, please add as a friend first.",
    );
  });

  it("declines, refuses answering requests that were never made, and pages contacts by cursor", async () => {
    const a = await im.user("d");
    const friends = [await im.user("d"), await im.user("d"), await im.user("d")];
    const stranger = await im.user("d");
    await im.call("POST", `users/${stranger.name}/contacts/apply`, {
      token: stranger.token,
      body: { usernames: [a.name], reason: "" },
    });
    expect(
      (await im.call("POST", `users/${a.name}/contacts/decline/users/${stranger.name}`, { token: a.token })).status,
    ).toBe(200);
    const again = await im.call("POST", `users/${a.name}/contacts/accept/users/${stranger.name}`, { token: a.token });
    expect(again.status).toBe(403);
    for (const f of friends) {
      await im.call("POST", `users/${a.name}/contacts/apply`, {
        token: a.token,
        body: { usernames: [f.name], reason: "" },
      });
      await im.call("POST", `users/${f.name}/contacts/accept/users/${a.name}`, { token: f.token });
    }
    const names: string[] = [];
    let cursor = "";
    do {
      const page = await im.call<Data<{ contacts: { username: string }[]; cursor: string }>>(
        "GET",
        `users/${a.name}/contacts?needReturnRemark=true&limit=2&cursor=${cursor}`,
        { token: a.token },
      );
      names.push(...page.body.data.contacts.map((c) => c.username));
      cursor = page.body.data.cursor;
    } while (cursor);
    expect(names).toEqual(friends.map((f) => f.name).sort());
  });

  it("two crossing requests make contacts at once; remarks are limited to 100 characters", async () => {
    const a = await im.user("x");
    const b = await im.user("x");
    await im.call("POST", `users/${a.name}/contacts/apply`, {
      token: a.token,
      body: { usernames: [b.name], reason: "" },
    });
    const crossing = await im.call<Data<Record<string, string>>>("POST", `users/${b.name}/contacts/apply`, {
      token: b.token,
      body: { usernames: [a.name], reason: "" },
    });
    expect(crossing.body.data).toEqual({ [a.name]: "accepted" });
    const long = await im.call("PUT", `users/${a.name}/contacts/users/${b.name}`, {
      token: a.token,
      body: { remark: "r".repeat(101) },
    });
    expect(long.status).toBe(400);
    expect(long.body.error_description).toContain("remark length must less");
    expect(
      (
        await im.call("POST", `users/${a.name}/contacts/apply`, {
          token: a.token,
          body: { usernames: ["no_such_user_1"], reason: "" },
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await im.call("POST", `users/${a.name}/contacts/apply`, {
          token: a.token,
          body: { usernames: [""], reason: "" },
        })
      ).status,
    ).toBe(400);
  });

  it("block list: add (string or array), list, remove; a blocked user can neither request nor message", async () => {
    const a = await im.user("b");
    const b = await im.user("b");
    const c = await im.user("b");
    const add = await im.call<Data<string[]>>("POST", `sdk/user/${a.name}/blocks?resource=web`, {
      token: a.token,
      body: { usernames: [b.name, c.name] },
    });
    expect(add.body.data).toEqual([b.name, c.name]);
    expect(
      (await im.call<Data<string[]>>("GET", `users/${a.name}/blocks/users`, { token: a.token })).body.data.sort(),
    ).toEqual([b.name, c.name].sort());
    const req = await im.call("POST", `users/${b.name}/contacts/apply`, {
      token: b.token,
      body: { usernames: [a.name], reason: "" },
    });
    expect(req.status).toBe(403);
    const msg = await im.call("POST", "messages/users", {
      token: b.token,
      body: { to: [a.name], type: "txt", body: { msg: "hello?" } },
    });
    expect(msg.status).toBe(403);
    expect(
      (
        await im.call("DELETE", `sdk/user/${a.name}/blocks?resource=web`, {
          token: a.token,
          body: { usernames: [b.name] },
        })
      ).status,
    ).toBe(200);
    expect(
      (await im.call<Data<string[]>>("GET", `users/${a.name}/blocks/users`, { token: a.token })).body.data,
    ).toEqual([c.name]);
    expect(
      (
        await im.call("POST", "messages/users", {
          token: b.token,
          body: { to: [a.name], type: "txt", body: { msg: "hello!" } },
        })
      ).status,
    ).toBe(200);
    expect(
      (await im.call("POST", `sdk/user/${a.name}/blocks`, { token: a.token, body: { usernames: [] } })).status,
    ).toBe(400);
  });
});

describe("presence", () => {
  it("publishes per device, subscribes with expiry on the app clock, lists, reads status, unsubscribes", async () => {
    const a = await im.user("p");
    const b = await im.user("p");
    const pub = await im.call("POST", `users/${b.name}/presence/web_1/1`, {
      token: b.token,
      body: { ext: "in a meeting" },
    });
    expect(pub.status).toBe(200);
    const nowSec = Math.floor(im.t.clock.now().getTime() / 1000);
    const sub = await im.call<{ result: Record<string, unknown>[] }>("POST", `users/${a.name}/presence/3600`, {
      token: a.token,
      body: { usernames: [b.name] },
    });
    expect(sub.status).toBe(200);
    expect(sub.body.result).toEqual([
      { uid: b.name, last_time: nowSec, expiry: nowSec + 3600, ext: "in a meeting", status: { web_1: "1" } },
    ]);
    const list = await im.call<{ result: { sublist: { uid: string; expiry: number }[]; totalnum: number } }>(
      "GET",
      `users/${a.name}/presence/sublist?pageNum=1&pageSize=20`,
      { token: a.token },
    );
    expect(list.body.result).toEqual({ sublist: [{ uid: b.name, expiry: nowSec + 3600 }], totalnum: 1 });
    const status = await im.call<{ result: { uid: string; ext: string }[] }>("POST", `users/${a.name}/presence`, {
      token: a.token,
      body: { usernames: [b.name, a.name] },
    });
    expect(status.body.result.map((r) => [r.uid, r.ext])).toEqual([
      [b.name, "in a meeting"],
      [a.name, ""],
    ]);
    im.t.clock.advance(3601);
    const aToken = await im.login(a.name);
    const expired = await im.call<{ result: { totalnum: number } }>(
      "GET",
      `users/${a.name}/presence/sublist?pageNum=1&pageSize=20`,
      { token: aToken },
    );
    expect(expired.body.result.totalnum).toBe(0);
    await im.call("POST", `users/${a.name}/presence/600`, { token: aToken, body: { usernames: [b.name] } });
    const un = await im.call("DELETE", `users/${a.name}/presence`, { token: aToken, body: [b.name] });
    expect(un.status).toBe(200);
    expect(
      (
        await im.call<{ result: { totalnum: number } }>(
          "GET",
          `users/${a.name}/presence/sublist?pageNum=1&pageSize=20`,
          { token: aToken },
        )
      ).body.result.totalnum,
    ).toBe(0);
  });

  it("refuses a description over 64 characters ('ext is too big ') and bad expiries", async () => {
    const a = await im.user("q");
    const big = await im.call("POST", `users/${a.name}/presence/web/1`, {
      token: a.token,
      body: { ext: "x".repeat(65) },
    });
    expect(big.status).toBe(400);
    expect(big.body.error_description).toBe("ext is too big ");
    expect(
      (await im.call("POST", `users/${a.name}/presence/0`, { token: a.token, body: { usernames: [a.name] } })).status,
    ).toBe(400);
    expect(
      (await im.call("POST", `users/${a.name}/presence/3600`, { token: a.token, body: { usernames: [] } })).status,
    ).toBe(400);
  });
});

describe("silent mode and push language", () => {
  it("sets and reads the all-conversations setting, per conversation, in batch, and clears with DEFAULT", async () => {
    const a = await im.user("s");
    const b = await im.user("s");
    const all = await im.call<Data<Record<string, unknown>>>(
      "PUT",
      `users/${a.name}/notification/user/${a.name}?resource=web`,
      { token: a.token, body: { type: "AT" } },
    );
    expect(all.body.data).toEqual({ type: "AT" });
    const now = im.t.clock.now().getTime();
    await im.call("PUT", `users/${a.name}/notification/user/${a.name}`, {
      token: a.token,
      body: { ignoreDuration: 3_600_000 },
    });
    await im.call("PUT", `users/${a.name}/notification/user/${a.name}`, {
      token: a.token,
      body: { ignoreInterval: "21:30-7:0" },
    });
    expect(
      (
        await im.call<Data<Record<string, unknown>>>("GET", `users/${a.name}/notification/user/${a.name}`, {
          token: a.token,
        })
      ).body.data,
    ).toEqual({
      type: "AT",
      ignoreDuration: now + 3_600_000,
      ignoreInterval: "21:30-7:0",
    });
    await im.call("PUT", `users/${a.name}/notification/user/${b.name}`, { token: a.token, body: { type: "NONE" } });
    await im.call("PUT", `users/${a.name}/notification/chatgroup/200000000000999`, {
      token: a.token,
      body: { type: "ALL" },
    });
    const batch = await im.call<Data<Record<string, Record<string, unknown>>>>(
      "GET",
      `users/${a.name}/notification?user=${b.name}&group=200000000000999`,
      { token: a.token },
    );
    expect(batch.body.data).toEqual({
      user: { [b.name]: { type: "NONE" } },
      group: { "200000000000999": { type: "ALL" } },
    });
    const types = await im.call<Data<Record<string, string>[]> & { cursor: string }>(
      "GET",
      `users/${a.name}/notification/mute/type?limit=10`,
      { token: a.token },
    );
    expect(types.body.data).toEqual([
      { user: b.name, value: "NONE" },
      { group: "200000000000999", value: "ALL" },
    ]);
    await im.call("PUT", `users/${a.name}/notification/user/${b.name}`, { token: a.token, body: { type: "DEFAULT" } });
    expect(
      (await im.call<Data<unknown>>("GET", `users/${a.name}/notification/user/${b.name}`, { token: a.token })).body
        .data,
    ).toEqual({});
    im.t.clock.advance(3601);
    const aToken = await im.login(a.name);
    expect(
      (
        await im.call<Data<Record<string, unknown>>>("GET", `users/${a.name}/notification/user/${a.name}`, {
          token: aToken,
        })
      ).body.data,
    ).toEqual({ type: "AT", ignoreInterval: "21:30-7:0" });
    expect(
      (await im.call("PUT", `users/${a.name}/notification/user/${a.name}`, { token: aToken, body: { type: "LOUD" } }))
        .status,
    ).toBe(400);
    expect(
      (
        await im.call("PUT", `users/${a.name}/notification/user/${a.name}`, {
          token: aToken,
          body: { ignoreInterval: "25:00-1:00" },
        })
      ).status,
    ).toBe(400);
  });

  it("sets and reads the push translation language", async () => {
    const a = await im.user("l");
    const set = await im.call<Data<{ language: string }>>("PUT", `users/${a.name}/notification/language`, {
      token: a.token,
      body: { translationLanguage: "de" },
    });
    expect(set.body.data).toEqual({ language: "de" });
    expect(
      (await im.call<Data<{ language: string }>>("GET", `users/${a.name}/notification/language`, { token: a.token }))
        .body.data,
    ).toEqual({ language: "de" });
    expect(
      (
        await im.call("PUT", `users/${a.name}/notification/language`, {
          token: a.token,
          body: { translationLanguage: "" },
        })
      ).status,
    ).toBe(400);
  });
});
