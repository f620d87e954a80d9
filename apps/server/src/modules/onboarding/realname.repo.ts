import { sql } from "kysely";
import type { Executor } from "../../db/tx";
import type { DocumentKind } from "@tessera/contracts";
import { paginate } from "../../db/paginate";

/**
 * SQL of real-name verification: the uploaded documents and the applications, their review and expiry. Every
 * query of a merchant's rows takes its merchant id (the tenant).
 */

export async function insertDocument(
  tx: Executor,
  d: {
    merchantId: number;
    kind: DocumentKind;
    storageKey: string;
    contentType: string;
    width: number;
    height: number;
    uploadedBy: number;
    now: Date;
  },
): Promise<number> {
  const row = await tx
    .insertInto("real_name_documents")
    .values({
      merchant_id: d.merchantId,
      kind: d.kind,
      storage_key: d.storageKey,
      content_type: d.contentType,
      width: d.width,
      height: d.height,
      uploaded_by: d.uploadedBy,
      created_at: d.now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A document of this merchant (tenant), or undefined. */
export function findDocument(db: Executor, merchantId: number, documentId: number) {
  return db
    .selectFrom("real_name_documents")
    .selectAll()
    .where("id", "=", documentId)
    .where("merchant_id", "=", merchantId)
    .executeTakeFirst();
}

/** Any document, for operators reviewing an application. */
export function findDocumentForReview(db: Executor, documentId: number) {
  return db.selectFrom("real_name_documents").selectAll().where("id", "=", documentId).executeTakeFirst();
}

const applicationColumns = [
  "a.id",
  "a.merchant_id",
  "a.state",
  "a.company_name",
  "a.license_number",
  sql<string | null>`to_char(a.license_valid_until, 'YYYY-MM-DD')`.as("license_valid_until"),
  "a.legal_name",
  "a.legal_id_number",
  sql<string | null>`to_char(a.id_valid_until, 'YYYY-MM-DD')`.as("id_valid_until"),
  "a.license_doc_id",
  "a.id_front_doc_id",
  "a.id_back_doc_id",
  "a.submitted_by",
  "a.submitted_at",
  "a.reviewed_by",
  "a.reviewed_at",
  "a.reject_reason",
  "a.expired_at",
] as const;

export function latestApplication(db: Executor, merchantId: number) {
  return db
    .selectFrom("real_name_applications as a")
    .select(applicationColumns)
    .where("a.merchant_id", "=", merchantId)
    .orderBy("a.id", "desc")
    .limit(1)
    .executeTakeFirst();
}
export type ApplicationRow = NonNullable<Awaited<ReturnType<typeof latestApplication>>>;

/** The approval currently in force (approved and not expired), if any. */
export function liveApproval(db: Executor, merchantId: number) {
  return db
    .selectFrom("real_name_applications as a")
    .select(applicationColumns)
    .where("a.merchant_id", "=", merchantId)
    .where("a.state", "=", "approved")
    .where("a.expired_at", "is", null)
    .orderBy("a.id", "desc")
    .limit(1)
    .executeTakeFirst();
}

export async function insertApplication(
  tx: Executor,
  a: {
    merchantId: number;
    companyName: string;
    licenseNumber: string;
    licenseValidUntil: string | null;
    legalName: string;
    legalIdNumber: string;
    idValidUntil: string | null;
    licenseDocId: number;
    idFrontDocId: number;
    idBackDocId: number;
    submittedBy: number;
    now: Date;
  },
): Promise<number> {
  const row = await tx
    .insertInto("real_name_applications")
    .values({
      merchant_id: a.merchantId,
      state: "pending",
      company_name: a.companyName,
      license_number: a.licenseNumber,
      license_valid_until: a.licenseValidUntil,
      legal_name: a.legalName,
      legal_id_number: a.legalIdNumber,
      id_valid_until: a.idValidUntil,
      license_doc_id: a.licenseDocId,
      id_front_doc_id: a.idFrontDocId,
      id_back_doc_id: a.idBackDocId,
      submitted_by: a.submittedBy,
      submitted_at: a.now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export function lockApplication(tx: Executor, id: number) {
  return tx
    .selectFrom("real_name_applications as a")
    .select(applicationColumns)
    .where("a.id", "=", id)
    .forUpdate()
    .executeTakeFirst();
}

export async function decideApplication(
  tx: Executor,
  id: number,
  d: { state: "approved" | "rejected"; reviewedBy: number; reason: string | null; now: Date },
): Promise<boolean> {
  const r = await tx
    .updateTable("real_name_applications")
    .set({ state: d.state, reviewed_by: d.reviewedBy, reviewed_at: d.now, reject_reason: d.reason })
    .where("id", "=", id)
    .where("state", "=", "pending")
    .executeTakeFirst();
  return r.numUpdatedRows === 1n;
}

/** Earlier approvals of the merchant stop counting once a new one is approved. */
export async function retireApprovals(tx: Executor, merchantId: number, exceptId: number, now: Date): Promise<void> {
  await tx
    .updateTable("real_name_applications")
    .set({ expired_at: now })
    .where("merchant_id", "=", merchantId)
    .where("state", "=", "approved")
    .where("expired_at", "is", null)
    .where("id", "!=", exceptId)
    .execute();
}

export async function searchApplications(
  db: Executor,
  f: { state?: "pending" | "approved" | "rejected"; merchantId?: number; limit: number; offset: number },
) {
  let q = db.selectFrom("real_name_applications as a").innerJoin("merchants as m", "m.id", "a.merchant_id");
  if (f.state) q = q.where("a.state", "=", f.state);
  if (f.merchantId !== undefined) q = q.where("a.merchant_id", "=", f.merchantId);
  return paginate(
    q
      .select([...applicationColumns, "m.name as merchant_name"])
      // Oldest first: the queue is worked in the order it arrived.
      .orderBy("a.id", f.state === "pending" ? "asc" : "desc"),
    q,
    f,
  );
}

/** Approvals whose licence or ID validity date is before `today` (YYYY-MM-DD), still in force. */
export function dueForExpiry(db: Executor, today: string, limit: number) {
  return db
    .selectFrom("real_name_applications")
    .select(["id", "merchant_id"])
    .where("state", "=", "approved")
    .where("expired_at", "is", null)
    .where((eb) => eb.or([eb("license_valid_until", "<", today), eb("id_valid_until", "<", today)]))
    .orderBy("id")
    .limit(limit)
    .execute();
}

export async function markExpired(tx: Executor, id: number, now: Date): Promise<boolean> {
  const r = await tx
    .updateTable("real_name_applications")
    .set({ expired_at: now })
    .where("id", "=", id)
    .where("state", "=", "approved")
    .where("expired_at", "is", null)
    .executeTakeFirst();
  return r.numUpdatedRows === 1n;
}
