import { sql } from "kysely";
import type { Executor, Tx } from "../../db/tx";
import type { MucRole } from "../tables";

/** The members of groups and chat rooms, their roles, mutes, blocks, allowlist, requests and attributes. */

/* ---------- members ---------- */

export interface MemberRow {
  username: string;
  role: MucRole;
  joined_at: Date;
  shielded: boolean;
}

export async function findMember(db: Executor, id: number, username: string): Promise<MemberRow | undefined> {
  return db
    .selectFrom("im_muc_members")
    .select(["username", "role", "joined_at", "shielded"])
    .where("muc_id", "=", id)
    .where("username", "=", username)
    .executeTakeFirst();
}

export async function membersAmong(
  db: Executor,
  id: number,
  usernames: readonly string[],
): Promise<Map<string, MemberRow>> {
  if (usernames.length === 0) return new Map();
  const rows = await db
    .selectFrom("im_muc_members")
    .select(["username", "role", "joined_at", "shielded"])
    .where("muc_id", "=", id)
    .where("username", "in", [...new Set(usernames)])
    .execute();
  return new Map(rows.map((r) => [r.username, r]));
}

export async function allMemberNames(db: Executor, id: number): Promise<string[]> {
  const rows = await db.selectFrom("im_muc_members").select("username").where("muc_id", "=", id).execute();
  return rows.map((r) => r.username);
}

export async function addMembers(
  tx: Tx,
  id: number,
  members: readonly { username: string; role: MucRole }[],
  now: Date,
): Promise<string[]> {
  if (members.length === 0) return [];
  const rows = await tx
    .insertInto("im_muc_members")
    .values(members.map((m) => ({ muc_id: id, username: m.username, role: m.role, joined_at: now })))
    .onConflict((oc) => oc.columns(["muc_id", "username"]).doNothing())
    .returning("username")
    .execute();
  return rows.map((r) => r.username);
}

export async function removeMembers(tx: Tx, id: number, usernames: readonly string[]): Promise<string[]> {
  if (usernames.length === 0) return [];
  const rows = await tx
    .deleteFrom("im_muc_members")
    .where("muc_id", "=", id)
    .where("username", "in", [...usernames])
    .returning("username")
    .execute();
  return rows.map((r) => r.username);
}

export async function setRole(tx: Tx, id: number, username: string, role: MucRole): Promise<void> {
  await tx
    .updateTable("im_muc_members")
    .set({ role })
    .where("muc_id", "=", id)
    .where("username", "=", username)
    .execute();
}

