import { sql, type Selectable } from "kysely";
import type { Executor, Tx } from "../../db/tx";
import type { ImMucsTable, MucKind, MucRole } from "../tables";

/** Groups and chat rooms: their rows, the lists of them, chat-room attributes and group read receipts (members: members.ts). */

export type MucRow = Selectable<ImMucsTable>;

export async function nextId(tx: Executor): Promise<number> {
  const r = await sql<{ id: number }>`SELECT nextval('im_id_seq')::int8 AS id`.execute(tx);
  const id = r.rows[0]?.id;
  if (id === undefined) throw new Error("im_id_seq gave no value");
  return Number(id);
}

export async function insertMuc(
  tx: Tx,
  m: {
    id: number;
    kind: MucKind;
    name: string;
    description: string;
    owner: string;
    public: boolean;
    membersOnly: boolean;
    allowInvites: boolean;
    inviteNeedConfirm: boolean;
    maxUsers: number;
    custom: string;
    avatar: string;
    now: Date;
  },
): Promise<void> {
  await tx
    .insertInto("im_mucs")
    .values({
      id: m.id,
      kind: m.kind,
      name: m.name,
      description: m.description,
      owner: m.owner,
      public: m.public,
      members_only: m.membersOnly,
      allow_invites: m.allowInvites,
      invite_need_confirm: m.inviteNeedConfirm,
      max_users: m.maxUsers,
      custom: m.custom,
      avatar: m.avatar,
      created_at: m.now,
      modified_at: m.now,
    })
    .execute();
}

export async function findMuc(db: Executor, id: number, kind: MucKind): Promise<MucRow | undefined> {
  return db.selectFrom("im_mucs").selectAll().where("id", "=", id).where("kind", "=", kind).executeTakeFirst();
}

export async function findMucs(db: Executor, ids: readonly number[], kind: MucKind): Promise<MucRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom("im_mucs")
    .selectAll()
    .where("id", "in", [...ids])
    .where("kind", "=", kind)
    .execute();
}

/** Locks the row: membership changes of one group or room run one at a time. */
export async function lockMuc(tx: Tx, id: number, kind: MucKind): Promise<MucRow | undefined> {
  return tx
    .selectFrom("im_mucs")
    .selectAll()
    .where("id", "=", id)
    .where("kind", "=", kind)
    .forUpdate()
    .executeTakeFirst();
}

export async function updateMuc(
  tx: Tx,
  id: number,
  patch: Partial<{
    name: string;
    description: string;
    owner: string;
    public: boolean;
    members_only: boolean;
    allow_invites: boolean;
    invite_need_confirm: boolean;
    max_users: number;
    custom: string;
    avatar: string;
    announcement: string;
    mute_all: boolean;
    disabled: boolean;
  }>,
  now: Date,
): Promise<void> {
  await tx
    .updateTable("im_mucs")
    .set({ ...patch, modified_at: now })
    .where("id", "=", id)
    .execute();
}

export async function deleteMuc(tx: Tx, id: number): Promise<void> {
  await tx.deleteFrom("im_mucs").where("id", "=", id).execute();
}

/** Keeps member_count equal to the member rows (the muc row is locked by the caller). */
export async function refreshCount(tx: Tx, id: number): Promise<number> {
  const r = await tx
    .updateTable("im_mucs")
    .set({ member_count: sql<number>`(SELECT count(*) FROM im_muc_members WHERE muc_id = ${id})` })
    .where("id", "=", id)
    .returning("member_count")
    .executeTakeFirst();
  return r?.member_count ?? 0;
}

/** The kind of a group or room by id, whichever it is (history: a conversation id names either). */
export async function mucKind(db: Executor, id: number): Promise<{ id: number; kind: MucKind } | undefined> {
  return db.selectFrom("im_mucs").select(["id", "kind"]).where("id", "=", id).executeTakeFirst();
}

/** The groups and rooms a user owns (deleting the user dissolves them first). */
export async function mucsOwnedBy(db: Executor, owner: string): Promise<{ id: number; kind: MucKind }[]> {
  return db.selectFrom("im_mucs").select(["id", "kind"]).where("owner", "=", owner).execute();
}

/** A user's groups or rooms, newest membership first. */
export async function joinedPage(
  db: Executor,
  username: string,
  kind: MucKind,
  offset: number,
  limit: number,
): Promise<(MucRow & { role: MucRole; shielded: boolean; joined_at: Date })[]> {
  return db
    .selectFrom("im_muc_members as m")
    .innerJoin("im_mucs as g", "g.id", "m.muc_id")
    .selectAll("g")
    .select(["m.role", "m.shielded", "m.joined_at"])
    .where("m.username", "=", username)
    .where("g.kind", "=", kind)
    .orderBy("m.joined_at", "desc")
    .orderBy("g.id", "desc")
    .offset(offset)
    .limit(limit)
    .execute();
}

