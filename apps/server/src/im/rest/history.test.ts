import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startImTest, type ImTest } from "../../../test/im-harness";
import { decodeMessageBody, decodeMeta } from "../proto/decode";

let im: ImTest;
beforeAll(async () => {
  im = await startImTest({ IM_MAX_REACTIONS: "2" });
});
afterAll(async () => {
  await im.close();
});

type User = { name: string; token: string };
type Data<T> = { data: T };
interface Channel {
  session_to: string;
  session_type: string;
  is_top: boolean;
  update_top_status_time: number;
  unread_num: number;
  meta: { id?: string; timestamp?: number; to?: string; payload?: string };
}
interface Roaming {
  msgs: { msg: string }[];
  next_key: string;
  is_last: boolean;
}

async function send(
  from: User,
  to: string,
  body: Record<string, unknown>,
  target = "users",
  ext?: Record<string, unknown>,
): Promise<string> {
  const res = await im.call<Data<Record<string, string>>>("POST", `messages/${target}`, {
    token: from.token,
    body: { to: [to], type: "txt", body: { msg: "x" }, ...body, ...(ext && { ext }) },
  });
  expect(res.status).toBe(200);
  return res.body.data[to]!;
}

const text = (from: User, to: string, msg: string) => send(from, to, { type: "txt", body: { msg } });

async function roam(
  u: User,
  queue: string,
  extra: Record<string, unknown> = {},
): Promise<{ page: Roaming; texts: string[]; ids: string[] }> {
  const res = await im.call<Data<Roaming>>("POST", `users/${u.name}/messageroaming`, {
    token: u.token,
    body: {
      queue,
      start: -1,
      pull_number: 20,
      is_positive: false,
      msgType: "",
      end: -1,
      startTime: null,
      endTime: null,
      userId: null,
      ...extra,
    },
  });
  expect(res.status).toBe(200);
  const metas = res.body.data.msgs.map((m) => decodeMeta(Buffer.from(m.msg, "base64")));
  return {
    page: res.body.data,
    ids: metas.map((m) => m.id.toString()),
    texts: metas.map(
      (m) => decodeMessageBody(m.payload).contents[0]?.text ?? `<${decodeMessageBody(m.payload).contents[0]?.type}>`,
    ),
  };
}

function expectStatus(
  res: { status: number; body: { error_description?: string } },
  status: number,
  text: string,
): void {
  expect(res.status).toBe(status);
  expect(res.body.error_description).toContain(text);
}

async function channels(u: User, query = ""): Promise<Channel[]> {
  const res = await im.call<Data<{ channel_infos: Channel[]; cursor: string }>>(
    "GET",
    `sdk/user/${u.name}/user_channels/list?&limit=20&cursor=&need_mark=true&needEmptySession=false${query}`,
    { token: u.token },
  );
  expect(res.status).toBe(200);
  return res.body.data.channel_infos;
}