export async function setShielded(tx: Tx, id: number, username: string, shielded: boolean): Promise<boolean> {
  const r = await tx
    .updateTable("im_muc_members")
    .set({ shielded })
    .where("muc_id", "=", id)
    .where("username", "=", username)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function adminNames(db: Executor, id: number): Promise<string[]> {
  const rows = await db
    .selectFrom("im_muc_members")
    .select("username")
    .where("muc_id", "=", id)
    .where("role", "=", "admin")
    .orderBy("joined_at")
    .orderBy("username")
    .execute();
  return rows.map((r) => r.username);
}

/** Owner first, then everyone by join time: one page by offset. */
export async function memberPage(db: Executor, id: number, offset: number, limit: number): Promise<MemberRow[]> {
  return db
    .selectFrom("im_muc_members")
    .select(["username", "role", "joined_at", "shielded"])
    .where("muc_id", "=", id)
    .orderBy(sql`(role <> 'owner')`)
    .orderBy("joined_at")
    .orderBy("username")
    .offset(offset)
    .limit(limit)
    .execute();
}

/** The same order by keyset: members after (isMember, joinedAt, username). */
export async function memberPageAfter(
  db: Executor,
  id: number,
  after: { notOwner: boolean; joinedMs: number; username: string } | null,
  limit: number,
): Promise<MemberRow[]> {
  let q = db
    .selectFrom("im_muc_members")
    .select(["username", "role", "joined_at", "shielded"])
    .where("muc_id", "=", id);
  if (after) {
    q = q.where(
      sql<boolean>`((role <> 'owner'), joined_at, username) > (${after.notOwner}, ${new Date(after.joinedMs)}::timestamptz, ${after.username})`,
    );
  }
  return q
    .orderBy(sql`(role <> 'owner')`)
    .orderBy("joined_at")
    .orderBy("username")
    .limit(limit)
    .execute();
}

/** Every member's name and whether it shielded the group (a group send's fan-out). */
export async function memberShields(db: Executor, id: number): Promise<{ username: string; shielded: boolean }[]> {
  return db.selectFrom("im_muc_members").select(["username", "shielded"]).where("muc_id", "=", id).execute();
}

/** Whether `username` is a member (the gateway's group read receipts). */
export async function isMember(db: Executor, id: number, username: string): Promise<boolean> {
  const r = await db
    .selectFrom("im_muc_members")
    .select("username")
    .where("muc_id", "=", id)
    .where("username", "=", username)
    .executeTakeFirst();
  return r !== undefined;
}

/* ---------- mutes, blocks, allowlist ---------- */

export async function setMutes(tx: Tx, id: number, usernames: readonly string[], until: Date): Promise<void> {
  if (usernames.length === 0) return;
  await tx
    .insertInto("im_muc_mutes")
    .values(usernames.map((username) => ({ muc_id: id, username, until })))
    .onConflict((oc) => oc.columns(["muc_id", "username"]).doUpdateSet({ until }))
    .execute();
}

export async function deleteMutes(tx: Tx, id: number, usernames: readonly string[]): Promise<string[]> {
  if (usernames.length === 0) return [];
  const rows = await tx
    .deleteFrom("im_muc_mutes")
    .where("muc_id", "=", id)
    .where("username", "in", [...usernames])
    .returning("username")
    .execute();
  return rows.map((r) => r.username);
}

/** Mutes still in force at `now`. */
export async function activeMutes(db: Executor, id: number, now: Date): Promise<{ username: string; until: Date }[]> {
  return db
    .selectFrom("im_muc_mutes")
    .select(["username", "until"])
    .where("muc_id", "=", id)
    .where("until", ">", now)
    .orderBy("until")
    .orderBy("username")
    .execute();
}

export async function muteOf(db: Executor, id: number, username: string, now: Date): Promise<Date | null> {
  const r = await db
    .selectFrom("im_muc_mutes")
    .select("until")
    .where("muc_id", "=", id)
    .where("username", "=", username)
    .where("until", ">", now)
    .executeTakeFirst();
  return r?.until ?? null;
}

type ListTable = "im_muc_blocks" | "im_muc_allowlist";

export async function addToList(
  tx: Tx,
  table: ListTable,
  id: number,
  usernames: readonly string[],
  now: Date,
): Promise<void> {
  if (usernames.length === 0) return;
  await tx
    .insertInto(table)
    .values(usernames.map((username) => ({ muc_id: id, username, created_at: now })))
    .onConflict((oc) => oc.columns(["muc_id", "username"]).doNothing())
    .execute();
}

export async function removeFromList(
  tx: Tx,
  table: ListTable,
  id: number,
  usernames: readonly string[],
): Promise<string[]> {
  if (usernames.length === 0) return [];
  const rows = await tx
    .deleteFrom(table)
    .where("muc_id", "=", id)
    .where("username", "in", [...usernames])
    .returning("username")
    .execute();
  return rows.map((r) => r.username);
}

export async function listOf(db: Executor, table: ListTable, id: number): Promise<string[]> {
  const rows = await db
    .selectFrom(table)
    .select("username")
    .where("muc_id", "=", id)
    .orderBy("created_at")
    .orderBy("username")
    .execute();
  return rows.map((r) => r.username);
}

export async function inList(
  db: Executor,
  table: ListTable,
  id: number,
  usernames: readonly string[],
): Promise<Set<string>> {
  if (usernames.length === 0) return new Set();
  const rows = await db
    .selectFrom(table)
    .select("username")
    .where("muc_id", "=", id)
    .where("username", "in", [...new Set(usernames)])
    .execute();
  return new Set(rows.map((r) => r.username));
}

/* ---------- join requests and invitations ---------- */

export async function upsertRequest(
  tx: Tx,
  r: { mucId: number; username: string; kind: "apply" | "invite"; inviter: string | null; reason: string; now: Date },
): Promise<void> {
  await tx
    .insertInto("im_muc_requests")
    .values({
      muc_id: r.mucId,
      username: r.username,
      kind: r.kind,
      inviter: r.inviter,
      reason: r.reason,
      created_at: r.now,
    })
    .onConflict((oc) =>
      oc
        .columns(["muc_id", "username", "kind"])
        .doUpdateSet({ inviter: r.inviter, reason: r.reason, created_at: r.now }),
    )
    .execute();
}

export async function takeRequest(
  tx: Tx,
  mucId: number,
  username: string,
  kind: "apply" | "invite",
): Promise<{ inviter: string | null; reason: string } | undefined> {
  return tx
    .deleteFrom("im_muc_requests")
    .where("muc_id", "=", mucId)
    .where("username", "=", username)
    .where("kind", "=", kind)
    .returning(["inviter", "reason"])
    .executeTakeFirst();
}

export async function dropRequests(tx: Tx, mucId: number, usernames: readonly string[]): Promise<void> {
  if (usernames.length === 0) return;
  await tx
    .deleteFrom("im_muc_requests")
    .where("muc_id", "=", mucId)
    .where("username", "in", [...usernames])
    .execute();
}

/* ---------- member attributes (groups) ---------- */

export async function memberAttrs(
  db: Executor,
  id: number,
  usernames: readonly string[],
  keys: readonly string[],
): Promise<{ username: string; key: string; value: string }[]> {
  if (usernames.length === 0) return [];
  let q = db
    .selectFrom("im_muc_member_attrs")
    .select(["username", "key", "value"])
    .where("muc_id", "=", id)
    .where("username", "in", [...usernames]);
  if (keys.length > 0) q = q.where("key", "in", [...keys]);
  return q.orderBy("username").orderBy("key").execute();
}

export async function putMemberAttrs(
  tx: Tx,
  id: number,
  username: string,
  set: Record<string, string>,
  remove: readonly string[],
): Promise<void> {
  if (remove.length > 0) {
    await tx
      .deleteFrom("im_muc_member_attrs")
      .where("muc_id", "=", id)
      .where("username", "=", username)
      .where("key", "in", [...remove])
      .execute();
  }
  const entries = Object.entries(set);
  if (entries.length === 0) return;
  await tx
    .insertInto("im_muc_member_attrs")
    .values(entries.map(([key, value]) => ({ muc_id: id, username, key, value })))
    .onConflict((oc) =>
      oc.columns(["muc_id", "username", "key"]).doUpdateSet((eb) => ({ value: eb.ref("excluded.value") })),
    )
    .execute();
}

export async function dropMemberAttrs(tx: Tx, id: number, usernames: readonly string[]): Promise<void> {
  if (usernames.length === 0) return;
  await tx
    .deleteFrom("im_muc_member_attrs")
    .where("muc_id", "=", id)
    .where("username", "in", [...usernames])
    .execute();
}
