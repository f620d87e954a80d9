import { registerMerchant, type TestApp } from "./harness";
import { serverWorld } from "./kit/server-world";

/** Signs a docking agreement as a user: an SMS code (scene signAgreement) to a phone, then confirm. */
export async function signDocking(
  t: TestApp,
  token: string,
  dockingId: string,
): Promise<{ code: number; msg: string }> {
  return serverWorld(t).signDocking(token, dockingId);
}

/**
 * Marks a merchant real-name verified, as an operator's approval does (spec 01 §6: docking, purchase
 * applications and orders need it). The real-name flow itself is tested in modules/onboarding.
 */
export async function markVerified(t: TestApp, merchantId: string): Promise<void> {
  await t.ctx.database.db
    .updateTable("merchants")
    .set({ real_name_state: "verified" })
    .where("id", "=", Number(merchantId))
    .execute();
}

/** A purchaser docked with a supplier: applied, approved and signed by both (both marked verified first). */
export async function dock(
  t: TestApp,
  supplier: { token: string; merchantId: string },
  purchaser?: Awaited<ReturnType<typeof registerMerchant>>,
) {
  const buyer = purchaser ?? (await registerMerchant(t, { orgName: "Buyer Ltd" }));
  const id = await serverWorld(t).dock(supplier, buyer);
  return { buyer, dockingId: id };
}