export async function joinedCount(db: Executor, username: string, kind: MucKind): Promise<number> {
  const r = await db
    .selectFrom("im_muc_members as m")
    .innerJoin("im_mucs as g", "g.id", "m.muc_id")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("m.username", "=", username)
    .where("g.kind", "=", kind)
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

export async function publicGroupsAfter(db: Executor, afterId: number, limit: number): Promise<MucRow[]> {
  return db
    .selectFrom("im_mucs")
    .selectAll()
    .where("kind", "=", "group")
    .where("public", "=", true)
    .where("id", ">", afterId)
    .orderBy("id")
    .limit(limit)
    .execute();
}

export async function roomPage(db: Executor, offset: number, limit: number): Promise<MucRow[]> {
  return db
    .selectFrom("im_mucs")
    .selectAll()
    .where("kind", "=", "room")
    .orderBy("id")
    .offset(offset)
    .limit(limit)
    .execute();
}

/* ---------- chat-room attributes ---------- */

export interface RoomAttrRow {
  key: string;
  value: string;
  owner: string;
  auto_delete: boolean;
}

export async function roomAttrs(db: Executor, id: number, keys?: readonly string[]): Promise<RoomAttrRow[]> {
  let q = db.selectFrom("im_room_attrs").select(["key", "value", "owner", "auto_delete"]).where("muc_id", "=", id);
  if (keys && keys.length > 0) q = q.where("key", "in", [...keys]);
  return q.orderBy("key").execute();
}

export async function putRoomAttrs(
  tx: Tx,
  id: number,
  rows: readonly { key: string; value: string; owner: string; autoDelete: boolean }[],
  now: Date,
): Promise<void> {
  if (rows.length === 0) return;
  await tx
    .insertInto("im_room_attrs")
    .values(
      rows.map((r) => ({
        muc_id: id,
        key: r.key,
        value: r.value,
        owner: r.owner,
        auto_delete: r.autoDelete,
        updated_at: now,
      })),
    )
    .onConflict((oc) =>
      oc.columns(["muc_id", "key"]).doUpdateSet((eb) => ({
        value: eb.ref("excluded.value"),
        owner: eb.ref("excluded.owner"),
        auto_delete: eb.ref("excluded.auto_delete"),
        updated_at: eb.ref("excluded.updated_at"),
      })),
    )
    .execute();
}

export async function deleteRoomAttrs(tx: Tx, id: number, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  await tx
    .deleteFrom("im_room_attrs")
    .where("muc_id", "=", id)
    .where("key", "in", [...keys])
    .execute();
}

/** Removes the auto-delete attributes set by users who left; returns the keys removed. */
export async function dropAutoDeleteAttrs(tx: Tx, id: number, owners: readonly string[]): Promise<string[]> {
  if (owners.length === 0) return [];
  const rows = await tx
    .deleteFrom("im_room_attrs")
    .where("muc_id", "=", id)
    .where("owner", "in", [...owners])
    .where("auto_delete", "=", true)
    .returning("key")
    .execute();
  return rows.map((r) => r.key);
}

/* ---------- group read receipts ---------- */

export async function readAcksAfter(
  db: Executor,
  messageId: number,
  after: { readMs: number; username: string } | null,
  limit: number,
): Promise<{ username: string; read_at: Date }[]> {
  let q = db.selectFrom("im_group_read_acks").select(["username", "read_at"]).where("message_id", "=", messageId);
  if (after) {
    q = q.where(sql<boolean>`(read_at, username) > (${new Date(after.readMs)}::timestamptz, ${after.username})`);
  }
  return q.orderBy("read_at").orderBy("username").limit(limit).execute();
}

export async function readAckCount(db: Executor, messageId: number): Promise<number> {
  const r = await db
    .selectFrom("im_group_read_acks")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("message_id", "=", messageId)
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

/** Records that `username` read a group message (the gateway calls this on read receipts). */
export async function recordReadAck(tx: Executor, messageId: number, username: string, now: Date): Promise<void> {
  await tx
    .insertInto("im_group_read_acks")
    .values({ message_id: messageId, username, read_at: now })
    .onConflict((oc) => oc.columns(["message_id", "username"]).doNothing())
    .execute();
}
