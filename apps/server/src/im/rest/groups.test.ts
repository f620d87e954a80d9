import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { multipart, startImTest, type ImTest } from "../../../test/im-harness";
import { recordReadAck } from "../store/mucs";

let im: ImTest;
beforeAll(async () => {
  im = await startImTest({ IM_MAX_ADMINS: "2", IM_MAX_GROUP_USERS: "50", IM_MAX_MEMBER_ATTRIBUTES_BYTES: "64" });
});
afterAll(async () => {
  await im.close();
});

type User = { name: string; token: string };
type Data<T> = { data: T };

async function createGroup(owner: User, fields: Record<string, unknown> = {}): Promise<string> {
  const res = await im.call<Data<{ groupid: string }>>("POST", "chatgroups?resource=web1", {
    token: owner.token,
    body: {
      owner: owner.name,
      groupname: "Team",
      desc: "the team",
      members: [],
      public: true,
      approval: false,
      allowinvites: false,
      invite_need_confirm: false,
      maxusers: 10,
      custom: "c1",
      ...fields,
    },
  });
  expect(res.status).toBe(200);
  return res.body.data.groupid;
}

async function users(n: number, prefix = "g"): Promise<User[]> {
  const out: User[] = [];
  for (let i = 0; i < n; i++) out.push(await im.user(prefix));
  return out;
}

function expectError(
  res: { status: number; body: { error_description?: string; error_code?: number } },
  status: number,
  text: string | RegExp,
) {
  expect(res.status).toBe(status);
  if (typeof text === "string") expect(res.body.error_description).toContain(text);
  else expect(res.body.error_description).toMatch(text);
}

describe("create, details, modify, owner, dissolve", () => {
  it("creates a group with every field and shows its details to members", async () => {
    const [owner, m1, m2] = await users(3);
    const id = await createGroup(owner!, {
      members: [m1!.name, m2!.name],
      approval: true,
      allowinvites: true,
      avatar: "https://x/a.png",
    });
    expect(id).toMatch(/^\d{15}$/);
    const res = await im.call<Data<Record<string, unknown>[]>>("GET", `chatgroups/${id}?joined_time=true`, {
      token: m1!.token,
    });
    expect(res.status).toBe(200);
    const d = res.body.data[0]!;
    expect(d).toMatchObject({
      id,
      name: "Team",
      description: "the team",
      membersonly: true,
      allowinvites: true,
      maxusers: 10,
      owner: owner!.name,
      custom: "c1",
      avatar: "https://x/a.png",
      public: true,
      mute: false,
      affiliations_count: 3,
      permission: "member",
    });
    expect((d.affiliations as Record<string, unknown>[])[0]).toMatchObject({ owner: owner!.name });
    expect(d.affiliations).toHaveLength(3);
  });

  it("refuses more members than maxusers, and maxusers above the configured limit", async () => {
    const [owner, a, b] = await users(3);
    expectError(
      await im.call("POST", "chatgroups", {
        token: owner!.token,
        body: { groupname: "x", members: [a!.name, b!.name], maxusers: 2 },
      }),
      403,
      "members size is greater than max user size !",
    );
    const big = await im.call("POST", "chatgroups", { token: owner!.token, body: { groupname: "x", maxusers: 51 } });
    expect(big.status).toBe(403);
    expect(big.body.error_code).toBe(91002);
    expectError(
      await im.call("POST", "chatgroups", {
        token: owner!.token,
        body: { groupname: "x", members: ["nobody_at_all"] },
      }),
      404,
      "user not found",
    );
  });

  it("a private group's details are for members only; a missing group is 'do not find this group'", async () => {
    const [owner, outsider] = await users(2);
    const id = await createGroup(owner!, { public: false });
    expectError(
      await im.call("GET", `chatgroups/${id}`, { token: outsider!.token }),
      403,
      "are not members of this group",
    );
    expectError(
      await im.call("GET", "chatgroups/999999999999999", { token: owner!.token }),
      404,
      "do not find this group",
    );
  });

  it("owner and admins modify; members get 'permission denied'; outsiders 'not members'", async () => {
    const [owner, admin, member, outsider] = await users(4);
    const id = await createGroup(owner!, { members: [admin!.name, member!.name] });
    expect(
      (await im.call("POST", `chatgroups/${id}/admin`, { token: owner!.token, body: { newadmin: admin!.name } }))
        .status,
    ).toBe(200);
    const mod = await im.call<Data<Record<string, boolean>>>("PUT", `chatgroups/${id}`, {
      token: admin!.token,
      body: { groupname: "Renamed", description: "d2", custom: "c2" },
    });
    expect(mod.body.data).toEqual({ groupname: true, description: true, custom: true });
    expectError(
      await im.call("PUT", `chatgroups/${id}`, { token: member!.token, body: { groupname: "Nope" } }),
      403,
      "permission denied",
    );
    expectError(
      await im.call("PUT", `chatgroups/${id}`, { token: outsider!.token, body: { groupname: "Nope" } }),
      403,
      "are not members of this group",
    );
    const d = await im.call<Data<{ name: string }[]>>("GET", `chatgroups/${id}`, { token: member!.token });
    expect(d.body.data[0]?.name).toBe("Renamed");
  });

  it("changes the owner (owner only, to a member); the old owner becomes a member", async () => {
    const [owner, m1, outsider] = await users(3);
    const id = await createGroup(owner!, { members: [m1!.name] });
    expectError(
      await im.call("PUT", `chatgroups/${id}`, { token: m1!.token, body: { newowner: m1!.name } }),
      403,
      "permission denied",
    );
    expectError(
      await im.call("PUT", `chatgroups/${id}`, { token: owner!.token, body: { newowner: outsider!.name } }),
      403,
      "are not members",
    );
    const ok = await im.call<Data<{ newowner: boolean }>>("PUT", `chatgroups/${id}`, {
      token: owner!.token,
      body: { newowner: m1!.name },
    });
    expect(ok.body.data.newowner).toBe(true);
    const d = await im.call<Data<{ owner: string; permission: string }[]>>("GET", `chatgroups/${id}`, {
      token: owner!.token,
    });
    expect(d.body.data[0]).toMatchObject({ owner: m1!.name, permission: "member" });
  });

  it("only the owner dissolves; afterwards the group is gone", async () => {
    const [owner, m1] = await users(2);
    const id = await createGroup(owner!, { members: [m1!.name] });
    expectError(await im.call("DELETE", `chatgroups/${id}?version=v3`, { token: m1!.token }), 403, "permission denied");
    const ok = await im.call<Data<{ success: boolean }>>("DELETE", `chatgroups/${id}?version=v3&resource=r`, {
      token: owner!.token,
    });
    expect(ok.body.data.success).toBe(true);
    expectError(await im.call("GET", `chatgroups/${id}`, { token: owner!.token }), 404, "do not find this group");
  });
});

