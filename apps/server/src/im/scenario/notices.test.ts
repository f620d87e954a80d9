import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openRecording, startScenario, until, type Client, type Scenario } from "./setup";

/**
 * The NOTIFY notices as a client SDK (the published one, then ours: see clients.ts) parses them, over
 * the real websocket: each handler receives its fields with the right values (issue 24 item 12: the
 * published client walks a reaction notice's `data` as a list, and a single object crashed it).
 */
type Event = { [k: string]: unknown };
interface Online extends Client {
  events: Record<string, Event[]>;
}

const HANDLERS = ["onReactionChange", "onPresenceStatusChange", "onError"];

let s: Scenario;
let alice: Online;
let bob: Online;
let groupId: string;

async function online(c: Client): Promise<Online> {
  return { ...c, events: await openRecording<Event>(c, HANDLERS) };
}

/** Stores a message from `from` through the server-side send API; returns its server id. */
async function store(from: Client, kind: "users" | "chatgroups", to: string, text: string): Promise<string> {
  const res = await s.im.call<{ data: Record<string, string> }>("POST", `messages/${kind}`, {
    token: from.conn.token,
    body: { to: [to], type: "txt", body: { msg: text } },
  });
  const id = res.body.data[to];
  if (res.status !== 200 || !id) throw new Error(`send failed: ${JSON.stringify(res.body)}`);
  return id;
}

beforeAll(async () => {
  s = await startScenario();
  const [a, b] = await Promise.all([s.client("alice"), s.client("bob")]);
  alice = await online(a);
  bob = await online(b);
  const g = await alice.call<{ data: { groupid: string } }>("createGroup", {
    data: {
      groupname: "Notices",
      desc: "",
      members: [bob.name],
      public: false,
      approval: false,
      allowinvites: false,
      inviteNeedConfirm: false,
      maxusers: 20,
    },
  });
  groupId = g.data.groupid;
});
afterAll(async () => {
  for (const c of [alice, bob]) if (c) (c.conn.close as () => void).call(c.conn);
  await s?.close();
});

describe("reaction", () => {
  test("a reaction in a group reaches the members as onReactionChange with the message, the operator and the reaction's state", async () => {
    const msgId = await store(alice, "chatgroups", groupId, "lunch?");
    await bob.call("addReaction", { messageId: msgId, reaction: "👍" });
    const onAlice = await until(
      () => alice.events.onReactionChange?.find((e) => e.messageId === msgId),
      "alice's reaction event",
    );
    expect(onAlice).toMatchObject({ from: bob.name, to: groupId, chatType: "groupChat", messageId: msgId });
    expect(typeof onAlice.ts).toBe("number");
    expect(onAlice.reactions).toEqual([
      { reaction: "👍", count: 1, userList: [bob.name], op: [{ operator: bob.name, reactionType: "create" }] },
    ]);

    await bob.call("deleteReaction", { messageId: msgId, reaction: "👍" });
    const removed = await until(
      () =>
        alice.events.onReactionChange?.find(
          (e) => e.messageId === msgId && (e.reactions as { count: number }[])[0]?.count === 0,
        ),
      "the removal",
    );
    expect(removed.reactions).toEqual([
      { reaction: "👍", count: 0, userList: [], op: [{ operator: bob.name, reactionType: "delete" }] },
    ]);
    expect(alice.events.onError).toEqual([]);
  });

  test("a reaction to a one-to-one message reaches the peer as a single-chat change", async () => {
    const msgId = await store(alice, "users", bob.name, "hello");
    await bob.call("addReaction", { messageId: msgId, reaction: "❤️" });
    const ev = await until(
      () => alice.events.onReactionChange?.find((e) => e.messageId === msgId),
      "the peer's reaction event",
    );
    expect(ev).toMatchObject({
      from: bob.name,
      to: alice.name,
      chatType: "singleChat",
      messageId: msgId,
      reactions: [{ reaction: "❤️", count: 1, userList: [bob.name] }],
    });
  });
});

describe("presence", () => {
  test("a subscriber receives onPresenceStatusChange with the user, the description and the device statuses", async () => {
    await bob.call("subscribePresence", { usernames: [alice.name], expiry: 3600 });
    await alice.call("publishPresence", { description: "in a meeting" });
    const ev = await until(
      () => bob.events.onPresenceStatusChange?.flat().find((e) => e.userId === alice.name && e.ext === "in a meeting"),
      "presence change",
    );
    expect(ev).toMatchObject({ userId: alice.name, ext: "in a meeting" });
    expect(typeof ev.lastTime).toBe("number");
    expect(Array.isArray(ev.statusDetails)).toBe(true);
  });
});
