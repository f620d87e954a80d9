import type { Executor } from "../../db/tx";

/** SQL of the agreements merchants sign. Every query of a merchant's rows takes its merchant id (the tenant). */

export async function insertSignature(
  tx: Executor,
  s: {
    merchantId: number;
    kind: "reserveAuthorisation" | "eSignature";
    version: string;
    lang: string;
    title: string;
    body: string;
    bodySha256: string;
    signedBy: number;
    signerEmail: string;
    phone: string;
    ip: string | null;
    userAgent: string | null;
    now: Date;
  },
): Promise<number> {
  const row = await tx
    .insertInto("agreement_signatures")
    .values({
      merchant_id: s.merchantId,
      kind: s.kind,
      version: s.version,
      lang: s.lang,
      title: s.title,
      body: s.body,
      body_sha256: s.bodySha256,
      signed_by: s.signedBy,
      signer_email: s.signerEmail,
      phone: s.phone,
      ip: s.ip,
      user_agent: s.userAgent,
      signed_at: s.now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export function signaturesOf(db: Executor, merchantId: number) {
  return db
    .selectFrom("agreement_signatures")
    .selectAll()
    .where("merchant_id", "=", merchantId)
    .orderBy("id", "desc")
    .execute();
}

export function findSignature(db: Executor, merchantId: number, id: number) {
  return db
    .selectFrom("agreement_signatures")
    .selectAll()
    .where("merchant_id", "=", merchantId)
    .where("id", "=", id)
    .executeTakeFirst();
}
export type SignatureRow = NonNullable<Awaited<ReturnType<typeof findSignature>>>;
