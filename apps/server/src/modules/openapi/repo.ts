import type { Executor } from "../../db/tx";

/** SQL of the open API: the nonces of signed requests (each accepted once per app key). */

/** Records a request's nonce; false when the app key used it before (a replay). */
export async function recordNonce(db: Executor, appKey: string, nonce: string): Promise<boolean> {
  const recorded = await db
    .insertInto("openapi_nonces")
    .values({ app_key: appKey, nonce })
    .onConflict((oc) => oc.columns(["app_key", "nonce"]).doNothing())
    .returning("nonce")
    .executeTakeFirst();
  return recorded !== undefined;
}

export async function deleteNoncesBefore(db: Executor, before: Date): Promise<void> {
  await db.deleteFrom("openapi_nonces").where("created_at", "<", before).execute();
}
