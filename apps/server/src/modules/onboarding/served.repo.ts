import type { Executor } from "../../db/tx";

/**
 * Reads of service-provider bindings for other modules (commission, the provider's operations pages),
 * exported through index.ts so they never query the bindings table themselves.
 */

/** Every active binding: which provider serves which merchant, as a brand or as a vendor (purchaser), since when. */
export function activeBindings(
  db: Executor,
  providerId?: number,
): Promise<{ provider_id: number; merchant_id: number; kind: "brand" | "vendor"; bound_at: Date }[]> {
  let q = db
    .selectFrom("service_bindings")
    .select(["provider_id", "merchant_id", "kind", "bound_at"])
    .where("state", "=", "active");
  if (providerId !== undefined) q = q.where("provider_id", "=", providerId);
  return q.orderBy("id").execute();
}
