import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startImTest, type ImTest } from "../../../test/im-harness";
import type { ImDelivery } from "../events";
import { decodeMessageBody, decodeMeta } from "../proto/decode";
import { inScope } from "../service/core";

let im: ImTest;
beforeAll(async () => {
  im = await startImTest({ IM_MAX_THREAD_MEMBERS: "3" });
});
afterAll(async () => {
  await im.close();
});

type User = { name: string; token: string };
type Data<T> = { data: T };

async function setup(): Promise<{
  owner: User;
  admin: User;
  m1: User;
  m2: User;
  m3: User;
  outsider: User;
  gid: string;
  parent: string;
}> {
  const [owner, admin, m1, m2, m3, outsider] = [
    await im.user("t"),
    await im.user("t"),
    await im.user("t"),
    await im.user("t"),
    await im.user("t"),
    await im.user("t"),
  ];
  const gid = (
    await im.call<Data<{ groupid: string }>>("POST", "chatgroups", {
      token: owner.token,
      body: { groupname: "g", members: [admin.name, m1.name, m2.name, m3.name], public: true, maxusers: 20 },
    })
  ).body.data.groupid;
  await im.call("POST", `chatgroups/${gid}/admin`, { token: owner.token, body: { newadmin: admin.name } });
  const sent = await im.call<Data<Record<string, string>>>("POST", "messages/chatgroups", {
    token: m1.token,
    body: { to: [gid], type: "txt", body: { msg: "start a thread here" } },
  });
  return { owner, admin, m1, m2, m3, outsider, gid, parent: sent.body.data[gid]! };
}

