import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { multipart, startImTest, type ImTest } from "../../../test/im-harness";

let im: ImTest;
beforeAll(async () => {
  im = await startImTest({ IM_MAX_ROOM_USERS: "100", IM_MAX_ROOM_ATTRIBUTES: "3" });
});
afterAll(async () => {
  await im.close();
});

type User = { name: string; token: string };
type Data<T> = { data: T };

async function users(n: number): Promise<User[]> {
  const out: User[] = [];
  for (let i = 0; i < n; i++) out.push(await im.user("r"));
  return out;
}

async function createRoom(owner: User, fields: Record<string, unknown> = {}): Promise<string> {
  const res = await im.call<Data<{ id: string }>>("POST", "chatrooms?resource=web", {
    token: owner.token,
    body: { name: "Lobby", description: "welcome", maxusers: 20, owner: owner.name, members: [], ...fields },
  });
  expect(res.status).toBe(200);
  return res.body.data.id;
}

/** Joining is a socket operation (issue 9's gateway); here through the service the gateway calls. */
const join = (u: User, id: string) => im.t.app.im.services.rooms.join({ kind: "user", username: u.name }, id);
const leave = (u: User, id: string) => im.t.app.im.services.rooms.leave({ kind: "user", username: u.name }, id);

function expectError(res: { status: number; body: { error_description?: string } }, status: number, text: string) {
  expect(res.status).toBe(status);
  expect(res.body.error_description).toContain(text);
}

