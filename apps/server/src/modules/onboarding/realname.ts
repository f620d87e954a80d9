import {
  CODE,
  IMAGE_MAX_BYTES,
  isNationalId,
  type BizLicenseTextReply,
  type DocumentKind,
  type DocumentReply,
  type IdTextReply,
  type Page,
  type PaymentAccountReply,
  type QueueItem,
  type QueueItemsQuery,
  type RealNameInfoReply,
  type RealNameSubmitReq,
} from "@tessera/contracts";
import { randomUUID } from "node:crypto";
import { isUniqueViolation, withTx, type Db, type Tx } from "../../db/tx";
import { audit } from "../../platform/audit";
import type { Actor } from "../../platform/auth/actor";
import { tenantOf } from "../../platform/auth/guard";
import type { Clock } from "../../platform/clock";
import { AppError, conflict, invalid, notFound } from "../../platform/http/errors";
import { imageInfo } from "../../platform/images";
import type { OcrAdapter } from "../../platform/adapters/ocr";
import type { FileStorage } from "../../platform/storage";
import { balancesOf } from "../ledger";
import { changeMerchant, getMerchant, lockMerchantForUpdate } from "../merchants";
import type { ReviewOutcome, ReviewQueue } from "../../platform/review-queue";
import { earlierDate, presentApplication, reviewDocumentUrl } from "./presenter";
import * as repo from "./realname.repo";
import * as profileRepo from "./profile.repo";
import * as sharedRepo from "./repo";
import { pageWindow } from "../../db/paginate";

export interface RealNameDeps {
  db: Db;
  clock: Clock;
  storage: FileStorage;
  ocr: OcrAdapter;
}

/** Today as YYYY-MM-DD (UTC): validity dates are calendar dates. */
export const isoDay = (d: Date) => d.toISOString().slice(0, 10);

/** Reads an uploaded image; refuses anything that is not an accepted image of at most 5 MB. */
export async function checkImage(data: Buffer): Promise<{ width: number; height: number; contentType: string }> {
  if (data.length === 0 || data.length > IMAGE_MAX_BYTES) throw invalid("profile.imageInvalid", "file");
  const info = await imageInfo(data);
  if (!info) throw invalid("profile.imageInvalid", "file");
  return { width: info.width, height: info.height, contentType: `image/${info.format}` };
}

/**
 * Real-name verification (spec 01 §4): the merchant uploads the licence and ID images, reads their
 * text through the OCR adapter, confirms the fields, submits; an operator approves or rejects. The
 * merchant's state (on the merchants row) is verified while an approval is in force, expired once a
 * validity date has passed (daily job), not verified otherwise.
 */
export class RealNameService {
  constructor(private readonly deps: RealNameDeps) {}

  async uploadDocument(actor: Actor, kind: DocumentKind, data: Buffer): Promise<DocumentReply> {
    const merchantId = tenantOf(actor);
    const img = await checkImage(data);
    const storageKey = `realname/${merchantId}/${randomUUID()}`;
    await this.deps.storage.put(storageKey, data);
    const now = this.deps.clock.now();
    const id = await withTx(this.deps.db, async (tx) => {
      const docId = await repo.insertDocument(tx, {
        merchantId,
        kind,
        storageKey,
        contentType: img.contentType,
        width: img.width,
        height: img.height,
        uploadedBy: actor.userId,
        now,
      });
      await audit(tx, {
        actorUserId: actor.userId,
        action: "realName.upload",
        subjectType: "realNameDocument",
        subjectId: docId,
        detail: { kind },
      });
      return docId;
    });
    return { documentId: String(id), kind, width: img.width, height: img.height };
  }

  /** The bytes of one of this merchant's documents (404 for another merchant's: no hint it exists). */
  async readDocument(actor: Actor, documentId: number): Promise<{ data: Buffer; contentType: string }> {
    const doc = await repo.findDocument(this.deps.db, tenantOf(actor), documentId);
    return this.load(doc);
  }

  async readDocumentForReview(documentId: number): Promise<{ data: Buffer; contentType: string }> {
    return this.load(await repo.findDocumentForReview(this.deps.db, documentId));
  }

  private async load(doc: { storage_key: string; content_type: string } | undefined) {
    if (!doc) throw notFound();
    const data = await this.deps.storage.get(doc.storage_key);
    if (!data) throw notFound();
    return { data, contentType: doc.content_type };
  }

  private async ownDocument(merchantId: number, documentId: number, kinds: readonly DocumentKind[]) {
    const doc = await repo.findDocument(this.deps.db, merchantId, documentId);
    if (!doc || !kinds.includes(doc.kind)) throw invalid("realName.documentMissing", "documentId");
    return doc;
  }

