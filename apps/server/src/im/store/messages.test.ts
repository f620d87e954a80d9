import { randomUUID } from "node:crypto";
import type { ImMessagePayload } from "@tessera/contracts";
import { beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/kit/use-test-app";
import type { Db } from "../../db/tx";
import { encodeMessageBody } from "../proto/message";
import { appendMessages, findMessage, history } from "./messages";

const t = useTestApp();
let db: Db;
beforeAll(() => {
  db = t.ctx.database.db;
});

describe("messages stored in one form", () => {
  it("a message with the client's protobuf bytes is stored without its JSON form, and read back with it", async () => {
    const tag = randomUUID().slice(0, 8);
    const [from, to] = [`fa-${tag}`, `fb-${tag}`];
    const payload: ImMessagePayload = {
      type: "chat",
      from,
      to,
      bodies: [{ type: "txt", msg: 'line one\nline "two" ✓' }],
      ext: { order: "42", nested: { ok: true } },
      msgConfig: { allowGroupAck: true },
    };
    const bodyPb = encodeMessageBody("tessera#im", payload);
    const [sent] = await appendMessages(
      db,
      [
        {
          m: { chatType: "chat", from, fromResource: "r1", to, payload, bodyPb, clientId: randomUUID() },
          fan: { unreadFor: [to], inboxFor: [to], senderCopy: true },
        },
      ],
      new Date(),
    );
    const id = sent?.id as number;

    const raw = await db
      .selectFrom("im_messages")
      .select(["payload", "body_pb"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(raw.payload).toBeNull();
    expect(raw.body_pb).not.toBeNull();
    expect((await findMessage(db, id))?.payload).toEqual(payload);
    const page = await history(db, {
      convKey: `c:${from}:${to}`,
      username: to,
      direction: "up",
      afterSeq: null,
      limit: 10,
      clearedSeq: 0,
      clearedMs: 0,
      minMs: 0,
    });
    expect(page.map((m) => m.payload)).toEqual([payload]);
  });

  it("a message without protobuf bytes (sent through REST) keeps its JSON form", async () => {
    const tag = randomUUID().slice(0, 8);
    const [from, to] = [`ra-${tag}`, `rb-${tag}`];
    const payload: ImMessagePayload = { type: "chat", from, to, bodies: [{ type: "cmd", action: "refresh" }], ext: {} };
    const [sent] = await appendMessages(
      db,
      [{ m: { chatType: "chat", from, to, payload }, fan: { unreadFor: [to], inboxFor: [to], senderCopy: true } }],
      new Date(),
    );
    const raw = await db
      .selectFrom("im_messages")
      .select("payload")
      .where("id", "=", sent?.id as number)
      .executeTakeFirstOrThrow();
    expect(raw.payload).toEqual(payload);
  });
});
