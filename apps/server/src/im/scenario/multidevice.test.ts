import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openRecording, startScenario, until, type Client, type Scenario } from "./setup";

/**
 * One user on two devices with a client SDK (the published one, then ours: see clients.ts): what one
 * device changes reaches the other as `onMultiDeviceEvent` (group member attributes, silent mode), while
 * the other members of a group hear of member attributes as an ordinary group event.
 */
type Event = Record<string, unknown> & { operation?: string };

interface Online extends Client {
  events: Record<string, Event[]>;
}

const HANDLERS = ["onMultiDeviceEvent", "onGroupEvent"];

let s: Scenario;
let phone: Online;
let desk: Online;
let bob: Online;
let groupId: string;

async function online(c: Client): Promise<Online> {
  const events = await openRecording<Event>(c, HANDLERS);
  return { ...c, events };
}

const find = (c: Online, handler: string, match: (e: Event) => boolean) => () => c.events[handler]?.find(match);

beforeAll(async () => {
  s = await startScenario();
  const first = await s.client("alice");
  bob = await online(await s.client("bob"));
  phone = await online(await s.device(first.name, "phone"));
  desk = await online(await s.device(first.name, "desk"));
  const created = await phone.call<{ data: { groupid: string } }>("createGroup", {
    data: {
      groupname: "Devices",
      desc: "",
      members: [bob.name],
      public: false,
      approval: false,
      allowinvites: false,
      inviteNeedConfirm: false,
      maxusers: 20,
    },
  });
  groupId = created.data.groupid;
});
afterAll(async () => {
  for (const c of [phone, desk, bob]) if (c) (c.conn.close as () => void).call(c.conn);
  await s?.close();
});

describe("one user on two devices", () => {
  test("the devices have different resources", () => {
    expect(phone.conn.clientResource).not.toBe("");
    expect(phone.conn.clientResource).not.toBe(desk.conn.clientResource);
  });

  test("member attributes set on one device: a multi-device event on the other, a group event for the other members", async () => {
    await phone.call("setGroupMemberAttributes", { groupId, userId: phone.name, memberAttributes: { nick: "Phone" } });
    const mine = (e: Event) => e.operation === "memberAttributesUpdate" && e.userId === phone.name;
    const onDesk = await until(find(desk, "onMultiDeviceEvent", mine), "the desk's multi-device event");
    expect(onDesk).toMatchObject({
      operation: "memberAttributesUpdate",
      id: groupId,
      from: phone.name,
      userId: phone.name,
      attributes: { nick: "Phone" },
    });
    const onBob = await until(find(bob, "onGroupEvent", mine), "bob's group event");
    expect(onBob).toMatchObject({ id: groupId, from: phone.name, attributes: { nick: "Phone" } });
    expect(desk.events.onGroupEvent?.filter(mine)).toEqual([]);

    // Bob's own change comes later in the same group queue: once the phone has it, the phone would
    // have had its own change before it, had the server sent it there.
    await bob.call("setGroupMemberAttributes", { groupId, userId: bob.name, memberAttributes: { nick: "Bob" } });
    const bobs = (e: Event) => e.operation === "memberAttributesUpdate" && e.userId === bob.name;
    expect(await until(find(phone, "onGroupEvent", bobs), "bob's change on the phone")).toMatchObject({
      from: bob.name,
      attributes: { nick: "Bob" },
    });
    expect(await until(find(desk, "onGroupEvent", bobs), "bob's change on the desk")).toMatchObject({ from: bob.name });
    expect([...(phone.events.onGroupEvent ?? []), ...(phone.events.onMultiDeviceEvent ?? [])].filter(mine)).toEqual([]);
  });

  test("silent mode for all conversations set on one device reaches the other", async () => {
    await phone.call("setSilentModeForAll", {
      options: { paramType: 2, startTime: { hours: 22, minutes: 30 }, endTime: { hours: 7, minutes: 15 } },
    });
    const ev = await until(
      find(desk, "onMultiDeviceEvent", (e) => e.operation === "setSilentModeForUser"),
      "setSilentModeForUser",
    );
    expect(ev).toMatchObject({ resource: phone.conn.clientResource, data: { ignoreInterval: "22:30-7:15" } });
  });

  test("a conversation's silent mode set and removed on one device reaches the other", async () => {
    await phone.call("setSilentModeForConversation", {
      conversationId: bob.name,
      type: "singleChat",
      options: { paramType: 0, remindType: "NONE" },
    });
    const set = await until(
      find(
        desk,
        "onMultiDeviceEvent",
        (e) => e.operation === "setSilentModeForConversation" && e.conversationId === bob.name,
      ),
      "set for bob",
    );
    expect(set).toMatchObject({ type: "singleChat", resource: phone.conn.clientResource, data: { type: "NONE" } });

    await phone.call("setSilentModeForConversation", {
      conversationId: groupId,
      type: "groupChat",
      options: { paramType: 1, duration: 3_600_000 },
    });
    const group = await until(
      find(
        desk,
        "onMultiDeviceEvent",
        (e) => e.operation === "setSilentModeForConversation" && e.conversationId === groupId,
      ),
      "set for the group",
    );
    expect(group).toMatchObject({ type: "groupChat", resource: phone.conn.clientResource });
    expect((group.data as { ignoreDuration?: number }).ignoreDuration).toBeGreaterThan(0);

    await phone.call("clearRemindTypeForConversation", { conversationId: bob.name, type: "singleChat" });
    const removed = await until(
      find(
        desk,
        "onMultiDeviceEvent",
        (e) => e.operation === "removeSilentModeForConversation" && e.conversationId === bob.name,
      ),
      "removal for bob",
    );
    expect(removed).toMatchObject({ type: "singleChat", resource: phone.conn.clientResource, data: {} });

    // The desk's own change comes back to the phone, not to the desk: the phone then has seen every
    // earlier one of its own, so none of them reached it.
    await desk.call("setSilentModeForConversation", {
      conversationId: bob.name,
      type: "singleChat",
      options: { paramType: 0, remindType: "AT" },
    });
    const back = await until(
      find(
        phone,
        "onMultiDeviceEvent",
        (e) => e.operation === "setSilentModeForConversation" && e.resource === desk.conn.clientResource,
      ),
      "the desk's change on the phone",
    );
    expect(back).toMatchObject({ conversationId: bob.name, data: { type: "AT" } });
    expect(phone.events.onMultiDeviceEvent?.filter((e) => e.resource === phone.conn.clientResource)).toEqual([]);
  });
});
