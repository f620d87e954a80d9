import type { CodeScene, UserKind, Version } from "@tessera/contracts";
import type { Executor } from "../../db/tx";
import { authChanged } from "../../platform/auth/revision";

/* ---------- users ---------- */

export function findUserByEmail(db: Executor, email: string) {
  return db.selectFrom("users").selectAll().where("email", "=", email).executeTakeFirst();
}

export function findUserById(db: Executor, userId: number) {
  return db.selectFrom("users").selectAll().where("id", "=", userId).executeTakeFirst();
}

export async function insertUser(
  tx: Executor,
  user: {
    kind: UserKind;
    merchantId: number | null;
    email: string;
    passwordHash: string;
    mustChangePassword?: boolean;
  },
): Promise<number> {
  const row = await tx
    .insertInto("users")
    .values({
      kind: user.kind,
      merchant_id: user.merchantId,
      email: user.email,
      password_hash: user.passwordHash,
      must_change_password: user.mustChangePassword ?? false,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateUser(
  tx: Executor,
  userId: number,
  changes: { email?: string; phone?: string; passwordHash?: string; now: Date },
): Promise<void> {
  authChanged();
  await tx
    .updateTable("users")
    .set({
      ...(changes.email !== undefined && { email: changes.email }),
      ...(changes.phone !== undefined && { phone: changes.phone }),
      ...(changes.passwordHash !== undefined && {
        password_hash: changes.passwordHash,
        password_changed_at: changes.now,
        must_change_password: false,
      }),
      updated_at: changes.now,
    })
    .where("id", "=", userId)
    .execute();
}

export function userIdByPhone(db: Executor, phone: string) {
  return db.selectFrom("users").select("id").where("phone", "=", phone).executeTakeFirst();
}

export async function operatorExists(db: Executor): Promise<boolean> {
  const row = await db.selectFrom("users").select("id").where("kind", "=", "operator").limit(1).executeTakeFirst();
  return row !== undefined;
}

/* ---------- sessions ---------- */

export async function insertSession(
  tx: Executor,
  s: {
    userId: number;
    tokenHash: string;
    version: Version;
    now: Date;
    expiresAt: Date;
    ip: string;
    userAgent: string | undefined;
  },
): Promise<number> {
  const row = await tx
    .insertInto("sessions")
    .values({
      user_id: s.userId,
      token_hash: s.tokenHash,
      version: s.version,
      created_at: s.now,
      expires_at: s.expiresAt,
      ip: s.ip,
      user_agent: s.userAgent?.slice(0, 300) ?? null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * A live session with its user and the merchant's roles, in one indexed lookup. This runs on every
 * authenticated request, so it reads merchants.roles by join rather than through the merchants module:
 * the one place accounts reads a table it does not own.
 */
export function findLiveSession(db: Executor, tokenHash: string, now: Date) {
  return db
    .selectFrom("sessions as s")
    .innerJoin("users as u", "u.id", "s.user_id")
    .leftJoin("merchants as m", "m.id", "u.merchant_id")
    .select([
      "s.id as sessionId",
      "s.version",
      "s.expires_at as expiresAt",
      "u.id as userId",
      "u.kind",
      "u.email",
      "u.merchant_id as merchantId",
      "u.menus",
      "m.roles",
    ])
    .where("s.token_hash", "=", tokenHash)
    .where("s.revoked_at", "is", null)
    .where("s.expires_at", ">", now)
    .where("u.disabled_at", "is", null)
    .executeTakeFirst();
}

export async function revokeSession(tx: Executor, sessionId: number, now: Date): Promise<void> {
  authChanged();
  await tx
    .updateTable("sessions")
    .set({ revoked_at: now })
    .where("id", "=", sessionId)
    .where("revoked_at", "is", null)
    .execute();
}

export async function revokeUserSessions(tx: Executor, userId: number, now: Date): Promise<number> {
  authChanged();
  const r = await tx
    .updateTable("sessions")
    .set({ revoked_at: now })
    .where("user_id", "=", userId)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/* ---------- verification codes ---------- */

export interface CodeKey {
  channel: "email" | "sms";
  target: string;
  scene: CodeScene;
}

export function latestCode(db: Executor, key: CodeKey) {
  return db
    .selectFrom("verification_codes")
    .selectAll()
    .where("channel", "=", key.channel)
    .where("target", "=", key.target)
    .where("scene", "=", key.scene)
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
}

export async function countCodesSince(db: Executor, key: CodeKey, since: Date): Promise<number> {
  const row = await db
    .selectFrom("verification_codes")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("channel", "=", key.channel)
    .where("target", "=", key.target)
    .where("created_at", ">=", since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertCode(
  tx: Executor,
  key: CodeKey,
  codeHash: string,
  now: Date,
  expiresAt: Date,
): Promise<number> {
  const row = await tx
    .insertInto("verification_codes")
    .values({ ...key, code_hash: codeHash, created_at: now, expires_at: expiresAt })
    .returning("id")
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** A code that never reached its recipient (the SMS provider did not take it): gone, so it cannot be used. */
export async function deleteCode(db: Executor, id: number): Promise<void> {
  await db.deleteFrom("verification_codes").where("id", "=", id).execute();
}

export async function addCodeAttempt(db: Executor, codeId: number): Promise<void> {
  await db
    .updateTable("verification_codes")
    .set((eb) => ({ attempts: eb("attempts", "+", 1) }))
    .where("id", "=", codeId)
    .execute();
}

/** Marks a code used; false when another request used it first. */
export async function consumeCode(tx: Executor, codeId: number, now: Date): Promise<boolean> {
  const r = await tx
    .updateTable("verification_codes")
    .set({ consumed_at: now })
    .where("id", "=", codeId)
    .where("consumed_at", "is", null)
    .executeTakeFirst();
  return r.numUpdatedRows === 1n;
}

/* ---------- login throttle ---------- */

export function findThrottle(db: Executor, email: string) {
  return db.selectFrom("login_throttle").selectAll().where("email", "=", email).executeTakeFirst();
}

/**
 * Counts one failed login atomically (concurrent failures all count). Failures older than the window
 * start the count again. Returns the new count.
 */
export async function recordLoginFailure(db: Executor, email: string, now: Date, windowStart: Date): Promise<number> {
  const row = await db
    .insertInto("login_throttle")
    .values({ email, failures: 1, last_failure_at: now, locked_until: null })
    .onConflict((oc) =>
      oc.column("email").doUpdateSet((eb) => ({
        failures: eb
          .case()
          .when("login_throttle.last_failure_at", "<", windowStart)
          .then(1)
          .else(eb("login_throttle.failures", "+", 1))
          .end(),
        last_failure_at: now,
      })),
    )
    .returning("failures")
    .executeTakeFirstOrThrow();
  return row.failures;
}

export async function lockLogin(db: Executor, email: string, until: Date): Promise<void> {
  await db.updateTable("login_throttle").set({ locked_until: until }).where("email", "=", email).execute();
}

export async function clearThrottle(db: Executor, email: string): Promise<void> {
  await db.deleteFrom("login_throttle").where("email", "=", email).execute();
}

/** A merchant's owner login (its first merchant user): where notices to the merchant are mailed. */
export function merchantOwner(db: Executor, merchantId: number) {
  return db
    .selectFrom("users")
    .select("email")
    .where("merchant_id", "=", merchantId)
    .where("kind", "=", "merchant")
    .orderBy("id")
    .executeTakeFirst();
}