describe("threads", () => {
  it("create (one per message), detail, join within the member limit, members, leave", async () => {
    const { owner, m1, m2, m3, outsider, gid, parent } = await setup();
    const created = await im.call<Data<{ thread_id: string }>>("POST", "thread?resource=web", {
      token: m1.token,
      body: { name: "Topic", msg_id: parent, group_id: gid, owner: m1.name },
    });
    expect(created.status).toBe(200);
    const tid = created.body.data.thread_id;
    const again = await im.call("POST", "thread", {
      token: m2.token,
      body: { name: "Again", msg_id: parent, group_id: gid, owner: m2.name },
    });
    expect(again.status).toBe(400);
    expect(again.body.error_code).toBe(40002);
    const byOutsider = await im.call("POST", "thread", {
      token: outsider.token,
      body: { name: "x", msg_id: parent, group_id: gid },
    });
    // 404 with 60003: the client's 'group not joined' on a URL without "chatgroups".
    expect(byOutsider.status).toBe(404);
    expect(byOutsider.body.error_code).toBe(60003);
    expect(byOutsider.body.error_description).toContain("are not members of this group");

    const detail = await im.call<Data<Record<string, unknown>>>("GET", `thread/${tid}`, { token: m2.token });
    expect(detail.body.data).toMatchObject({
      id: tid,
      name: "Topic",
      owner: m1.name,
      affiliations_count: 1,
      msgId: parent,
      groupId: gid,
    });

    const join = await im.call<Data<{ status: string; detail: Record<string, unknown> }>>(
      "POST",
      `thread/${tid}/user/${m2.name}/join?resource=web`,
      { token: m2.token },
    );
    expect(join.body.data).toMatchObject({
      status: "ok",
      detail: { id: tid, msgId: parent, groupId: gid, affiliations_count: 2 },
    });
    await im.call("POST", `thread/${tid}/user/${m3.name}/join`, { token: m3.token });
    const full = await im.call("POST", `thread/${tid}/user/${owner.name}/join`, { token: owner.token });
    expect(full.status).toBe(403);
    expect(full.body.error_code).toBe(40005);
    const members = await im.call<Data<{ affiliations: string[] }> & { cursor: string }>(
      "GET",
      `thread/${tid}/users?limit=2&cursor=`,
      { token: owner.token },
    );
    expect(members.body.data.affiliations).toHaveLength(2);
    const rest = await im.call<Data<{ affiliations: string[] }>>(
      "GET",
      `thread/${tid}/users?limit=2&cursor=${members.body.cursor}`,
      { token: owner.token },
    );
    expect([...members.body.data.affiliations, ...rest.body.data.affiliations].sort()).toEqual(
      [m1.name, m2.name, m3.name].sort(),
    );
    expect(
      (await im.call("DELETE", `thread/${tid}/user/${m3.name}/quit?resource=web`, { token: m3.token })).status,
    ).toBe(200);
    expect((await im.call("POST", `thread/${tid}/user/${owner.name}/join`, { token: owner.token })).status).toBe(200);
    const missing = await im.call("GET", "thread/999999999999", { token: owner.token });
    expect(missing.status).toBe(404);
    expect(missing.body.error_code).toBe(40011);
  });

  it("messages in a thread: history by thread id, the last message, lists of threads", async () => {
    const { m1, m2, gid, parent } = await setup();
    const tid = (
      await im.call<Data<{ thread_id: string }>>("POST", "thread", {
        token: m1.token,
        body: { name: "Chat", msg_id: parent, group_id: gid, owner: m1.name },
      })
    ).body.data.thread_id;
    await im.call("POST", "messages/threads", {
      token: m1.token,
      body: { to: [tid], type: "txt", body: { msg: "in thread 1" } },
    });
    await im.call("POST", "messages/threads", {
      token: m2.token,
      body: { to: [tid], type: "txt", body: { msg: "in thread 2" } },
    });
    const hist = await im.call<Data<{ msgs: { msg: string }[] }>>("POST", `users/${m2.name}/messageroaming`, {
      token: m2.token,
      body: { queue: `${tid}@conference.easemob.com`, start: -1, pull_number: 10 },
    });
    expect(
      hist.body.data.msgs.map(
        (m) => decodeMessageBody(decodeMeta(Buffer.from(m.msg, "base64")).payload).contents[0]?.text,
      ),
    ).toEqual(["in thread 2", "in thread 1"]);
    const groupHist = await im.call<Data<{ msgs: unknown[] }>>("POST", `users/${m2.name}/messageroaming`, {
      token: m2.token,
      body: { queue: `${gid}@conference.easemob.com`, start: -1, pull_number: 10 },
    });
    expect(groupHist.body.data.msgs).toHaveLength(1);
    const last = await im.call<{
      entities: { thread_id: string; last_message: { payload: { bodies: { msg: string }[] }; from: string } }[];
    }>("POST", "thread/message", { token: m1.token, body: { threadIds: [tid] } });
    expect(last.body.entities[0]).toMatchObject({
      thread_id: tid,
      last_message: { from: m2.name, payload: { bodies: [{ msg: "in thread 2" }] } },
    });
    const ofGroup = await im.call<{ entities: Record<string, unknown>[] }>(
      "GET",
      `threads/chatgroups/${gid}?cursor=&limit=20`,
      { token: m2.token },
    );
    expect(ofGroup.body.entities).toEqual([
      expect.objectContaining({ id: tid, name: "Chat", owner: m1.name, msgId: parent, groupId: gid }),
    ]);
    const mine = await im.call<{ entities: Record<string, unknown>[] }>(
      "GET",
      `threads/user/${m2.name}?limit=20&cursor=`,
      { token: m2.token },
    );
    expect(mine.body.entities.map((t) => t.id)).toEqual([tid]);
    const mineInGroup = await im.call<{ entities: Record<string, unknown>[] }>(
      "GET",
      `threads/chatgroups/${gid}/user/${m2.name}?limit=20&cursor=`,
      { token: m2.token },
    );
    expect(mineInGroup.body.entities.map((t) => t.id)).toEqual([tid]);
  });

  it("a batch of sends: one update_msg notice per thread with its count and newest message, none for a plain group send", async () => {
    const { m1, m2, m3, gid, parent } = await setup();
    const tid = (
      await im.call<Data<{ thread_id: string }>>("POST", "thread", {
        token: m1.token,
        body: { name: "Batch", msg_id: parent, group_id: gid, owner: m1.name },
      })
    ).body.data.thread_id;
    await im.call("POST", `thread/${tid}/user/${m2.name}/join`, { token: m2.token });
    const { history, deps } = im.t.app.im.services;
    const seen: ImDelivery[] = [];
    const stop = im.t.app.im.bus.subscribe((ds) => seen.push(...ds));
    const job = (from: string, to: string, msg: string) => {
      const input = { chatType: "groupchat" as const, from, to, body: { type: "txt", msg } };
      return { input, payload: history.buildPayload(input) };
    };
    try {
      const outcomes = await inScope(deps, (s) =>
        history.appendMany(s, [
          job(m1.name, tid, "a"),
          job(m3.name, gid, "plain"),
          job(m2.name, tid, "b"),
          job(m1.name, tid, "c"),
        ]),
      );
      expect(outcomes.every((o) => o.ok)).toBe(true);
      const newest = outcomes[3]?.ok ? outcomes[3].v.id : "";
      const notices = seen.filter((d) => d.notice.ns === "notify" && d.notice.type === "thread");
      expect(notices).toHaveLength(1);
      const [d] = notices;
      expect(d?.durable).toBe(false);
      expect([...(d?.to ?? [])].sort()).toEqual([m1.name, m2.name].sort());
      expect(d?.notice).toMatchObject({
        from: m1.name,
        detail: {
          operation: "update_msg",
          id: tid,
          name: "Batch",
          muc_parent_id: gid,
          msg_parent_id: parent,
          from: m1.name,
          message_count: 3,
          last_message: {
            id: newest,
            from: m1.name,
            to: `${tid}@conference.easemob.com`,
            payload: { bodies: [{ msg: "c" }] },
          },
        },
      });
    } finally {
      stop();
    }
    // The count is the thread's: the next batch goes on from it.
    await im.call("POST", "messages/threads", {
      token: m2.token,
      body: { to: [tid], type: "txt", body: { msg: "d" } },
    });
    const detail = await im.t.app.im.services.threads.detail({ kind: "user", username: m2.name }, tid);
    expect(detail.message_count).toBe(4);
  });

  it("rename, remove members and destroy: the creator or the group's owner and admins", async () => {
    const { admin, m1, m2, gid, parent } = await setup();
    const tid = (
      await im.call<Data<{ thread_id: string }>>("POST", "thread", {
        token: m1.token,
        body: { name: "Old", msg_id: parent, group_id: gid, owner: m1.name },
      })
    ).body.data.thread_id;
    await im.call("POST", `thread/${tid}/user/${m2.name}/join`, { token: m2.token });
    expect((await im.call("PUT", `thread/${tid}`, { token: m2.token, body: { name: "Mine" } })).status).toBe(403);
    const renamed = await im.call<Data<{ name: string }>>("PUT", `thread/${tid}?resource=web`, {
      token: m1.token,
      body: { name: "New" },
    });
    expect(renamed.body.data).toEqual({ name: "New" });
    expect((await im.call("DELETE", `thread/${tid}/users/${m1.name}`, { token: m2.token })).status).toBe(403);
    const removed = await im.call<Data<{ result: boolean; user: string }>>(
      "DELETE",
      `thread/${tid}/users/${m2.name}?resource=web`,
      { token: admin.token },
    );
    expect(removed.body.data).toEqual({ result: true, user: m2.name });
    expect((await im.call("DELETE", `thread/${tid}`, { token: m2.token })).status).toBe(403);
    expect((await im.call("DELETE", `thread/${tid}?resource=web`, { token: admin.token })).status).toBe(200);
    expect((await im.call("GET", `thread/${tid}`, { token: m1.token })).status).toBe(404);
    expect((await im.call("PUT", `thread/${tid}`, { token: m1.token, body: { name: "" } })).status).toBe(400);
  });
});
