import type { Selectable } from "kysely";
import type { Executor, Tx } from "../../db/tx";
import type { ImUsersTable } from "../tables";

export type ImUserRow = Selectable<ImUsersTable>;

export async function findUser(db: Executor, username: string): Promise<ImUserRow | undefined> {
  return db.selectFrom("im_users").selectAll().where("username", "=", username).executeTakeFirst();
}

/** Which of these usernames exist. */
export async function existingUsers(db: Executor, usernames: readonly string[]): Promise<Set<string>> {
  if (usernames.length === 0) return new Set();
  const rows = await db
    .selectFrom("im_users")
    .select("username")
    .where("username", "in", [...new Set(usernames)])
    .execute();
  return new Set(rows.map((r) => r.username));
}

export async function insertUser(
  db: Executor,
  u: {
    username: string;
    uuid: string;
    passwordHash: string | null;
    nickname: string;
    profile?: Record<string, string>;
    now: Date;
  },
): Promise<boolean> {
  const res = await db
    .insertInto("im_users")
    .values({
      username: u.username,
      uuid: u.uuid,
      password_hash: u.passwordHash,
      nickname: u.nickname,
      ...(u.profile && { profile: JSON.stringify(u.profile) }),
      created_at: u.now,
      modified_at: u.now,
    })
    .onConflict((oc) => oc.column("username").doNothing())
    .executeTakeFirst();
  return Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function updateUser(
  db: Executor,
  username: string,
  patch: Partial<{
    nickname: string;
    profile: Record<string, string>;
    push_language: string | null;
    device_id: string | null;
    device_token: string | null;
    notifier_name: string | null;
    password_hash: string;
    activated: boolean;
    token_epoch_ms: number;
  }>,
  now: Date,
): Promise<ImUserRow | undefined> {
  const { profile, ...rest } = patch;
  return db
    .updateTable("im_users")
    .set({ ...rest, ...(profile && { profile: JSON.stringify(profile) }), modified_at: now })
    .where("username", "=", username)
    .returningAll()
    .executeTakeFirst();
}

export async function profilesOf(
  db: Executor,
  usernames: readonly string[],
): Promise<Map<string, Record<string, string>>> {
  if (usernames.length === 0) return new Map();
  const rows = await db
    .selectFrom("im_users")
    .select(["username", "profile"])
    .where("username", "in", [...new Set(usernames)])
    .execute();
  return new Map(rows.map((r) => [r.username, r.profile]));
}

/** Deletes the user's devices, sync cursors and row, in that order. */
export async function deleteUser(tx: Tx, username: string): Promise<void> {
  await tx.deleteFrom("im_devices").where("username", "=", username).execute();
  await tx.deleteFrom("im_sync_cursors").where("username", "=", username).execute();
  await tx.deleteFrom("im_users").where("username", "=", username).execute();
}