  async bizLicenseText(actor: Actor, documentId: number): Promise<BizLicenseTextReply> {
    const doc = await this.ownDocument(tenantOf(actor), documentId, ["license"]);
    const data = await this.deps.storage.get(doc.storage_key);
    const r = data ? await this.deps.ocr.read("bizLicense", data) : { recognised: false, fields: {} };
    const f = r.fields;
    return {
      adapter: this.deps.ocr.kind,
      recognised: r.recognised,
      fields: {
        ...(f.companyName !== undefined && { companyName: f.companyName }),
        ...(f.licenseNumber !== undefined && { licenseNumber: f.licenseNumber }),
        ...(f.legalName !== undefined && { legalName: f.legalName }),
        ...(f.validUntil !== undefined && { validUntil: f.validUntil }),
      },
    };
  }

  async idText(actor: Actor, documentId: number): Promise<IdTextReply> {
    const doc = await this.ownDocument(tenantOf(actor), documentId, ["id_front", "id_back"]);
    const data = await this.deps.storage.get(doc.storage_key);
    const r = data ? await this.deps.ocr.read("idCard", data) : { recognised: false, fields: {} };
    const f = r.fields;
    return {
      adapter: this.deps.ocr.kind,
      recognised: r.recognised,
      fields: {
        ...(f.name !== undefined && { name: f.name }),
        ...(f.idNumber !== undefined && { idNumber: f.idNumber }),
        ...(f.validUntil !== undefined && { validUntil: f.validUntil }),
      },
    };
  }

