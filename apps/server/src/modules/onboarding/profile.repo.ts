import type { Executor } from "../../db/tx";
import type { Industry } from "@tessera/contracts";

/**
 * SQL of merchants' profiles (company and contact details). Every query of a merchant's rows takes its merchant
 * id (the tenant).
 */

export function findProfile(db: Executor, merchantId: number) {
  return db.selectFrom("merchant_profiles").selectAll().where("merchant_id", "=", merchantId).executeTakeFirst();
}
export type ProfileRow = NonNullable<Awaited<ReturnType<typeof findProfile>>>;

export async function upsertProfile(
  tx: Executor,
  merchantId: number,
  p: {
    legalRepresentative?: string | null;
    contactName?: string | null;
    contactPhone?: string | null;
    contactEmail?: string | null;
    address?: string | null;
    industry?: Industry;
    logoKey?: string;
    now: Date;
  },
): Promise<void> {
  const values = {
    ...(p.legalRepresentative !== undefined && { legal_representative: p.legalRepresentative }),
    ...(p.contactName !== undefined && { contact_name: p.contactName }),
    ...(p.contactPhone !== undefined && { contact_phone: p.contactPhone }),
    ...(p.contactEmail !== undefined && { contact_email: p.contactEmail }),
    ...(p.address !== undefined && { address: p.address }),
    ...(p.industry !== undefined && { industry: p.industry }),
    ...(p.logoKey !== undefined && { logo_key: p.logoKey }),
    updated_at: p.now,
  };
  await tx
    .insertInto("merchant_profiles")
    .values({ merchant_id: merchantId, ...values })
    .onConflict((oc) => oc.column("merchant_id").doUpdateSet(values))
    .execute();
}