describe("lists", () => {
  it("public groups page with a cursor; private ones are not listed", async () => {
    const [owner] = await users(1);
    const ids = [await createGroup(owner!), await createGroup(owner!), await createGroup(owner!)];
    const hidden = await createGroup(owner!, { public: false });
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 50; i++) {
      const res = await im.call<Data<{ id: string; name: string }[]> & { cursor?: string }>(
        "GET",
        `publicchatgroups?version=v3&limit=2${cursor ? `&cursor=${cursor}` : ""}`,
        { token: owner!.token },
      );
      expect(res.status).toBe(200);
      expect(res.body.data.length).toBeLessThanOrEqual(2);
      seen.push(...res.body.data.map((g) => g.id));
      cursor = res.body.cursor;
      if (!cursor) break;
    }
    for (const id of ids) expect(seen).toContain(id);
    expect(seen).not.toContain(hidden);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it("joined groups: short list with uri, long list with role and counts, and the count", async () => {
    const [owner, m1] = await users(2);
    const a = await createGroup(owner!, { members: [m1!.name] });
    const b = await createGroup(m1!);
    const short = await im.call<Data<{ id: string; permission: string }[]> & { uri: string }>(
      "GET",
      `users/${m1!.name}/joined_chatgroups?pagenum=1&pagesize=20&version=v3`,
      { token: m1!.token },
    );
    expect(short.body.uri).toContain("joined_chatgroups");
    expect(short.body.data.map((g) => g.id).sort()).toEqual([a, b].sort());
    expect(short.body.data.find((g) => g.id === b)?.permission).toBe("owner");
    const long = await im.call<{ entities: Record<string, unknown>[]; uri: string }>(
      "GET",
      `chatgroups/user/${m1!.name}?pagenum=1&pagesize=20&needAffiliations=true&needRole=true&version=v3`,
      { token: m1!.token },
    );
    expect(long.body.uri).not.toContain("joined_chatgroups");
    expect(long.body.entities.find((g) => g.groupId === a)).toMatchObject({
      permission: "member",
      affiliations_count: 2,
      public: true,
      maxusers: 10,
    });
    const count = await im.call<Data<number>>("GET", `chatgroups/user/${m1!.name}/joined_count`, { token: m1!.token });
    expect(count.body.data).toBe(2);
    expect((await im.call("GET", `users/${owner!.name}/joined_chatgroups`, { token: m1!.token })).status).toBe(403);
  });

  it("members by page number and by cursor with join times", async () => {
    const [owner, ...rest] = await users(5);
    const id = await createGroup(owner!, { members: rest.map((u) => u.name) });
    const paged = await im.call<Data<Record<string, string>[]>>(
      "GET",
      `chatgroups/${id}/users?version=v3&pagenum=1&pagesize=3`,
      { token: rest[0]!.token },
    );
    expect(paged.body.data).toHaveLength(3);
    expect(paged.body.data[0]).toEqual({ owner: owner!.name });
    const all: string[] = [];
    let cursor: string | undefined;
    do {
      const res = await im.call<Data<Record<string, string | number>[]> & { cursor?: string }>(
        "GET",
        `chatgroups/${id}/users?limit=2&joined_time=true${cursor ? `&cursor=${cursor}` : "&cursor=undefined"}`,
        { token: owner!.token },
      );
      for (const m of res.body.data) {
        expect(typeof m.joined_time).toBe("number");
        all.push(String(m.owner ?? m.admin ?? m.member));
      }
      cursor = res.body.cursor;
    } while (cursor);
    expect(all.sort()).toEqual([owner!, ...rest].map((u) => u.name).sort());
  });
});

describe("admins and mutes", () => {
  it("owner sets and removes admins, within the configured limit", async () => {
    const [owner, a1, a2, a3] = await users(4);
    const id = await createGroup(owner!, { members: [a1!.name, a2!.name, a3!.name] });
    const set = await im.call<Data<{ result: string; newadmin: string }>>("POST", `chatgroups/${id}/admin?version=v3`, {
      token: owner!.token,
      body: { newadmin: a1!.name },
    });
    expect(set.body.data).toEqual({ result: "success", newadmin: a1!.name });
    expectError(
      await im.call("POST", `chatgroups/${id}/admin`, { token: a1!.token, body: { newadmin: a2!.name } }),
      403,
      "permission denied",
    );
    await im.call("POST", `chatgroups/${id}/admin`, { token: owner!.token, body: { newadmin: a2!.name } });
    const over = await im.call("POST", `chatgroups/${id}/admin`, { token: owner!.token, body: { newadmin: a3!.name } });
    expect(over.status).toBe(400);
    expect(over.body.error_code).toBe(60006);
    const list = await im.call<Data<string[]>>("GET", `chatgroups/${id}/admin?version=v3`, { token: a3!.token });
    expect(list.body.data.sort()).toEqual([a1!.name, a2!.name].sort());
    const rm = await im.call<Data<{ oldadmin: string }>>("DELETE", `chatgroups/${id}/admin/${a2!.name}?version=v3`, {
      token: owner!.token,
    });
    expect(rm.body.data.oldadmin).toBe(a2!.name);
  });

  it("a member trying to mute gets 403 permission denied; admin mutes end on the app clock", async () => {
    const [owner, admin, m1, m2] = await users(4);
    const id = await createGroup(owner!, { members: [admin!.name, m1!.name, m2!.name] });
    await im.call("POST", `chatgroups/${id}/admin`, { token: owner!.token, body: { newadmin: admin!.name } });
    expectError(
      await im.call("POST", `chatgroups/${id}/mute?version=v3`, {
        token: m1!.token,
        body: { usernames: [m2!.name], mute_duration: 60000 },
      }),
      403,
      "permission denied",
    );
    const now = im.t.clock.now().getTime();
    const mute = await im.call<Data<{ result: boolean; expire: number; user: string }[]>>(
      "POST",
      `chatgroups/${id}/mute?version=v3`,
      {
        token: admin!.token,
        body: { usernames: [m1!.name], mute_duration: 60000 },
      },
    );
    expect(mute.body.data).toEqual([{ result: true, expire: now + 60000, user: m1!.name }]);
    const list = await im.call<Data<{ user: string; expire: number }[]>>("GET", `chatgroups/${id}/mute?version=v3`, {
      token: m2!.token,
    });
    expect(list.body.data).toEqual([{ user: m1!.name, expire: now + 60000 }]);
    expect(
      (await im.call<Data<boolean>>("GET", `sdk/chatgroups/${id}/mute/${m1!.name}?version=v3`, { token: m1!.token }))
        .body.data,
    ).toBe(true);
    const blocked = await im.call("POST", "messages/chatgroups", {
      token: m1!.token,
      body: { to: [id], type: "txt", body: { msg: "hi" } },
    });
    expectError(blocked, 403, "muted");
    im.t.clock.advance(61);
    expect((await im.call<Data<unknown[]>>("GET", `chatgroups/${id}/mute`, { token: m2!.token })).body.data).toEqual(
      [],
    );
    expect(
      (await im.call<Data<boolean>>("GET", `sdk/chatgroups/${id}/mute/${m1!.name}`, { token: m1!.token })).body.data,
    ).toBe(false);
    expect(
      (
        await im.call("POST", "messages/chatgroups", {
          token: m1!.token,
          body: { to: [id], type: "txt", body: { msg: "hi" } },
        })
      ).status,
    ).toBe(200);
  });

  it("nobody mutes the owner; admins cannot mute admins; -1 mutes until unmuted", async () => {
    const [owner, a1, a2, m1] = await users(4);
    const id = await createGroup(owner!, { members: [a1!.name, a2!.name, m1!.name] });
    for (const a of [a1, a2]) {
      await im.call("POST", `chatgroups/${id}/admin`, { token: owner!.token, body: { newadmin: a!.name } });
    }
    expectError(
      await im.call("POST", `chatgroups/${id}/mute`, {
        token: a1!.token,
        body: { usernames: [owner!.name], mute_duration: 1000 },
      }),
      403,
      "permission denied",
    );
    expectError(
      await im.call("POST", `chatgroups/${id}/mute`, {
        token: a1!.token,
        body: { usernames: [a2!.name], mute_duration: 1000 },
      }),
      403,
      "permission denied",
    );
    expect(
      (
        await im.call("POST", `chatgroups/${id}/mute`, {
          token: owner!.token,
          body: { usernames: [a2!.name], mute_duration: 1000 },
        })
      ).status,
    ).toBe(200);
    await im.call("POST", `chatgroups/${id}/mute`, {
      token: a1!.token,
      body: { usernames: [m1!.name], mute_duration: -1 },
    });
    im.t.clock.advance(365 * 24 * 3600);
    m1!.token = await im.login(m1!.name);
    a1!.token = await im.login(a1!.name);
    owner!.token = await im.login(owner!.name);
    expect(
      (await im.call<Data<boolean>>("GET", `sdk/chatgroups/${id}/mute/${m1!.name}`, { token: m1!.token })).body.data,
    ).toBe(true);
    const un = await im.call<Data<{ result: boolean; user: string }[]>>(
      "DELETE",
      `chatgroups/${id}/mute/${m1!.name}?version=v3`,
      { token: a1!.token },
    );
    expect(un.body.data).toEqual([{ result: true, user: m1!.name }]);
    expect(
      (await im.call<Data<boolean>>("GET", `sdk/chatgroups/${id}/mute/${m1!.name}`, { token: m1!.token })).body.data,
    ).toBe(false);
    expectError(
      await im.call("POST", `chatgroups/${id}/mute`, {
        token: owner!.token,
        body: { usernames: [m1!.name], mute_duration: "soon" },
      }),
      400,
      "Invalid parameter: mute_duration",
    );
  });
});

describe("blocks, ban and allowlist", () => {
  it("blocked members are removed and cannot come back until unblocked", async () => {
    const [owner, m1, m2] = await users(3);
    const id = await createGroup(owner!, { members: [m1!.name, m2!.name] });
    const one = await im.call<Data<Record<string, unknown>[]>>(
      "POST",
      `chatgroups/${id}/blocks/users/${m1!.name}?version=v3`,
      { token: owner!.token },
    );
    expect(one.body.data).toEqual([{ result: true, action: "add_blocks", user: m1!.name, groupid: id }]);
    expect(
      (await im.call<Data<string[]>>("GET", `chatgroups/${id}/blocks/users?version=v3`, { token: owner!.token })).body
        .data,
    ).toEqual([m1!.name]);
    expectError(
      await im.call("GET", `chatgroups/${id}/users`, { token: m1!.token }),
      403,
      "are not members of this group",
    );
    expectError(
      await im.call("POST", `chatgroups/${id}/apply`, { token: m1!.token, body: { message: "let me in" } }),
      403,
      "blocked",
    );
    expectError(
      await im.call("POST", `chatgroups/${id}/invite`, { token: owner!.token, body: { usernames: [m1!.name] } }),
      403,
      "blocked",
    );
    expectError(await im.call("GET", `chatgroups/${id}/blocks/users`, { token: m2!.token }), 403, "permission denied");
    const un = await im.call<Data<Record<string, unknown>[]>>("DELETE", `chatgroups/${id}/blocks/users/${m1!.name}`, {
      token: owner!.token,
    });
    expect(un.body.data[0]).toMatchObject({ result: true, action: "remove_blocks", user: m1!.name });
    expect(
      (await im.call("POST", `chatgroups/${id}/apply`, { token: m1!.token, body: { message: "again" } })).status,
    ).toBe(200);
  });

  it("during a ban only the allowlist, the owner and admins may send", async () => {
    const [owner, m1, m2] = await users(3);
    const id = await createGroup(owner!, { members: [m1!.name, m2!.name] });
    const send = (u: User) =>
      im.call("POST", "messages/chatgroups", { token: u.token, body: { to: [id], type: "txt", body: { msg: "x" } } });
    expectError(
      await im.call("POST", `chatgroups/${id}/ban?version=v3`, { token: m1!.token }),
      403,
      "permission denied",
    );
    expect(
      (await im.call<Data<{ mute: boolean }>>("POST", `chatgroups/${id}/ban?version=v3`, { token: owner!.token })).body
        .data,
    ).toEqual({ mute: true });
    expect(
      (await im.call<Data<{ mute: boolean }[]>>("GET", `chatgroups/${id}`, { token: m1!.token })).body.data[0]?.mute,
    ).toBe(true);
    expectError(await send(m1!), 403, "banned");
    const allow = await im.call<Data<Record<string, unknown>[]>>("POST", `chatgroups/${id}/white/users?version=v3`, {
      token: owner!.token,
      body: { usernames: [m1!.name] },
    });
    expect(allow.body.data).toEqual([{ result: true, action: "add_user_whitelist", user: m1!.name, groupid: id }]);
    expect((await send(m1!)).status).toBe(200);
    expectError(await send(m2!), 403, "banned");
    expect((await send(owner!)).status).toBe(200);
    expect(
      (await im.call<Data<string[]>>("GET", `chatgroups/${id}/white/users`, { token: m2!.token })).body.data,
    ).toEqual([m1!.name]);
    expect(
      (await im.call<Data<{ white: boolean }>>("GET", `chatgroups/${id}/white/users/${m1!.name}`, { token: m1!.token }))
        .body.data,
    ).toEqual({ member: m1!.name, white: true });
    expectError(
      await im.call("GET", `chatgroups/${id}/white/users/${m1!.name}`, { token: m2!.token }),
      403,
      "permission denied",
    );
    expectError(
      await im.call("POST", `chatgroups/${id}/white/users`, {
        token: owner!.token,
        body: { usernames: ["not_a_member_x"] },
      }),
      403,
      "are not members",
    );
    const rm = await im.call<Data<Record<string, unknown>[]>>("DELETE", `chatgroups/${id}/white/users/${m1!.name}`, {
      token: owner!.token,
    });
    expect(rm.body.data[0]).toMatchObject({ action: "remove_user_whitelist", user: m1!.name });
    expectError(await send(m1!), 403, "banned");
    expect(
      (await im.call<Data<{ mute: boolean }>>("DELETE", `chatgroups/${id}/ban`, { token: owner!.token })).body.data,
    ).toEqual({ mute: false });
    expect((await send(m2!)).status).toBe(200);
  });
});

describe("joining: apply, approve, invite, confirm, remove, quit", () => {
  it("open public groups admit applicants at once; approval groups wait for an admin", async () => {
    const [owner, open1, a1, a2] = await users(4);
    const openId = await createGroup(owner!);
    const joined = await im.call<Data<{ status: string; result: boolean }>>("POST", `chatgroups/${openId}/apply`, {
      token: open1!.token,
      body: { message: "hi" },
    });
    expect(joined.body.data).toMatchObject({ result: true, status: "joined" });
    expectError(
      await im.call("POST", `chatgroups/${openId}/apply`, { token: open1!.token, body: {} }),
      403,
      "already in group",
    );

    const id = await createGroup(owner!, { approval: true });
    const applied = await im.call<Data<{ status: string }>>("POST", `chatgroups/${id}/apply`, {
      token: a1!.token,
      body: { message: "please" },
    });
    expect(applied.body.data.status).toBe("applied");
    expectError(await im.call("GET", `chatgroups/${id}/users`, { token: a1!.token }), 403, "are not members");
    expectError(
      await im.call("POST", `chatgroups/${id}/apply_verify`, {
        token: a1!.token,
        body: { applicant: a1!.name, verifyResult: true, reason: "" },
      }),
      403,
      "are not members",
    );
    const ok = await im.call("POST", `chatgroups/${id}/apply_verify`, {
      token: owner!.token,
      body: { applicant: a1!.name, verifyResult: true, reason: "no clue" },
    });
    expect(ok.status).toBe(200);
    expect((await im.call("GET", `chatgroups/${id}/users`, { token: a1!.token })).status).toBe(200);
    await im.call("POST", `chatgroups/${id}/apply`, { token: a2!.token, body: { message: "me too" } });
    await im.call("POST", `chatgroups/${id}/apply_verify`, {
      token: owner!.token,
      body: { applicant: a2!.name, verifyResult: false, reason: "full" },
    });
    expectError(await im.call("GET", `chatgroups/${id}/users`, { token: a2!.token }), 403, "are not members");
    expectError(
      await im.call("POST", `chatgroups/${id}/apply_verify`, {
        token: owner!.token,
        body: { applicant: a2!.name, verifyResult: true },
      }),
      403,
      "no pending application",
    );
  });

  it("private groups refuse applications; full groups refuse everyone with 'group member list is full!'", async () => {
    const [owner, x, y] = await users(3);
    const priv = await createGroup(owner!, { public: false });
    expectError(
      await im.call("POST", `chatgroups/${priv}/apply`, { token: x!.token, body: {} }),
      403,
      "permission denied",
    );
    const small = await createGroup(owner!, { maxusers: 2 });
    await im.call("POST", `chatgroups/${small}/apply`, { token: x!.token, body: {} });
    expectError(
      await im.call("POST", `chatgroups/${small}/apply`, { token: y!.token, body: {} }),
      403,
      "group member list is full!",
    );
  });

  it("invitations: members invite only when allowed; invitees confirm when asked; others cannot answer for them", async () => {
    const [owner, member, inv1, inv2, inv3] = await users(5);
    const closed = await createGroup(owner!, { members: [member!.name] });
    expectError(
      await im.call("POST", `chatgroups/${closed}/invite`, { token: member!.token, body: { usernames: [inv1!.name] } }),
      403,
      "permission denied",
    );
    const direct = await im.call<Data<Record<string, unknown>[]>>("POST", `chatgroups/${closed}/invite`, {
      token: owner!.token,
      body: { usernames: [inv1!.name] },
    });
    expect(direct.body.data[0]).toMatchObject({ action: "invite", result: true, user: inv1!.name });
    expect((await im.call("GET", `chatgroups/${closed}/users`, { token: inv1!.token })).status).toBe(200);
    expectError(
      await im.call("POST", `chatgroups/${closed}/invite`, { token: owner!.token, body: { usernames: [inv1!.name] } }),
      403,
      "already in group",
    );

    // Members listed at creation are invited too when confirmation is on, so switch it on afterwards.
    const asked = await createGroup(owner!, { members: [member!.name], allowinvites: true });
    await im.call("PUT", `chatgroups/${asked}`, { token: owner!.token, body: { invite_need_confirm: true } });
    expect(
      (
        await im.call("POST", `chatgroups/${asked}/invite`, {
          token: member!.token,
          body: { usernames: [inv2!.name, inv3!.name] },
        })
      ).status,
    ).toBe(200);
    expectError(await im.call("GET", `chatgroups/${asked}/users`, { token: inv2!.token }), 403, "are not members");
    expectError(
      await im.call("POST", `chatgroups/${asked}/invite_verify`, {
        token: inv3!.token,
        body: { invitee: inv2!.name, verifyResult: true },
      }),
      403,
      "permission denied",
    );
    const accepted = await im.call("POST", `chatgroups/${asked}/invite_verify`, {
      token: inv2!.token,
      body: { invitee: inv2!.name, verifyResult: true },
    });
    expect(accepted.body).toMatchObject({ data: { result: true } });
    expect((await im.call("GET", `chatgroups/${asked}/users`, { token: inv2!.token })).status).toBe(200);
    expect(
      (
        await im.call("POST", `chatgroups/${asked}/invite_verify`, {
          token: inv3!.token,
          body: { invitee: inv3!.name, verifyResult: false },
        })
      ).status,
    ).toBe(200);
    expectError(await im.call("GET", `chatgroups/${asked}/users`, { token: inv3!.token }), 403, "are not members");
    expectError(
      await im.call("POST", `chatgroups/${asked}/invite_verify`, {
        token: inv3!.token,
        body: { invitee: inv3!.name, verifyResult: true },
      }),
      403,
      "no pending invitation",
    );
  });

  it("removes one member (object reply) or several (array); a removed user reading the group gets 'not members'", async () => {
    const [owner, admin, m1, m2, m3] = await users(5);
    const id = await createGroup(owner!, { members: [admin!.name, m1!.name, m2!.name, m3!.name] });
    await im.call("POST", `chatgroups/${id}/admin`, { token: owner!.token, body: { newadmin: admin!.name } });
    expectError(
      await im.call("DELETE", `chatgroups/${id}/users/${m2!.name}`, { token: m1!.token }),
      403,
      "permission denied",
    );
    const one = await im.call<Data<Record<string, unknown>>>(
      "DELETE",
      `chatgroups/${id}/users/${m1!.name}?resource=r`,
      { token: admin!.token },
    );
    expect(one.body.data).toEqual({ result: true, action: "remove_member", user: m1!.name, groupid: id });
    const many = await im.call<Data<Record<string, unknown>[]>>(
      "DELETE",
      `chatgroups/${id}/users/${m2!.name},${m3!.name}`,
      { token: admin!.token },
    );
    expect(many.body.data.map((d) => d.user)).toEqual([m2!.name, m3!.name]);
    expectError(
      await im.call("GET", `chatgroups/${id}/users`, { token: m1!.token }),
      403,
      "are not members of this group",
    );
    // Under users/{me}/... the client cannot tell a group by URL: 404 with 60003 is its 'group not joined'.
    const roaming = await im.call("POST", "users/" + m1!.name + "/messageroaming", {
      token: m1!.token,
      body: { queue: `${id}@conference.easemob.com`, start: -1, pull_number: 10 },
    });
    expectError(roaming, 404, "are not members");
    expect(roaming.body.error_code).toBe(60003);
    expectError(
      await im.call("DELETE", `chatgroups/${id}/users/${owner!.name}`, { token: admin!.token }),
      403,
      "permission denied",
    );
  });

  it("members quit; the owner cannot", async () => {
    const [owner, m1] = await users(2);
    const id = await createGroup(owner!, { members: [m1!.name] });
    expectError(await im.call("DELETE", `chatgroups/${id}/quit`, { token: owner!.token }), 403, "permission denied");
    expect((await im.call("DELETE", `chatgroups/${id}/quit?resource=x`, { token: m1!.token })).status).toBe(200);
    expectError(await im.call("DELETE", `chatgroups/${id}/quit`, { token: m1!.token }), 403, "are not members");
  });
});

describe("announcement, shared files, member attributes, read receipts, shield", () => {
  it("admins update the announcement, members read it", async () => {
    const [owner, m1] = await users(2);
    const id = await createGroup(owner!, { members: [m1!.name], public: false });
    expectError(
      await im.call("POST", `chatgroups/${id}/announcement`, { token: m1!.token, body: { announcement: "mine" } }),
      403,
      "permission denied",
    );
    const up = await im.call<Data<{ id: string; result: boolean }>>(
      "POST",
      `chatgroups/${id}/announcement?version=v3`,
      { token: owner!.token, body: { announcement: "Hello team" } },
    );
    expect(up.body.data).toEqual({ id, result: true });
    expect(
      (
        await im.call<Data<{ announcement: string }>>("GET", `chatgroups/${id}/announcement?version=v3`, {
          token: m1!.token,
        })
      ).body.data,
    ).toEqual({ announcement: "Hello team" });
    expectError(
      await im.call("POST", `chatgroups/${id}/announcement`, {
        token: owner!.token,
        body: { announcement: "x".repeat(513) },
      }),
      400,
      "Invalid parameter: announcement",
    );
  });

  it("shares files: upload, list, download by members, delete by the uploader or an admin", async () => {
    const [owner, m1, m2, outsider] = await users(4);
    const id = await createGroup(owner!, { members: [m1!.name, m2!.name] });
    const body = multipart({ filename: "notes.txt", contentType: "text/plain", data: Buffer.from("shared notes") });
    const up = await im.call<Data<{ file_id: string; file_name: string; file_size: number; file_owner: string }>>(
      "POST",
      `chatgroups/${id}/share_files?resource=r`,
      {
        token: m1!.token,
        payload: body.payload,
        headers: body.headers,
      },
    );
    expect(up.status).toBe(200);
    expect(up.body.data).toMatchObject({ file_name: "notes.txt", file_size: 12, file_owner: m1!.name, group_id: id });
    const fileId = up.body.data.file_id;
    const list = await im.call<Data<Record<string, unknown>[]>>(
      "GET",
      `chatgroups/${id}/share_files?pagenum=1&pagesize=10&version=v3`,
      { token: m2!.token },
    );
    expect(list.body.data).toEqual([
      expect.objectContaining({ file_id: fileId, file_name: "notes.txt", file_owner: m1!.name, file_size: 12 }),
    ]);
    const dl = await im.call("GET", `chatgroups/${id}/share_files/${fileId}`, { token: m2!.token });
    expect(dl.status).toBe(200);
    expect(dl.raw.toString()).toBe("shared notes");
    expectError(
      await im.call("GET", `chatgroups/${id}/share_files/${fileId}`, { token: outsider!.token }),
      403,
      "are not members",
    );
    expectError(
      await im.call("DELETE", `chatgroups/${id}/share_files/${fileId}`, { token: m2!.token }),
      403,
      "permission denied",
    );
    const del = await im.call<Data<{ file_id: string; result: boolean }>>(
      "DELETE",
      `chatgroups/${id}/share_files/${fileId}?resource=r`,
      { token: m1!.token },
    );
    expect(del.body.data).toMatchObject({ file_id: fileId, result: true });
    expect(
      (await im.call<Data<unknown[]>>("GET", `chatgroups/${id}/share_files`, { token: m2!.token })).body.data,
    ).toEqual([]);
    const empty = multipart({ filename: "empty.txt", contentType: "text/plain", data: Buffer.alloc(0) });
    expectError(
      await im.call("POST", `chatgroups/${id}/share_files`, {
        token: m1!.token,
        payload: empty.payload,
        headers: empty.headers,
      }),
      400,
      "fileSize must be greater than 0",
    );
  });

  it("member attributes: each member sets its own, admins anyone's; values and totals are limited", async () => {
    const [owner, m1, m2] = await users(3);
    const id = await createGroup(owner!, { members: [m1!.name, m2!.name] });
    const set = await im.call("PUT", `sdk/metadata/chatgroup/${id}/user/${m1!.name}?resource=r&version=v3`, {
      token: m1!.token,
      body: { metaData: { nick: "M1", color: "red" } },
    });
    expect(set.status).toBe(200);
    const other = await im.call("PUT", `sdk/metadata/chatgroup/${id}/user/${m1!.name}`, {
      token: m2!.token,
      body: { metaData: { nick: "Bad" } },
    });
    expect(other.status).toBe(400);
    expect(other.body.error_code).toBe(60010);
    expect(other.body.error_description).not.toContain("single value limit");
    expect(
      (
        await im.call("PUT", `sdk/metadata/chatgroup/${id}/user/${m1!.name}`, {
          token: owner!.token,
          body: { metaData: { color: "blue" } },
        })
      ).status,
    ).toBe(200);
    const long = await im.call("PUT", `sdk/metadata/chatgroup/${id}/user/${m2!.name}`, {
      token: m2!.token,
      body: { metaData: { k: "v".repeat(513) } },
    });
    expect(long.body.error_code).toBe(60010);
    expect(long.body.error_description).toContain("exceeds chatgroup user metadata single value limit");
    const total = await im.call("PUT", `sdk/metadata/chatgroup/${id}/user/${m2!.name}`, {
      token: m2!.token,
      body: { metaData: { a: "x".repeat(40), b: "y".repeat(40) } },
    });
    expect(total.body.error_code).toBe(60006);
    const get = await im.call<Data<Record<string, Record<string, string>>>>(
      "POST",
      `sdk/metadata/chatgroup/${id}/get?version=v3`,
      { token: m2!.token, body: { targets: [m1!.name, m2!.name], properties: [] } },
    );
    expect(get.body.data).toEqual({ [m1!.name]: { nick: "M1", color: "blue" }, [m2!.name]: {} });
    await im.call("PUT", `sdk/metadata/chatgroup/${id}/user/${m1!.name}`, {
      token: m1!.token,
      body: { metaData: { color: "" } },
    });
    const after = await im.call<Data<Record<string, Record<string, string>>>>(
      "POST",
      `sdk/metadata/chatgroup/${id}/get`,
      { token: m1!.token, body: { targets: [m1!.name], properties: ["color", "nick"] } },
    );
    expect(after.body.data).toEqual({ [m1!.name]: { nick: "M1" } });
  });

  it("read receipts: who read a group message, paged", async () => {
    const [owner, m1, m2] = await users(3);
    const id = await createGroup(owner!, { members: [m1!.name, m2!.name] });
    const sent = await im.call<Data<Record<string, string>>>("POST", "messages/chatgroups", {
      token: owner!.token,
      body: { to: [id], type: "txt", body: { msg: "read me" } },
    });
    const msgId = sent.body.data[id]!;
    await recordReadAck(im.t.ctx.database.db, Number(msgId), m1!.name, im.t.clock.now());
    im.t.clock.advance(1);
    await recordReadAck(im.t.ctx.database.db, Number(msgId), m2!.name, im.t.clock.now());
    const page1 = await im.call<
      Data<{ ackmid: string; total: number; userlist: string[]; is_last: boolean; next_key: string }>
    >("GET", `chatgroups/${id}/acks/${msgId}?limit=1&key=undefined`, { token: owner!.token });
    expect(page1.body.data).toMatchObject({ ackmid: msgId, total: 2, userlist: [m1!.name], is_last: false });
    const page2 = await im.call<Data<{ userlist: string[]; is_last: boolean }>>(
      "GET",
      `chatgroups/${id}/acks/${msgId}?limit=1&key=${page1.body.data.next_key}`,
      { token: owner!.token },
    );
    expect(page2.body.data).toMatchObject({ userlist: [m2!.name], is_last: true });
    expectError(
      await im.call("GET", `chatgroups/${id}/acks/123456789`, { token: owner!.token }),
      404,
      "message not found",
    );
  });

  it("a member blocks the group's messages and unblocks them (shield and the legacy flag)", async () => {
    const [owner, m1] = await users(2);
    const id = await createGroup(owner!, { members: [m1!.name] });
    const on = await im.call<Data<Record<string, unknown>>>("POST", `chatgroups/${id}/shield?version=v3&resource=r`, {
      token: m1!.token,
    });
    expect(on.body.data).toMatchObject({ action: "shield", groupid: id, result: true, user: m1!.name });
    expect(
      (await im.call<Data<{ shieldgroup: boolean }[]>>("GET", `chatgroups/${id}`, { token: m1!.token })).body.data[0]
        ?.shieldgroup,
    ).toBe(true);
    const legacy = await im.call("PUT", `users/${m1!.name}?resource=r`, {
      token: m1!.token,
      body: { entities: [{ [`notification_ignore_${id}`]: false }] },
    });
    expect(legacy.status).toBe(200);
    expect(
      (await im.call<Data<{ shieldgroup: boolean }[]>>("GET", `chatgroups/${id}`, { token: m1!.token })).body.data[0]
        ?.shieldgroup,
    ).toBe(false);
  });

  it("group calls outside chatgroups/ refuse outsiders with 404 and error code 60003 (the client's 'group not joined')", async () => {
    const [owner, m1, outsider] = await users(3);
    const id = await createGroup(owner!, { members: [m1!.name], public: false });
    const refusals = [
      await im.call("PUT", `sdk/metadata/chatgroup/${id}/user/${outsider!.name}`, {
        token: outsider!.token,
        body: { metaData: { nick: "x" } },
      }),
      await im.call("POST", `sdk/metadata/chatgroup/${id}/get`, {
        token: outsider!.token,
        body: { targets: [m1!.name], properties: [] },
      }),
      await im.call("PUT", `users/${outsider!.name}`, {
        token: outsider!.token,
        body: { entities: [{ [`notification_ignore_${id}`]: true }] },
      }),
      await im.call("GET", `threads/chatgroups/${id}?limit=10`, { token: outsider!.token }),
    ];
    for (const res of refusals) {
      expectError(res, 404, `user: ${outsider!.name} are not members of this group!`);
      expect(res.body.error_code).toBe(60003);
    }
    // On chatgroups/ URLs the text alone is mapped, with the usual 403.
    const direct = await im.call("GET", `chatgroups/${id}/users`, { token: outsider!.token });
    expectError(direct, 403, "are not members of this group");
    expect(direct.body.error_code).toBeUndefined();
    // Nothing changed for the outsider's attempt.
    const attrs = await im.call<Data<Record<string, Record<string, string>>>>(
      "POST",
      `sdk/metadata/chatgroup/${id}/get`,
      { token: m1!.token, body: { targets: [outsider!.name], properties: [] } },
    );
    expect(attrs.body.data).toEqual({ [outsider!.name]: {} });
  });
});