describe("chat rooms", () => {
  it("creates, lists, shows, modifies and destroys (owner only)", async () => {
    const [owner, m1] = await users(2);
    const id = await createRoom(owner!, { members: [m1!.name] });
    const list = await im.call<Data<Record<string, unknown>[]>>("GET", "chatrooms?pagenum=1&pagesize=100", {
      token: m1!.token,
    });
    expect(list.body.data).toContainEqual({ id, name: "Lobby", owner: owner!.name, affiliations_count: 2 });
    const detail = await im.call<Data<Record<string, unknown>[]>>("GET", `chatrooms/${id}`, { token: m1!.token });
    expect(detail.body.data[0]).toMatchObject({
      id,
      name: "Lobby",
      description: "welcome",
      maxusers: 20,
      owner: owner!.name,
      affiliations_count: 2,
      mute: false,
    });
    expectError(
      await im.call("PUT", `chatrooms/${id}`, { token: m1!.token, body: { groupname: "Mine" } }),
      403,
      "permission denied",
    );
    const mod = await im.call<Data<Record<string, boolean>>>("PUT", `chatrooms/${id}?resource=web`, {
      token: owner!.token,
      body: { groupname: "Hall", description: "d", maxusers: 30 },
    });
    expect(mod.body.data).toEqual({ groupname: true, description: true, maxusers: true });
    expectError(
      await im.call("PUT", `chatrooms/${id}`, { token: owner!.token, body: { maxusers: 101 } }),
      403,
      "exceeds the maximum limit",
    );
    expectError(await im.call("DELETE", `chatrooms/${id}`, { token: m1!.token }), 403, "permission denied");
    expect(
      (
        await im.call<Data<{ success: boolean }>>("DELETE", `chatrooms/${id}?resource=web&version=v3`, {
          token: owner!.token,
        })
      ).body.data.success,
    ).toBe(true);
    expectError(await im.call("GET", `chatrooms/${id}`, { token: owner!.token }), 404, "does not exist");
    expectError(
      await im.call("POST", "chatrooms", { token: owner!.token, body: { description: "no name" } }),
      400,
      "Invalid parameter: name",
    );
  });

  it("adds and removes users (owner or admin); a removed user reading the room gets 'not members'", async () => {
    const [owner, m1, m2, m3] = await users(4);
    const id = await createRoom(owner!);
    expectError(
      await im.call("POST", `chatrooms/${id}/users`, { token: m1!.token, body: { usernames: [m2!.name] } }),
      403,
      "are not members",
    );
    const add = await im.call<Data<{ newmembers: string[]; action: string; id: string }>>(
      "POST",
      `chatrooms/${id}/users?resource=r`,
      { token: owner!.token, body: { usernames: [m1!.name, m2!.name, m3!.name] } },
    );
    expect(add.body.data).toEqual({ newmembers: [m1!.name, m2!.name, m3!.name], action: "add_member", id });
    const members = await im.call<Data<Record<string, string>[]>>(
      "GET",
      `chatrooms/${id}/users?version=v3&pagenum=1&pagesize=10`,
      { token: m1!.token },
    );
    expect(members.body.data).toHaveLength(4);
    expectError(
      await im.call("DELETE", `chatrooms/${id}/users/${m2!.name}`, { token: m1!.token }),
      403,
      "permission denied",
    );
    const rm = await im.call<Data<Record<string, unknown>>>("DELETE", `chatrooms/${id}/users/${m2!.name}`, {
      token: owner!.token,
    });
    expect(rm.body.data).toEqual({ result: true, action: "remove_member", user: m2!.name, id });
    expectError(
      await im.call("GET", `chatrooms/${id}/users?version=v3&pagenum=1&pagesize=10`, { token: m2!.token }),
      403,
      "are not members of this group",
    );
    expectError(
      await im.call("GET", `chatrooms/${id}/announcement`, { token: m2!.token }),
      403,
      "are not members of this group",
    );
    const many = await im.call<Data<Record<string, unknown>[]>>(
      "DELETE",
      `chatrooms/${id}/users/${m1!.name},${m3!.name}`,
      { token: owner!.token },
    );
    expect(many.body.data).toHaveLength(2);
  });

  it("joins and leaves through the gateway's calls: blocked users and full rooms are refused", async () => {
    const [owner, a, b, c] = await users(4);
    const id = await createRoom(owner!, { maxusers: 3 });
    const info = await join(a!, id);
    expect(info).toMatchObject({ memberCount: 2, muteExpire: -1, allowlisted: false, muted: false });
    const joined = await im.call<Data<Record<string, unknown>[]>>(
      "GET",
      `users/${a!.name}/joined_chatrooms?pagenum=1&pagesize=10&detail=true`,
      { token: a!.token },
    );
    expect(joined.body.data).toEqual([
      expect.objectContaining({
        id,
        title: "Lobby",
        owner: `${im.t.config.im.org}#${im.t.config.im.app}_${owner!.name}`,
        max_users: 3,
      }),
    ]);
    await join(b!, id);
    await expect(join(c!, id)).rejects.toMatchObject({ status: 403, description: "group member list is full!" });
    await leave(b!, id);
    await im.call("POST", `chatrooms/${id}/blocks/users/${c!.name}?version=v3`, { token: owner!.token });
    await expect(join(c!, id)).rejects.toMatchObject({ status: 403 });
    await im.call("DELETE", `chatrooms/${id}/blocks/users/${c!.name}`, { token: owner!.token });
    await expect(join(c!, id)).resolves.toMatchObject({ memberCount: 3 });
  });

  it("admins, mutes (on the app clock), blocks, ban and allowlist", async () => {
    const [owner, admin, m1, m2] = await users(4);
    const id = await createRoom(owner!, { members: [admin!.name, m1!.name, m2!.name] });
    const set = await im.call<Data<{ result: boolean; newadmin: string }>>("POST", `chatrooms/${id}/admin?version=v3`, {
      token: owner!.token,
      body: { newadmin: admin!.name },
    });
    expect(set.body.data).toEqual({ result: true, newadmin: admin!.name });
    expect(
      (await im.call<Data<string[]>>("GET", `chatrooms/${id}/admin?version=v3`, { token: m1!.token })).body.data,
    ).toEqual([admin!.name]);
    expectError(
      await im.call("POST", `chatrooms/${id}/mute`, {
        token: m1!.token,
        body: { usernames: [m2!.name], mute_duration: 1000 },
      }),
      403,
      "permission denied",
    );
    const now = im.t.clock.now().getTime();
    const mute = await im.call<Data<Record<string, unknown>[]>>("POST", `chatrooms/${id}/mute?resource=r`, {
      token: admin!.token,
      body: { usernames: [m1!.name], mute_duration: 5000 },
    });
    expect(mute.body.data).toEqual([{ result: true, expire: now + 5000, user: m1!.name }]);
    expect(
      (await im.call<Data<boolean>>("GET", `sdk/chatrooms/${id}/mute/${m1!.name}?version=v3`, { token: m1!.token }))
        .body.data,
    ).toBe(true);
    expectError(
      await im.call("POST", "messages/chatrooms", {
        token: m1!.token,
        body: { to: [id], type: "txt", body: { msg: "hi" } },
      }),
      403,
      "muted",
    );
    im.t.clock.advance(6);
    expect(
      (await im.call<Data<boolean>>("GET", `sdk/chatrooms/${id}/mute/${m1!.name}`, { token: m1!.token })).body.data,
    ).toBe(false);
    expect(
      (await im.call<Data<unknown[]>>("GET", `chatrooms/${id}/mute?version=v3`, { token: admin!.token })).body.data,
    ).toEqual([]);

    expect(
      (await im.call<Data<{ mute: boolean }>>("POST", `chatrooms/${id}/ban?version=v3`, { token: admin!.token })).body
        .data,
    ).toEqual({ mute: true });
    expectError(
      await im.call("POST", "messages/chatrooms", {
        token: m2!.token,
        body: { to: [id], type: "txt", body: { msg: "hi" } },
      }),
      403,
      "banned",
    );
    const allow = await im.call<Data<Record<string, unknown>[]>>("POST", `chatrooms/${id}/white/users?version=v3`, {
      token: admin!.token,
      body: { usernames: [m2!.name] },
    });
    expect(allow.body.data).toEqual([{ result: true, action: "add_user_whitelist", user: m2!.name, id }]);
    expect(
      (
        await im.call("POST", "messages/chatrooms", {
          token: m2!.token,
          body: { to: [id], type: "txt", body: { msg: "hi" } },
        })
      ).status,
    ).toBe(200);
    expect(
      (await im.call<Data<{ white: boolean }>>("GET", `chatrooms/${id}/white/users/${m2!.name}`, { token: m2!.token }))
        .body.data.white,
    ).toBe(true);
    await im.call("DELETE", `chatrooms/${id}/ban`, { token: admin!.token });

    const blocks = await im.call<Data<Record<string, unknown>[]>>("POST", `chatrooms/${id}/blocks/users?version=v3`, {
      token: admin!.token,
      body: { usernames: [m1!.name] },
    });
    expect(blocks.body.data).toEqual([{ result: true, action: "add_blocks", user: m1!.name, id }]);
    expect(
      (await im.call<Data<string[]>>("GET", `chatrooms/${id}/blocks/users`, { token: admin!.token })).body.data,
    ).toEqual([m1!.name]);
    expectError(await im.call("GET", `chatrooms/${id}/users`, { token: m1!.token }), 403, "are not members");
    expectError(
      await im.call("POST", `chatrooms/${id}/blocks/users/${admin!.name}`, { token: admin!.token }),
      403,
      "permission denied",
    );
    const rmAdmin = await im.call<Data<{ oldadmin: string }>>("DELETE", `chatrooms/${id}/admin/${admin!.name}`, {
      token: owner!.token,
    });
    expect(rmAdmin.body.data).toEqual({ result: true, oldadmin: admin!.name });
  });

  it("announcement and shared files", async () => {
    const [owner, m1] = await users(2);
    const id = await createRoom(owner!, { members: [m1!.name] });
    await im.call("POST", `chatrooms/${id}/announcement?version=v3`, {
      token: owner!.token,
      body: { announcement: "Quiet please" },
    });
    expect(
      (await im.call<Data<{ announcement: string }>>("GET", `chatrooms/${id}/announcement`, { token: m1!.token })).body
        .data.announcement,
    ).toBe("Quiet please");
    const body = multipart({ filename: "rules.md", contentType: "text/markdown", data: Buffer.from("# rules") });
    const up = await im.call<Data<{ file_id: string; id: string }>>("POST", `chatrooms/${id}/share_files?resource=r`, {
      token: m1!.token,
      payload: body.payload,
      headers: body.headers,
    });
    expect(up.body.data).toMatchObject({ id, file_name: "rules.md" });
    const list = await im.call<Data<{ file_id: string }[]>>("GET", `chatrooms/${id}/share_files`, {
      token: owner!.token,
    });
    expect(list.body.data.map((f) => f.file_id)).toEqual([up.body.data.file_id]);
    const del = await im.call<Data<{ id: string; file_id: string; result: boolean }>>(
      "DELETE",
      `chatrooms/${id}/share_files/${up.body.data.file_id}`,
      { token: owner!.token },
    );
    expect(del.body.data).toEqual({ id, file_id: up.body.data.file_id, result: true });
  });

  it("attributes: set, read, others' keys need forced (admins), limits, and auto-delete when the setter leaves", async () => {
    const [owner, m1, m2] = await users(3);
    const id = await createRoom(owner!, { members: [m1!.name, m2!.name] });
    const set = await im.call<Data<{ successKeys: string[]; errorKeys: Record<string, string> }>>(
      "PUT",
      `metadata/chatroom/${id}/user/${m1!.name}`,
      {
        token: m1!.token,
        body: { metaData: { topic: "cats", "bad key!": "x" }, autoDelete: "DELETE" },
      },
    );
    expect(set.body.data).toEqual({ successKeys: ["topic"], errorKeys: { "bad key!": "bad key! is not Legal" } });
    await im.call("PUT", `metadata/chatroom/${id}/user/${m2!.name}`, {
      token: m2!.token,
      body: { metaData: { mood: "happy" }, autoDelete: "NO_DELETE" },
    });
    const theirs = await im.call<Data<{ successKeys: string[]; errorKeys: Record<string, string> }>>(
      "PUT",
      `metadata/chatroom/${id}/user/${m2!.name}`,
      {
        token: m2!.token,
        body: { metaData: { topic: "dogs" }, autoDelete: "DELETE" },
      },
    );
    expect(theirs.body.data.errorKeys).toEqual({ topic: "topic is not part of you" });
    expectError(
      await im.call("PUT", `metadata/chatroom/${id}/user/${m2!.name}/forced`, {
        token: m2!.token,
        body: { metaData: { topic: "dogs" } },
      }),
      403,
      "permission denied",
    );
    const forced = await im.call<Data<{ successKeys: string[] }>>(
      "PUT",
      `metadata/chatroom/${id}/user/${owner!.name}/forced`,
      { token: owner!.token, body: { metaData: { topic: "birds" }, autoDelete: "NO_DELETE" } },
    );
    expect(forced.body.data.successKeys).toEqual(["topic"]);
    const over = await im.call<Data<{ errorKeys: Record<string, string> }>>(
      "PUT",
      `metadata/chatroom/${id}/user/${m1!.name}`,
      { token: m1!.token, body: { metaData: { a: "1", b: "2" } } },
    );
    expect(Object.values(over.body.data.errorKeys)).toEqual([
      "the number of attributes of this chatroom is exceeding maximum limit",
    ]);
    const all = await im.call<Data<Record<string, string>>>("POST", `metadata/chatroom/${id}`, {
      token: m2!.token,
      body: {},
    });
    expect(all.body.data).toEqual({ topic: "birds", mood: "happy", a: "1" });
    const some = await im.call<Data<Record<string, string>>>("POST", `metadata/chatroom/${id}`, {
      token: m2!.token,
      body: { keys: ["mood"] },
    });
    expect(some.body.data).toEqual({ mood: "happy" });
    const del = await im.call<Data<{ successKeys: string[]; errorKeys: Record<string, string> }>>(
      "DELETE",
      `metadata/chatroom/${id}/user/${m2!.name}`,
      { token: m2!.token, body: { keys: ["mood", "a"] } },
    );
    expect(del.body.data).toEqual({ successKeys: ["mood"], errorKeys: { a: "a is not part of you" } });
    await leave(m1!, id);
    expect(
      (await im.call<Data<Record<string, string>>>("POST", `metadata/chatroom/${id}`, { token: m2!.token, body: {} }))
        .body.data,
    ).toEqual({ topic: "birds" });
  });
});
