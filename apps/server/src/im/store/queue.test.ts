import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/kit/use-test-app";
import type { Db } from "../../db/tx";
import { acknowledgeMany } from "../gateway/acks";
import { recordDevice } from "../gateway/sync";
import { appendMessages, convKey, purgeBefore, type Fanout, type NewMessage } from "./messages";
import { mucQueue, purgeReadEntries } from "./inbox";

/**
 * The sync queue has no foreign keys (migration 0083): the code that removes messages and entries removes
 * what hangs on them. On PostgreSQL the test files share one database, so the times here lie decades
 * back, where no other test writes, and every query names this file's own users.
 */
const t = useTestApp();
let db: Db;
beforeAll(() => {
  db = t.ctx.database.db;
});

const names = () => {
  const tag = randomUUID().slice(0, 8);
  return { a: `qa-${tag}`, b: `qb-${tag}`, group: String(Math.floor(Math.random() * 1e12)) };
};

/**
 * A group message from a that queues an entry for b and a copy for a's other devices (one-to-one
 * messages are delivered from their conversation, without entries: migration 0089).
 */
function queued(from: string, group: string, to: string, text: string): { m: NewMessage; fan: Fanout } {
  return {
    m: {
      chatType: "groupchat",
      from,
      fromResource: "ra",
      to: group,
      payload: { type: "groupchat", from, to: group, bodies: [{ type: "txt", msg: text }], ext: {} },
      clientId: randomUUID(),
    },
    fan: { unreadFor: [to], inboxFor: [to], senderCopy: true, senderQueueCopy: true },
  };
}

const entriesOf = async (ids: readonly number[]) =>
  ids.length === 0
    ? []
    : (
        await db
          .selectFrom("im_inbox")
          .select(["id", "username"])
          .where("id", "in", [...ids])
          .orderBy("id")
          .execute()
      ).map((r) => Number(r.id));
const marksOf = async (ids: readonly number[]) =>
  ids.length === 0
    ? []
    : (
        await db
          .selectFrom("im_inbox_acks")
          .select(["inbox_id", "resource"])
          .where("inbox_id", "in", [...ids])
          .orderBy("resource")
          .execute()
      ).map((r) => `${r.inbox_id}:${r.resource}`);

describe("sync queue without foreign keys", () => {
  it("retention removes old messages with their queue entries and the devices' marks on them", async () => {
    const { a, b, group } = names();
    const old = await appendMessages(
      db,
      [queued(a, group, b, "old 1"), queued(a, group, b, "old 2")],
      new Date(Date.UTC(1971, 0, 1)),
    );
    const kept = await appendMessages(db, [queued(a, group, b, "new")], new Date(Date.UTC(1971, 0, 3)));
    const oldEntries = old.flatMap((m) => m.inbox.map((e) => e.id));
    expect(oldEntries).toHaveLength(4);
    await sql`INSERT INTO im_inbox_acks (inbox_id, resource) VALUES (${oldEntries[0]}, 'r1'), (${oldEntries[1]}, 'r2')`.execute(
      db,
    );

    let purged = 0;
    for (
      let n = await purgeBefore(db, Date.UTC(1971, 0, 2), 1);
      n > 0;
      n = await purgeBefore(db, Date.UTC(1971, 0, 2), 1)
    ) {
      purged += n;
    }

    expect(purged).toBe(2);
    const left = await db
      .selectFrom("im_messages")
      .select("id")
      .where("conv_key", "=", convKey("groupchat", a, group))
      .execute();
    expect(left.map((r) => Number(r.id))).toEqual(kept.map((m) => m.id));
    expect(await entriesOf(oldEntries)).toEqual([]);
    expect(await marksOf(oldEntries)).toEqual([]);
    const keptEntries = kept.flatMap((m) => m.inbox.map((e) => e.id));
    expect(await entriesOf(keptEntries)).toEqual(keptEntries);
  });

  it("an entry goes, with the marks on it, once every recent device of its user has acknowledged it", async () => {
    const { a, b, group } = names();
    const now = new Date();
    await recordDevice(t.ctx.database.db, b, "r1", now, "node-test");
    await recordDevice(t.ctx.database.db, b, "r2", now, "node-test");
    const [sent] = await appendMessages(db, [queued(a, group, b, "hello")], now);
    const entry = sent?.inbox.find((e) => e.username === b)?.id as number;

    // Another user's acknowledgement leaves the entry alone.
    await acknowledgeMany(db, [{ username: a, resource: "ra", queue: mucQueue(group), ids: [entry] }], now);
    expect(await entriesOf([entry])).toEqual([entry]);
    expect(await marksOf([entry])).toEqual([]);

    await acknowledgeMany(db, [{ username: b, resource: "r1", queue: mucQueue(group), ids: [entry] }], now);
    expect(await entriesOf([entry])).toEqual([entry]);
    expect(await marksOf([entry])).toEqual([`${entry}:r1`]);

    await acknowledgeMany(db, [{ username: b, resource: "r2", queue: mucQueue(group), ids: [entry] }], now);
    expect(await entriesOf([entry])).toEqual([]);
    expect(await marksOf([entry])).toEqual([]);
  });

  it("the read-entries purge removes old entries some device read, with their marks, and keeps unread ones", async () => {
    const { a, b, group } = names();
    const then = new Date(Date.UTC(1971, 0, 1));
    const [read, unread] = await appendMessages(db, [queued(a, group, b, "read"), queued(a, group, b, "unread")], then);
    const readEntry = read?.inbox.find((e) => e.username === b)?.id as number;
    const unreadEntry = unread?.inbox.find((e) => e.username === b)?.id as number;
    await sql`INSERT INTO im_inbox_acks (inbox_id, resource) VALUES (${readEntry}, 'r1')`.execute(db);

    await purgeReadEntries(db, new Date(Date.UTC(1971, 0, 2)));

    expect(await entriesOf([readEntry, unreadEntry])).toEqual([unreadEntry]);
    expect(await marksOf([readEntry])).toEqual([]);
    // The sender's copies (skip_resource set) wait for no device that read them: they go too.
    expect(
      await db
        .selectFrom("im_inbox")
        .select("id")
        .where("username", "=", a)
        .where("queue", "=", mucQueue(group))
        .execute(),
    ).toEqual([]);
  });
});
