import { sql } from "kysely";
import type { Executor } from "../../db/tx";
import type { DocumentKind, Industry } from "@tessera/contracts";

/**
 * SQL of the onboarding module. Every query of a merchant's rows takes its merchant id (the tenant),
 * so one merchant's call can never reach another's profile, documents, applications or credentials.
 */

/* ---------- profile ---------- */

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

/* ---------- documents ---------- */

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

/* ---------- real-name applications ---------- */

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
  const total = await q.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  const rows = await q
    .select([...applicationColumns, "m.name as merchant_name"])
    // Oldest first: the queue is worked in the order it arrived.
    .orderBy("a.id", f.state === "pending" ? "asc" : "desc")
    .limit(f.limit)
    .offset(f.offset)
    .execute();
  return { total: Number(total.n), rows };
}

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

/* ---------- API permission requests ---------- */

export function latestApiRequest(db: Executor, merchantId: number) {
  return db
    .selectFrom("api_permission_requests")
    .selectAll()
    .where("merchant_id", "=", merchantId)
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
}

export async function insertApiRequest(
  tx: Executor,
  r: { merchantId: number; purpose: string; requestedBy: number; now: Date },
): Promise<number> {
  const row = await tx
    .insertInto("api_permission_requests")
    .values({
      merchant_id: r.merchantId,
      state: "pending",
      purpose: r.purpose,
      requested_by: r.requestedBy,
      requested_at: r.now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export function lockApiRequest(tx: Executor, id: number) {
  return tx.selectFrom("api_permission_requests").selectAll().where("id", "=", id).forUpdate().executeTakeFirst();
}

export async function decideApiRequest(
  tx: Executor,
  id: number,
  d: { state: "approved" | "rejected"; reviewedBy: number; reason: string | null; now: Date },
): Promise<boolean> {
  const r = await tx
    .updateTable("api_permission_requests")
    .set({ state: d.state, reviewed_by: d.reviewedBy, reviewed_at: d.now, reject_reason: d.reason })
    .where("id", "=", id)
    .where("state", "=", "pending")
    .executeTakeFirst();
  return r.numUpdatedRows === 1n;
}

export async function searchApiRequests(
  db: Executor,
  f: { state?: "pending" | "approved" | "rejected"; merchantId?: number; limit: number; offset: number },
) {
  let q = db.selectFrom("api_permission_requests as r").innerJoin("merchants as m", "m.id", "r.merchant_id");
  if (f.state) q = q.where("r.state", "=", f.state);
  if (f.merchantId !== undefined) q = q.where("r.merchant_id", "=", f.merchantId);
  const total = await q.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  const rows = await q
    .selectAll("r")
    .select(["m.name as merchant_name", "m.real_name_state"])
    .orderBy("r.id", f.state === "pending" ? "asc" : "desc")
    .limit(f.limit)
    .offset(f.offset)
    .execute();
  return { total: Number(total.n), rows };
}

/* ---------- API credentials ---------- */

export function findCredentials(db: Executor, merchantId: number) {
  return db.selectFrom("api_credentials").selectAll().where("merchant_id", "=", merchantId).executeTakeFirst();
}

export async function upsertSecret(
  tx: Executor,
  merchantId: number,
  c: { appKey: string; secretCiphertext: string; now: Date },
): Promise<void> {
  await tx
    .insertInto("api_credentials")
    .values({
      merchant_id: merchantId,
      app_key: c.appKey,
      secret_ciphertext: c.secretCiphertext,
      secret_issued_at: c.now,
      updated_at: c.now,
    })
    .onConflict((oc) =>
      oc
        .column("merchant_id")
        .doUpdateSet({ secret_ciphertext: c.secretCiphertext, secret_issued_at: c.now, updated_at: c.now }),
    )
    .execute();
}

export async function updateAccessRules(
  tx: Executor,
  merchantId: number,
  r: { ips: string[]; callbackUrl: string | null; now: Date },
): Promise<boolean> {
  const res = await tx
    .updateTable("api_credentials")
    .set({ ip_allowlist: r.ips, callback_url: r.callbackUrl, updated_at: r.now })
    .where("merchant_id", "=", merchantId)
    .executeTakeFirst();
  return res.numUpdatedRows === 1n;
}

export function findCredentialsByAppKey(db: Executor, appKey: string) {
  return db.selectFrom("api_credentials").selectAll().where("app_key", "=", appKey).executeTakeFirst();
}

/* ---------- agreements ---------- */

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

/* ---------- service-provider binding ---------- */

const bindingColumns = [
  "b.id",
  "b.merchant_id",
  "b.provider_id",
  "b.kind",
  "b.bound_at",
  "m.name as merchant_name",
  "m.real_name_state as merchant_real_name_state",
  "p.name as provider_name",
] as const;

function bindings(db: Executor) {
  return db
    .selectFrom("service_bindings as b")
    .innerJoin("merchants as m", "m.id", "b.merchant_id")
    .innerJoin("merchants as p", "p.id", "b.provider_id")
    .where("b.state", "=", "active");
}

/** Whether the provider has an active binding with the merchant. */
export async function serves(db: Executor, providerId: number, merchantId: number): Promise<boolean> {
  const row = await db
    .selectFrom("service_bindings")
    .select("id")
    .where("provider_id", "=", providerId)
    .where("merchant_id", "=", merchantId)
    .where("state", "=", "active")
    .executeTakeFirst();
  return row !== undefined;
}

export function activeBindingOf(db: Executor, merchantId: number, kind: "brand" | "vendor") {
  return bindings(db)
    .select(bindingColumns)
    .where("b.merchant_id", "=", merchantId)
    .where("b.kind", "=", kind)
    .executeTakeFirst();
}
export type BindingRow = NonNullable<Awaited<ReturnType<typeof activeBindingOf>>>;

/** An active binding the caller is a party of (as the merchant or as its provider). */
export function bindingOfParty(db: Executor, id: number, partyId: number) {
  return bindings(db)
    .select(bindingColumns)
    .where("b.id", "=", id)
    .where((eb) => eb.or([eb("b.merchant_id", "=", partyId), eb("b.provider_id", "=", partyId)]))
    .executeTakeFirst();
}

export async function insertBinding(
  tx: Executor,
  b: { merchantId: number; providerId: number; kind: "brand" | "vendor"; boundBy: number; now: Date },
): Promise<number> {
  const row = await tx
    .insertInto("service_bindings")
    .values({
      merchant_id: b.merchantId,
      provider_id: b.providerId,
      kind: b.kind,
      state: "active",
      bound_by: b.boundBy,
      bound_at: b.now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function removeBinding(tx: Executor, id: number, removedBy: number, now: Date): Promise<boolean> {
  const r = await tx
    .updateTable("service_bindings")
    .set({ state: "removed", removed_by: removedBy, removed_at: now })
    .where("id", "=", id)
    .where("state", "=", "active")
    .executeTakeFirst();
  return r.numUpdatedRows === 1n;
}

export async function servedBy(
  db: Executor,
  providerId: number,
  f: { keyword?: string; kind?: "brand" | "vendor"; limit: number; offset: number },
) {
  let q = bindings(db).where("b.provider_id", "=", providerId);
  if (f.kind) q = q.where("b.kind", "=", f.kind);
  if (f.keyword) {
    const kw = f.keyword;
    const like = `%${kw.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    q = q.where((eb) =>
      eb.or([...(/^\d{1,18}$/.test(kw) ? [eb("m.id", "=", Number(kw))] : []), eb("m.name", "ilike", like)]),
    );
  }
  const total = await q.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  const rows = await q.select(bindingColumns).orderBy("b.id", "desc").limit(f.limit).offset(f.offset).execute();
  return { total: Number(total.n), rows };
}

/* ---------- brand tokens ---------- */

export async function insertBrandToken(
  tx: Executor,
  t: {
    bindingId: number;
    merchantId: number;
    userId: number;
    sessionId: number;
    tokenHash: string;
    now: Date;
    expiresAt: Date;
  },
): Promise<void> {
  await tx
    .insertInto("brand_tokens")
    .values({
      binding_id: t.bindingId,
      merchant_id: t.merchantId,
      user_id: t.userId,
      session_id: t.sessionId,
      token_hash: t.tokenHash,
      created_at: t.now,
      expires_at: t.expiresAt,
    })
    .execute();
}

/**
 * A live brand token with what the guard needs: it is unexpired and unrevoked, its binding is active,
 * and the provider's own session and user are live. Reads sessions and users (accounts' tables) by
 * join, like the session lookup itself, because it runs on every request made with such a token.
 */
export function findLiveBrandToken(db: Executor, tokenHash: string, now: Date) {
  return db
    .selectFrom("brand_tokens as t")
    .innerJoin("service_bindings as b", "b.id", "t.binding_id")
    .innerJoin("sessions as s", "s.id", "t.session_id")
    .innerJoin("users as u", "u.id", "t.user_id")
    .innerJoin("merchants as m", "m.id", "t.merchant_id")
    .select(["t.id", "t.merchant_id", "t.user_id", "t.session_id", "u.email", "s.version", "m.roles"])
    .where("t.token_hash", "=", tokenHash)
    .where("t.revoked_at", "is", null)
    .where("t.expires_at", ">", now)
    .where("b.state", "=", "active")
    .where("s.revoked_at", "is", null)
    .where("s.expires_at", ">", now)
    .where("u.disabled_at", "is", null)
    .executeTakeFirst();
}

export function sessionExpiry(db: Executor, sessionId: number) {
  return db
    .selectFrom("sessions")
    .select("expires_at")
    .where("id", "=", sessionId)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
}

/** Revokes the live tokens of the brand's bindings (all of them, or one binding's). Returns how many. */
export async function revokeBrandTokens(
  tx: Executor,
  merchantId: number,
  now: Date,
  bindingId?: number,
): Promise<number> {
  let q = tx
    .updateTable("brand_tokens")
    .set({ revoked_at: now })
    .where("merchant_id", "=", merchantId)
    .where("revoked_at", "is", null);
  if (bindingId !== undefined) q = q.where("binding_id", "=", bindingId);
  const r = await q.executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** The active binding of a provider to one merchant. */
export function bindingForProvider(db: Executor, bindingId: number, providerId: number) {
  return db
    .selectFrom("service_bindings")
    .selectAll()
    .where("id", "=", bindingId)
    .where("provider_id", "=", providerId)
    .where("state", "=", "active")
    .executeTakeFirst();
}

/* ---------- commitment letters ---------- */

export async function insertCommitLetter(
  tx: Executor,
  l: {
    merchantId: number;
    storageKey: string;
    contentType: string;
    fileName: string;
    sizeBytes: number;
    uploadedBy: number;
    now: Date;
  },
): Promise<number> {
  const row = await tx
    .insertInto("commit_letters")
    .values({
      merchant_id: l.merchantId,
      storage_key: l.storageKey,
      content_type: l.contentType,
      file_name: l.fileName,
      size_bytes: l.sizeBytes,
      uploaded_by: l.uploadedBy,
      uploaded_at: l.now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A merchant's letters, newest first, with the uploader's e-mail. */
export function commitLettersOf(db: Executor, merchantId: number) {
  return db
    .selectFrom("commit_letters as c")
    .innerJoin("users as u", "u.id", "c.uploaded_by")
    .selectAll("c")
    .select("u.email as uploader_email")
    .where("c.merchant_id", "=", merchantId)
    .orderBy("c.id", "desc")
    .execute();
}

export function findCommitLetter(db: Executor, merchantId: number, id: number) {
  return db
    .selectFrom("commit_letters")
    .selectAll()
    .where("merchant_id", "=", merchantId)
    .where("id", "=", id)
    .executeTakeFirst();
}
