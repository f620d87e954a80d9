import type { Executor } from "../../db/tx";

/**
 * SQL the onboarding module's features share; each feature's own is in its `<feature>.repo.ts` (profile,
 * realname, api-credentials, agreements, service-binding, brand-tokens, commit-letters). Every query of a
 * merchant's rows takes its merchant id (the tenant), so one merchant's call can never reach another's
 * profile, documents, applications or credentials.
 */

/** Requests waiting for review (the operators' queues). */
export async function countPending(
  db: Executor,
  table: "real_name_applications" | "api_permission_requests",
): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("state", "=", "pending")
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