describe("one-to-one conversations and history roaming", () => {
  it("stores messages in order; the conversation list shows the last one and counts the recipient's unread", async () => {
    const a = await im.user("h");
    const b = await im.user("h");
    for (let i = 1; i <= 5; i++) await text(a, b.name, `m${i}`);
    const [bc] = await channels(b);
    expect(bc).toMatchObject({ session_to: a.name, session_type: "chat", is_top: false, unread_num: 5 });
    const payload = JSON.parse(bc!.meta.payload!) as Record<string, unknown>;
    expect(payload).toMatchObject({
      type: "chat",
      from: a.name,
      to: b.name,
      bodies: [{ type: "txt", msg: "m5" }],
      ext: {},
    });
    const [ac] = await channels(a);
    expect(ac).toMatchObject({ session_to: b.name, unread_num: 0 });

    const newest = await roam(b, `${a.name}@easemob.com`, { pull_number: 2 });
    expect(newest.texts).toEqual(["m5", "m4"]);
    expect(newest.page.is_last).toBe(false);
    const older = await roam(b, `${a.name}@easemob.com`, { pull_number: 2, start: newest.page.next_key });
    expect(older.texts).toEqual(["m3", "m2"]);
    const last = await roam(b, `${a.name}@easemob.com`, { pull_number: 2, start: older.page.next_key });
    expect(last.texts).toEqual(["m1"]);
    expect(last.page.is_last).toBe(true);
    const forward = await roam(a, `${b.name}@easemob.com`, { is_positive: true, pull_number: 3 });
    expect(forward.texts).toEqual(["m1", "m2", "m3"]);
  });

  it("encodes every message type as the protocol's Meta", async () => {
    const a = await im.user("t");
    const b = await im.user("t");
    await send(
      a,
      b.name,
      {
        type: "img",
        body: {
          url: "http://h/chatfiles/1",
          secret: "s",
          filename: "a.png",
          file_length: 10,
          size: { width: 4, height: 3 },
        },
      },
      "users",
      { vip: true, n: 3, f: 1.5, o: { k: "v" } },
    );
    await send(a, b.name, { type: "loc", body: { lat: 31.2, lng: 121.5, addr: "Bund", buildingName: "No. 1" } });
    await send(a, b.name, { type: "custom", body: { customEvent: "order", customExts: [{ orderId: "A1" }] } });
    await send(a, b.name, { type: "cmd", body: { action: "typing" } });
    const res = await im.call<Data<Roaming>>("POST", `users/${b.name}/messageroaming`, {
      token: b.token,
      body: { queue: `${a.name}@easemob.com`, start: -1, pull_number: 10, is_positive: true },
    });
    const bodies = res.body.data.msgs.map((m) => {
      const meta = decodeMeta(Buffer.from(m.msg, "base64"));
      expect(meta.ns).toBe(1);
      expect(meta.from?.name).toBe(a.name);
      expect(meta.to).toMatchObject({ name: b.name, domain: "easemob.com" });
      return decodeMessageBody(meta.payload);
    });
    expect(bodies[0]).toMatchObject({
      type: 1,
      from: { name: a.name },
      to: { name: b.name },
      contents: [
        {
          type: 1,
          remotePath: "http://h/chatfiles/1",
          secretKey: "s",
          displayName: "a.png",
          fileLength: 10,
          size: { width: 4, height: 3 },
        },
      ],
    });
    expect(bodies[0]?.ext).toEqual([
      { key: "vip", type: 1, value: true },
      { key: "n", type: 4, value: 3 },
      { key: "f", type: 6, value: 1.5 },
      { key: "o", type: 8, value: { k: "v" } },
    ]);
    expect(bodies[1]?.contents[0]).toMatchObject({
      type: 3,
      latitude: 31.2,
      longitude: 121.5,
      address: "Bund",
      buildingName: "No. 1",
    });
    expect(bodies[2]?.contents[0]).toMatchObject({
      type: 7,
      customEvent: "order",
      customExts: [{ key: "orderId", type: 7, value: "A1" }],
    });
    expect(bodies[3]?.contents[0]).toMatchObject({ type: 6, action: "typing" });
    const bad = await im.call("POST", "messages/users", {
      token: a.token,
      body: { to: [b.name], type: "loc", body: { addr: "no coordinates" } },
    });
    expect(bad.status).toBe(400);
  });

  it("removes messages from one user's history by ids or before a time; the other side keeps them", async () => {
    const a = await im.user("r");
    const b = await im.user("r");
    const ids = [await text(a, b.name, "one"), await text(a, b.name, "two"), await text(a, b.name, "three")];
    expect(
      (
        await im.call(
          "DELETE",
          `sdk/message/roaming/chat/user/${b.name}?userId=${a.name}&msgIdList=${ids[2]}&resource=web`,
          { token: b.token },
        )
      ).status,
    ).toBe(200);
    expect((await roam(b, `${a.name}@easemob.com`)).texts).toEqual(["two", "one"]);
    expect((await roam(a, `${b.name}@easemob.com`)).texts).toEqual(["three", "two", "one"]);
    const [bc] = await channels(b);
    expect(JSON.parse(bc!.meta.payload!)).toMatchObject({ bodies: [{ msg: "two" }] });
    im.t.clock.advance(10);
    await text(a, b.name, "four");
    const cut = im.t.clock.now().getTime() - 5000;
    expect(
      (
        await im.call(
          "DELETE",
          `sdk/message/roaming/chat/user/${b.name}/time?userId=${a.name}&delTime=${cut}&&resource=web`,
          { token: b.token },
        )
      ).status,
    ).toBe(200);
    expect((await roam(b, `${a.name}@easemob.com`)).texts).toEqual(["four"]);
    const tooMany = Array.from({ length: 21 }, (_, i) => String(i + 1)).join(",");
    expect(
      (
        await im.call("DELETE", `sdk/message/roaming/chat/user/${b.name}?userId=${a.name}&msgIdList=${tooMany}`, {
          token: b.token,
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await im.call(
          "DELETE",
          `sdk/message/roaming/chat/user/${b.name}/time?userId=${a.name}&delTime=1234567890123456789`,
          { token: b.token },
        )
      ).status,
    ).toBe(400);
  });

  it("deletes a conversation with or without its history; a new message brings it back", async () => {
    const a = await im.user("d");
    const b = await im.user("d");
    await text(a, b.name, "hello");
    const keep = await im.call<Data<{ result: string }>>("DELETE", `user/${b.name}/user_channel?resource=web`, {
      token: b.token,
      body: { channel: a.name, type: "chat", delete_roam: false },
    });
    expect(keep.body.data).toEqual({ result: "ok" });
    expect(await channels(b)).toEqual([]);
    expect((await roam(b, `${a.name}@easemob.com`)).texts).toEqual(["hello"]);
    await text(a, b.name, "again");
    const [back] = await channels(b);
    expect(back).toMatchObject({ session_to: a.name, unread_num: 1 });
    await im.call("DELETE", `user/${b.name}/user_channel`, {
      token: b.token,
      body: { channel: a.name, type: "chat", delete_roam: true },
    });
    expect((await roam(b, `${a.name}@easemob.com`)).texts).toEqual([]);
    expect((await roam(a, `${b.name}@easemob.com`)).texts).toEqual(["again", "hello"]);
    const gone = await im.call("DELETE", `user/${b.name}/user_channel`, {
      token: b.token,
      body: { channel: a.name, type: "chat", delete_roam: true },
    });
    expect(gone.status).toBe(404);
    expect(gone.body.error_code).toBe(91001);
    expect(
      (
        await im.call("DELETE", `user/${b.name}/user_channel`, {
          token: b.token,
          body: { channel: a.name, type: "single", delete_roam: true },
        })
      ).status,
    ).toBe(400);
  });

  it("pins and unpins conversations; the pinned list and the cursor", async () => {
    const me = await im.user("pin");
    const peers = [await im.user("pin"), await im.user("pin"), await im.user("pin")];
    for (const p of peers) {
      await text(p, me.name, "hi");
      im.t.clock.advance(1);
    }
    const pin = await im.call<Data<{ is_top: boolean; update_top_status_time: number }>>(
      "POST",
      `sdk/user/${me.name}/user_channel/top?resource=web`,
      { token: me.token, body: { type: "chat", to: peers[0]!.name } },
    );
    expect(pin.body.data).toEqual({ is_top: true, update_top_status_time: im.t.clock.now().getTime() });
    const pinned = await channels(me, "&is_top=true");
    expect(pinned.map((c) => c.session_to)).toEqual([peers[0]!.name]);
    const first = await im.call<Data<{ channel_infos: Channel[]; cursor: string }>>(
      "GET",
      `sdk/user/${me.name}/user_channels/list?limit=2&cursor=`,
      { token: me.token },
    );
    expect(first.body.data.channel_infos.map((c) => c.session_to)).toEqual([peers[2]!.name, peers[1]!.name]);
    const second = await im.call<Data<{ channel_infos: Channel[]; cursor: string }>>(
      "GET",
      `sdk/user/${me.name}/user_channels/list?limit=2&cursor=${first.body.data.cursor}`,
      { token: me.token },
    );
    expect(second.body.data.channel_infos.map((c) => [c.session_to, c.is_top])).toEqual([[peers[0]!.name, true]]);
    expect(second.body.data.cursor).toBe("");
    const unpin = await im.call<Data<{ is_top: boolean }>>(
      "DELETE",
      `sdk/user/${me.name}/user_channel/top?type=chat&to=${peers[0]!.name}&resource=web`,
      { token: me.token },
    );
    expect(unpin.body.data.is_top).toBe(false);
    expect(await channels(me, "&is_top=true")).toEqual([]);
    const legacy = await im.call<Data<{ channel_infos: Channel[] }>>(
      "GET",
      `users/${me.name}/user_channels/page?pageNum=1&pageSize=2`,
      { token: me.token },
    );
    expect(legacy.body.data.channel_infos).toHaveLength(2);
    const none = await im.call("POST", `sdk/user/${me.name}/user_channel/top`, {
      token: me.token,
      body: { type: "chat", to: "nobody_talked" },
    });
    expect(none.status).toBe(404);
  });

  it("marks conversations, lists by mark, unmarks; bad marks and other users' lists are refused", async () => {
    const me = await im.user("mark");
    const [p1, p2] = [await im.user("mark"), await im.user("mark")];
    await text(p1, me.name, "one");
    im.t.clock.advance(1);
    await text(p2, me.name, "two");
    const url = `sdk/user/${me.name}/user_channels/mark?resource=web`;
    const add = await im.call<Data<{ ignore: string[] }>>("POST", url, {
      token: me.token,
      body: {
        mark: "mark_19",
        targets: [
          { to: p1.name, type: "chat" },
          { to: p2.name, type: "chat" },
          { to: "stranger", type: "chat" },
        ],
      },
    });
    expect(add.status).toBe(200);
    expect(add.body.data.ignore).toEqual(["stranger"]);
    await im.call("DELETE", url, {
      token: me.token,
      body: { mark: "mark_19", targets: [{ to: p2.name, type: "chat" }] },
    });
    const search = await im.call<Data<{ channel_infos: (Channel & { marks: string[] })[]; cursor: string }>>(
      "GET",
      `sdk/user/${me.name}/user_channels/mark/search?limit=10&cursor=&need_mark=true&mark=mark_19`,
      { token: me.token },
    );
    expect(search.body.data.channel_infos.map((c) => [c.session_to, c.marks])).toEqual([[p1.name, ["mark_19"]]]);
    const list = await im.call<Data<{ channel_infos: (Channel & { marks: string[] })[] }>>(
      "GET",
      `sdk/user/${me.name}/user_channels/list?limit=10`,
      { token: me.token },
    );
    expect(list.body.data.channel_infos.map((c) => c.marks)).toEqual([[], ["mark_19"]]);

    for (const body of [
      { mark: "mark_20", targets: [{ to: p1.name, type: "chat" }] },
      { mark: "mark_1", targets: [] },
      { mark: "mark_1" },
    ]) {
      const bad = await im.call("POST", url, { token: me.token, body });
      expect(bad.status).toBe(400);
      expect(bad.body.error_description).toMatch(/^Invalid parameter/);
    }
    expect(
      (await im.call("GET", `sdk/user/${me.name}/user_channels/mark/search?mark=star`, { token: me.token })).status,
    ).toBe(400);
    const other = await im.call("POST", `sdk/user/${me.name}/user_channels/mark`, {
      token: p1.token,
      body: { mark: "mark_1", targets: [{ to: p1.name, type: "chat" }] },
    });
    expect(other.status).toBe(403);
    expect(other.body.error_description).toContain("permission denied");
    // Nothing changed by the refused calls.
    const again = await im.call<Data<{ channel_infos: { marks: string[] }[] }>>(
      "GET",
      `sdk/user/${me.name}/user_channels/mark/search?mark=mark_1`,
      { token: me.token },
    );
    expect(again.body.data.channel_infos).toEqual([]);
  });

  it("pins messages of a conversation (shared by both sides) up to the limit; refuses bad ids, other conversations' messages and strangers", async () => {
    const [a, b, c] = [await im.user("pinm"), await im.user("pinm"), await im.user("pinm")];
    const url = `sdk/user/${a.name}/user_channel/pin?resource=web`;
    const ids: string[] = [];
    for (let i = 0; i < 21; i++) ids.push(await text(i % 2 ? a : b, i % 2 ? b.name : a.name, `m${i}`));
    for (let i = 0; i < 20; i++) {
      im.t.clock.advance(1);
      expect(
        (await im.call("POST", url, { token: a.token, body: { to: b.name, type: "chat", pin_msg_id: ids[i] } })).status,
      ).toBe(200);
    }
    const full = await im.call("POST", url, {
      token: a.token,
      body: { to: b.name, type: "chat", pin_msg_id: ids[20] },
    });
    expectStatus(full, 403, "pinned messages exceeds the maximum limit of 20");
    expect(full.body.error_code).toBe(91002);
    // Pinning again is not an error and keeps the first pin.
    expect(
      (await im.call("POST", url, { token: a.token, body: { to: b.name, type: "chat", pin_msg_id: ids[0] } })).status,
    ).toBe(200);

    const list = await im.call<
      Data<{
        msg_infos: { message: { id: string; payload: string }; pin_opt_at: number; pin_operator: string }[];
        cursor: string;
      }>
    >("GET", `sdk/user/${b.name}/user_channel/pin?to=${a.name}&type=chat&limit=3&cursor=`, { token: b.token });
    expect(list.body.data.msg_infos.map((p) => p.message.id)).toEqual([ids[19], ids[18], ids[17]]);
    expect(list.body.data.msg_infos[0]).toMatchObject({ pin_operator: a.name });
    expect(JSON.parse(list.body.data.msg_infos[0]!.message.payload)).toMatchObject({
      bodies: [{ type: "txt", msg: "m19" }],
    });
    expect(list.body.data.cursor).not.toBe("");

    // b acts only under its own path; there it unpins what a pinned; a second unpin finds nothing.
    expectStatus(
      await im.call("DELETE", url, { token: b.token, body: { to: a.name, type: "chat", pin_msg_id: ids[19] } }),
      403,
      "permission denied",
    );
    const bUrl = `sdk/user/${b.name}/user_channel/pin`;
    expect(
      (await im.call("DELETE", bUrl, { token: b.token, body: { to: a.name, type: "chat", pin_msg_id: ids[19] } }))
        .status,
    ).toBe(200);
    expectStatus(
      await im.call("DELETE", bUrl, { token: b.token, body: { to: a.name, type: "chat", pin_msg_id: ids[19] } }),
      404,
      "user session pin message not exist",
    );

    expectStatus(
      await im.call("POST", url, { token: a.token, body: { to: b.name, type: "chat", pin_msg_id: "abc" } }),
      400,
      "param pin_msg_id illegal, please check it!",
    );
    expectStatus(
      await im.call("POST", url, { token: a.token, body: { to: b.name, type: "chat" } }),
      400,
      "Invalid parameter: pin_msg_id",
    );
    const foreign = await text(b, c.name, "not yours");
    expectStatus(
      await im.call("POST", url, { token: a.token, body: { to: b.name, type: "chat", pin_msg_id: foreign } }),
      404,
      "user session pin message not exist",
    );
    expectStatus(
      await im.call("POST", url, { token: c.token, body: { to: b.name, type: "chat", pin_msg_id: ids[0] } }),
      403,
      "permission denied",
    );
    expectStatus(
      await im.call("GET", `sdk/user/${a.name}/user_channel/pin?type=chat`, { token: a.token }),
      400,
      "Invalid parameter: to",
    );
  });

  it("deletes all of a user's conversations and history; the other side keeps theirs", async () => {
    const [a, b] = [await im.user("all"), await im.user("all")];
    await text(a, b.name, "hello");
    await text(b, a.name, "hi");
    const del = await im.call("POST", `sdk/message/roaming/user/${a.name}/delete/all?resource=web`, { token: a.token });
    expect(del.status).toBe(200);
    expect(await channels(a)).toEqual([]);
    expect((await roam(a, `${b.name}@easemob.com`)).texts).toEqual([]);
    expect((await roam(b, `${a.name}@easemob.com`)).texts).toEqual(["hi", "hello"]);
    expect((await channels(b)).map((c) => c.session_to)).toEqual([a.name]);
    const other = await im.call("POST", `sdk/message/roaming/user/${a.name}/delete/all`, { token: b.token });
    expect(other.status).toBe(403);
    expect((await roam(a, `${b.name}@easemob.com`)).texts).toEqual([]);
  });

  it("recall and read (the gateway's calls) keep last message and unread right", async () => {
    const a = await im.user("rc");
    const b = await im.user("rc");
    await text(a, b.name, "first");
    const second = await text(a, b.name, "second");
    await im.t.app.im.services.history.recall({ kind: "user", username: a.name }, Number(second));
    const [bc] = await channels(b);
    expect(bc).toMatchObject({ unread_num: 1 });
    expect(JSON.parse(bc!.meta.payload!)).toMatchObject({ bodies: [{ msg: "first" }] });
    expect((await roam(b, `${a.name}@easemob.com`)).texts).toEqual(["first"]);
    await im.t.app.im.services.history.markRead(b.name, "chat", a.name, null);
    expect((await channels(b))[0]?.unread_num).toBe(0);
    await expect(
      im.t.app.im.services.history.recall({ kind: "user", username: b.name }, Number(second)),
    ).rejects.toMatchObject({ status: 404 });
  });
});

describe("group history search", () => {
  it("searches the whole history by sender, message type and time range; non-members are refused", async () => {
    const owner = await im.user("gs");
    const m1 = await im.user("gs");
    const outsider = await im.user("gs");
    const created = await im.call<Data<{ groupid: string }>>("POST", "chatgroups", {
      token: owner.token,
      body: { groupname: "g", members: [m1.name], public: true, maxusers: 10 },
    });
    const gid = created.body.data.groupid;
    const t0 = im.t.clock.now().getTime();
    await send(owner, gid, { type: "txt", body: { msg: "o1" } }, "chatgroups");
    im.t.clock.advance(60);
    await send(m1, gid, { type: "txt", body: { msg: "m1" } }, "chatgroups");
    await send(m1, gid, { type: "cmd", body: { action: "ping" } }, "chatgroups");
    im.t.clock.advance(60);
    await send(owner, gid, { type: "txt", body: { msg: "o2" } }, "chatgroups");
    const queue = `${gid}@conference.easemob.com`;
    expect((await roam(m1, queue)).texts).toEqual(["o2", "<6>", "m1", "o1"]);
    expect((await roam(m1, queue, { userId: owner.name })).texts).toEqual(["o2", "o1"]);
    expect((await roam(m1, queue, { msgType: "cmd" })).texts).toEqual(["<6>"]);
    expect((await roam(m1, queue, { startTime: t0 + 30_000, endTime: t0 + 90_000 })).texts).toEqual(["<6>", "m1"]);
    expect((await roam(m1, queue, { msgType: "txt", userId: m1.name })).texts).toEqual(["m1"]);
    const refused = await im.call("POST", `users/${outsider.name}/messageroaming`, {
      token: outsider.token,
      body: { queue, start: -1, pull_number: 10 },
    });
    // 404 with 60003: the client's 'group not joined' on a URL without "chatgroups".
    expect(refused.status).toBe(404);
    expect(refused.body.error_code).toBe(60003);
    expect(refused.body.error_description).toContain("are not members of this group");
    const [oc] = await channels(m1);
    expect(oc).toMatchObject({ session_to: gid, session_type: "groupchat", unread_num: 2 });
  });

  it("keeps history for the configured retention only", async () => {
    const short = await startImTest({ IM_HISTORY_RETENTION_DAYS: "1" });
    try {
      const a = await short.user("ret");
      const b = await short.user("ret");
      await short.call("POST", "messages/users", {
        token: a.token,
        body: { to: [b.name], type: "txt", body: { msg: "old" } },
      });
      short.t.clock.advance(2 * 86400);
      const token = await short.login(b.name);
      const sender = await short.login(a.name);
      await short.call("POST", "messages/users", {
        token: sender,
        body: { to: [b.name], type: "txt", body: { msg: "new" } },
      });
      const res = await short.call<Data<Roaming>>("POST", `users/${b.name}/messageroaming`, {
        token,
        body: { queue: `${a.name}@easemob.com`, start: -1, pull_number: 10 },
      });
      expect(
        res.body.data.msgs.map(
          (m) => decodeMessageBody(decodeMeta(Buffer.from(m.msg, "base64")).payload).contents[0]?.text,
        ),
      ).toEqual(["new"]);
    } finally {
      await short.close();
    }
  });
});

describe("reactions and reports", () => {
  it("adds, lists, details, removes reactions with the published error texts and the configured limit", async () => {
    const a = await im.user("re");
    const b = await im.user("re");
    const c = await im.user("re");
    const msgId = await text(a, b.name, "react to me");
    expect(
      (await im.call("POST", `reaction/user/${b.name}`, { token: b.token, body: { msgId, message: "👍" } })).status,
    ).toBe(200);
    im.t.clock.advance(1);
    expect(
      (await im.call("POST", `reaction/user/${a.name}`, { token: a.token, body: { msgId, message: "👍" } })).status,
    ).toBe(200);
    im.t.clock.advance(1);
    const dup = await im.call("POST", `reaction/user/${a.name}`, { token: a.token, body: { msgId, message: "👍" } });
    expect(dup.status).toBe(400);
    expect(dup.body.error_description).toBe("the user is already operation this message");
    await im.call("POST", `reaction/user/${a.name}`, { token: a.token, body: { msgId, message: "❤️" } });
    const third = await im.call("POST", `reaction/user/${a.name}`, { token: a.token, body: { msgId, message: "😂" } });
    expect(third.status).toBe(400);
    expect(third.body.error_description).toBe("The quantity has exceeded the limit!");
    const outsider = await im.call("POST", `reaction/user/${c.name}`, {
      token: c.token,
      body: { msgId, message: "👍" },
    });
    expect(outsider.status).toBe(404);

    const list = await im.call<Data<{ msgId: string; reactionList: Record<string, unknown>[] }[]>>(
      "GET",
      `reaction/user/${b.name}?msgIdList=${msgId}&msgType=chat&groupId=null`,
      { token: b.token },
    );
    expect(list.body.data).toEqual([
      {
        msgId,
        reactionList: [
          {
            reactionId: `${msgId}-👍`,
            reaction: "👍",
            count: 2,
            userCount: 2,
            state: true,
            userList: [b.name, a.name],
          },
          { reactionId: `${msgId}-❤️`, reaction: "❤️", count: 1, userCount: 1, state: false, userList: [a.name] },
        ],
      },
    ]);
    const d1 = await im.call<Data<{ userList: string[]; cursor: string; state: boolean; count: number }>>(
      "GET",
      `reaction/user/${a.name}/detail?msgId=${msgId}&message=${encodeURIComponent("👍")}&currentPage=null&pageSize=1`,
      { token: a.token },
    );
    expect(d1.body.data).toMatchObject({ userList: [b.name], state: true, count: 2 });
    const d2 = await im.call<Data<{ userList: string[]; cursor: string }>>(
      "GET",
      `reaction/user/${a.name}/detail?msgId=${msgId}&message=${encodeURIComponent("👍")}&currentPage=${d1.body.data.cursor}&pageSize=1`,
      { token: a.token },
    );
    expect(d2.body.data).toMatchObject({ userList: [a.name], cursor: "" });
    expect(
      (
        await im.call("DELETE", `reaction/user/${a.name}?msgId=${msgId}&message=${encodeURIComponent("❤️")}`, {
          token: a.token,
        })
      ).status,
    ).toBe(200);
    const illegal = await im.call(
      "DELETE",
      `reaction/user/${a.name}?msgId=${msgId}&message=${encodeURIComponent("❤️")}`,
      { token: a.token },
    );
    expect(illegal.status).toBe(400);
    expect(illegal.body.error_description).toBe("the user operation is illegal!");
  });

  it("group messages take reactions from members only ('The user not in this group!')", async () => {
    const owner = await im.user("rg");
    const outsider = await im.user("rg");
    const gid = (
      await im.call<Data<{ groupid: string }>>("POST", "chatgroups", {
        token: owner.token,
        body: { groupname: "g", public: true },
      })
    ).body.data.groupid;
    const msgId = await send(owner, gid, { type: "txt", body: { msg: "hi" } }, "chatgroups");
    const res = await im.call("POST", `reaction/user/${outsider.name}`, {
      token: outsider.token,
      body: { msgId, message: "👀" },
    });
    expect(res.status).toBe(400);
    expect(res.body.error_description).toBe("The user not in this group!");
  });

  it("reports a message it can see; anything else is 'report failed, get message by id failed'", async () => {
    const a = await im.user("rp");
    const b = await im.user("rp");
    const c = await im.user("rp");
    const msgId = await text(a, b.name, "spam");
    const ok = await im.call<Data<{ report_id: string }>>("POST", `user/${b.name}/moderation/report/message/${msgId}`, {
      token: b.token,
      body: { username: b.name, reportType: "spam", reportReason: "advertising" },
    });
    expect(ok.status).toBe(200);
    const row = await im.t.ctx.database.db
      .selectFrom("im_reports")
      .selectAll()
      .where("id", "=", Number(ok.body.data.report_id))
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      reporter: b.name,
      message_id: Number(msgId),
      report_type: "spam",
      reason: "advertising",
      state: "pending",
    });
    for (const [user, id] of [
      [c, msgId],
      [b, "999999999"],
    ] as const) {
      const bad = await im.call("POST", `user/${user.name}/moderation/report/message/${id}`, {
        token: user.token,
        body: { username: user.name, reportType: "spam", reportReason: "x" },
      });
      expect(bad.status).toBe(400);
      expect(bad.body.error_description).toBe("report failed, get message by id failed");
    }
    expect(
      (
        await im.call("POST", `user/${b.name}/moderation/report/message/${msgId}`, {
          token: b.token,
          body: { reportType: "", reportReason: "x" },
        })
      ).status,
    ).toBe(400);
  });
});
