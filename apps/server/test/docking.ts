import { lastCode, registerMerchant, type TestApp } from "./harness";

let phoneSeq = 0;

/** Signs a docking agreement as a user: an SMS code (scene signAgreement) to a phone, then confirm. */
export async function signDocking(
  t: TestApp,
  token: string,
  dockingId: string,
): Promise<{ code: number; msg: string }> {
  const phone = `15${String(Date.now() + ++phoneSeq * 104729).slice(-9)}`;
  await t.call("POST", "/api/card-user/sendSms", { token, body: { phone, scene: "signAgreement" } });
  const res = await t.call("POST", `/api/card-user/abutment/brander/confirm/${dockingId}`, {
    token,
    body: { phone, verifyCode: await lastCode(t, phone) },
  });
  return res.body;
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
  for (const m of [buyer, supplier]) await markVerified(t, m.merchantId);
  const applied = await t.call<{ id: string }>("POST", "/api/card-user/abutment/brander/apply", {
    token: buyer.token,
    body: { supplierId: supplier.merchantId },
  });
  if (applied.body.code !== 1) throw new Error(`dock apply: ${applied.body.msg}`);
  const id = applied.body.data.id;
  await t.call("POST", `/api/card-user/abutment/brander/review/${id}`, {
    token: supplier.token,
    body: { approve: true },
  });
  for (const token of [buyer.token, supplier.token]) {
    const signed = await signDocking(t, token, id);
    if (signed.code !== 1) throw new Error(`dock sign: ${signed.msg}`);
  }
  return { buyer, dockingId: id };
}