  async submit(actor: Actor, req: RealNameSubmitReq): Promise<RealNameInfoReply> {
    const merchantId = tenantOf(actor);
    const now = this.deps.clock.now();
    const today = isoDay(now);
    // A domestic organisation's legal representative has a mainland national ID; an international one
    // (Hong Kong, Singapore, Europe, the Americas) a passport or identity card, which the edge accepts.
    const merchant = await getMerchant(this.deps.db, merchantId);
    if (!merchant) throw notFound();
    if (merchant.version === "domestic" && !isNationalId(req.legalIdNumber)) {
      throw invalid("realName.idNumberInvalid", "legalIdNumber");
    }
    for (const [field, value] of [
      ["licenseValidUntil", req.licenseValidUntil],
      ["idValidUntil", req.idValidUntil],
    ] as const) {
      if (value !== "" && (Number.isNaN(Date.parse(value)) || value <= today)) {
        throw invalid("realName.validUntilInvalid", field);
      }
    }
    const docs: [keyof RealNameSubmitReq, string, DocumentKind][] = [
      ["licenseDocumentId", req.licenseDocumentId, "license"],
      ["idFrontDocumentId", req.idFrontDocumentId, "id_front"],
      ["idBackDocumentId", req.idBackDocumentId, "id_back"],
    ];
    for (const [field, id, kind] of docs) {
      const doc = await repo.findDocument(this.deps.db, merchantId, Number(id));
      if (!doc || doc.kind !== kind) throw invalid("realName.documentMissing", field);
    }
    try {
      await withTx(this.deps.db, async (tx) => {
        const id = await repo.insertApplication(tx, {
          merchantId,
          companyName: req.companyName,
          licenseNumber: req.licenseNumber,
          licenseValidUntil: req.licenseValidUntil || null,
          legalName: req.legalName,
          legalIdNumber: req.legalIdNumber,
          idValidUntil: req.idValidUntil || null,
          licenseDocId: Number(req.licenseDocumentId),
          idFrontDocId: Number(req.idFrontDocumentId),
          idBackDocId: Number(req.idBackDocumentId),
          submittedBy: actor.userId,
          now,
        });
        await audit(tx, {
          actorUserId: actor.userId,
          action: "realName.submit",
          subjectType: "realNameApplication",
          subjectId: id,
        });
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict("realName.pendingExists");
      throw err;
    }
    return this.info(actor);
  }

  async info(actor: Actor): Promise<RealNameInfoReply> {
    const merchantId = tenantOf(actor);
    const merchant = await getMerchant(this.deps.db, merchantId);
    if (!merchant) throw notFound();
    const latest = await repo.latestApplication(this.deps.db, merchantId);
    const live =
      merchant.real_name_state === "verified" ? await repo.liveApproval(this.deps.db, merchantId) : undefined;
    return {
      merchantId: String(merchantId),
      state: merchant.real_name_state,
      expiresOn: live ? earlierDate(live.license_valid_until, live.id_valid_until) : null,
      latest: latest ? presentApplication(latest, "merchant") : null,
    };
  }

  async paymentAccount(actor: Actor): Promise<PaymentAccountReply> {
    const merchantId = tenantOf(actor);
    const merchant = await getMerchant(this.deps.db, merchantId);
    if (!merchant) throw notFound();
    const live = await repo.liveApproval(this.deps.db, merchantId);
    const balances = await balancesOf(this.deps.db, merchantId, merchant.currency);
    return {
      merchantId: String(merchantId),
      // Top-ups must come from an account in the verified company's name.
      accountName: live?.company_name ?? merchant.name,
      realNameState: merchant.real_name_state,
      currency: merchant.currency,
      reserve: balances.reserve,
      sup: balances.sup,
    };
  }

  /**
   * The daily job: approvals whose licence or ID validity date has passed lapse, and their merchants
   * become "expired". Each merchant changes in its own transaction with an audit row. Returns how many.
   */
  async expireDue(now: Date = this.deps.clock.now()): Promise<number> {
    const today = isoDay(now);
    let expired = 0;
    for (;;) {
      const due = await repo.dueForExpiry(this.deps.db, today, 200);
      if (due.length === 0) return expired;
      for (const row of due) {
        const done = await withTx(this.deps.db, async (tx) => {
          const merchant = await lockMerchantForUpdate(tx, row.merchant_id);
          if (!(await repo.markExpired(tx, row.id, now))) return false;
          if (merchant?.real_name_state === "verified") {
            await changeMerchant(tx, row.merchant_id, { realNameState: "expired", now });
          }
          await audit(tx, {
            actorUserId: null,
            action: "realName.expire",
            subjectType: "merchant",
            subjectId: row.merchant_id,
            detail: { applicationId: row.id, today },
          });
          return true;
        });
        if (done) expired++;
      }
    }
  }

  /** The operator console's real-name queue. */
  queue(): ReviewQueue {
    const decide = async (
      tx: Tx,
      id: number,
      operator: Actor,
      now: Date,
      reason: string | null,
    ): Promise<ReviewOutcome> => {
      const app = await repo.lockApplication(tx, id);
      if (!app) throw notFound();
      const merchant = await lockMerchantForUpdate(tx, app.merchant_id);
      if (!merchant) throw notFound();
      const state = reason === null ? "approved" : "rejected";
      if (!(await repo.decideApplication(tx, id, { state, reviewedBy: operator.userId, reason, now }))) {
        throw new AppError(CODE.CONFLICT, "review.notPending");
      }
      const before = { application: app.state, realNameState: merchant.real_name_state, companyName: merchant.name };
      if (state === "approved") {
        await repo.retireApprovals(tx, app.merchant_id, id, now);
        // The verified company name becomes the merchant's name, its legal representative the profile's.
        await changeMerchant(tx, app.merchant_id, { realNameState: "verified", name: app.company_name, now });
        await profileRepo.upsertProfile(tx, app.merchant_id, { legalRepresentative: app.legal_name, now });
      }
      const after = {
        application: state,
        realNameState: state === "approved" ? "verified" : merchant.real_name_state,
        companyName: state === "approved" ? app.company_name : merchant.name,
        ...(reason !== null && { reason }),
      };
      return { subjectType: "realNameApplication", subjectId: String(id), before, after };
    };
    return {
      kind: "realName",
      countPending: (db) => sharedRepo.countPending(db, "real_name_applications"),
      list: async (db, q: QueueItemsQuery): Promise<Page<QueueItem>> => {
        const { total, rows } = await repo.searchApplications(db, {
          ...(q.state && { state: q.state }),
          ...(q.merchantId && { merchantId: Number(q.merchantId) }),
          ...pageWindow(q),
        });
        const list = rows.map((r): QueueItem => {
          const a = presentApplication(r, "operator");
          return {
            id: a.id,
            kind: "realName",
            merchantId: String(r.merchant_id),
            merchantName: r.merchant_name,
            state: r.state,
            submittedAt: a.submittedAt,
            reviewedAt: a.reviewedAt,
            reviewedBy: r.reviewed_by === null ? null : String(r.reviewed_by),
            rejectReason: r.reject_reason,
            fields: {
              companyName: a.companyName,
              licenseNumber: a.licenseNumber,
              licenseValidUntil: a.licenseValidUntil,
              legalName: a.legalName,
              legalIdNumber: a.legalIdNumber,
              idValidUntil: a.idValidUntil,
            },
            documents: [
              { kind: "license", url: reviewDocumentUrl(r.license_doc_id) },
              { kind: "id_front", url: reviewDocumentUrl(r.id_front_doc_id) },
              { kind: "id_back", url: reviewDocumentUrl(r.id_back_doc_id) },
            ],
          };
        });
        return { list, total, page: q.page, pageSize: q.pageSize };
      },
      approve: (tx, id, operator, now) => decide(tx, id, operator, now, null),
      reject: (tx, id, operator, reason, now) => decide(tx, id, operator, now, reason),
    };
  }
}
