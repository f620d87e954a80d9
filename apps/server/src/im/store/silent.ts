import type { Selectable } from "kysely";
import type { Executor, Tx } from "../../db/tx";
import type { ImSilentTable } from "../tables";

export type SilentRow = Selectable<ImSilentTable>;
export type SilentScope = "all" | "chat" | "group";

export async function silentOf(
  db: Executor,
  username: string,
  scope: SilentScope,
  targets: readonly string[],
): Promise<SilentRow[]> {
  if (targets.length === 0) return [];
  return db
    .selectFrom("im_silent")
    .selectAll()
    .where("username", "=", username)
    .where("scope", "=", scope)
    .where("target", "in", [...targets])
    .execute();
}

export async function putSilent(
  tx: Tx,
  row: {
    username: string;
    scope: SilentScope;
    target: string;
    remindType?: "ALL" | "AT" | "NONE";
    ignoreUntilMs?: number;
    ignoreInterval?: string;
  },
  now: Date,
): Promise<SilentRow> {
  const patch = {
    ...(row.remindType !== undefined && { remind_type: row.remindType }),
    ...(row.ignoreUntilMs !== undefined && { ignore_until_ms: row.ignoreUntilMs }),
    ...(row.ignoreInterval !== undefined && { ignore_interval: row.ignoreInterval }),
    updated_at: now,
  };
  return tx
    .insertInto("im_silent")
    .values({
      username: row.username,
      scope: row.scope,
      target: row.target,
      remind_type: row.remindType ?? null,
      ignore_until_ms: row.ignoreUntilMs ?? null,
      ignore_interval: row.ignoreInterval ?? null,
      updated_at: now,
    })
    .onConflict((oc) => oc.columns(["username", "scope", "target"]).doUpdateSet(patch))
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function clearSilent(tx: Tx, username: string, scope: SilentScope, target: string): Promise<void> {
  await tx
    .deleteFrom("im_silent")
    .where("username", "=", username)
    .where("scope", "=", scope)
    .where("target", "=", target)
    .execute();
}

/** Conversations with a remind type set, after a keyset cursor (scope, target). */
export async function remindTypePage(
  db: Executor,
  username: string,
  after: { scope: SilentScope; target: string } | null,
  limit: number,
): Promise<SilentRow[]> {
  let q = db
    .selectFrom("im_silent")
    .selectAll()
    .where("username", "=", username)
    .where("scope", "<>", "all")
    .where("remind_type", "is not", null);
  if (after) {
    q = q.where((eb) =>
      eb.or([eb("scope", ">", after.scope), eb.and([eb("scope", "=", after.scope), eb("target", ">", after.target)])]),
    );
  }
  return q.orderBy("scope").orderBy("target").limit(limit).execute();
}
