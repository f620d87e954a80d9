import { randomBytes, randomUUID } from "node:crypto";
import {
  CODE,
  WECHAT_INDUSTRIES,
  type ApplyRecord,
  type ApplyReq,
  type Lang,
  type MessageKey,
  type Page,
  type QueueItem,
  type QueueItemsQuery,
} from "@tessera/contracts";
import { isUniqueViolation, withTx, type Tx } from "../../db/tx";
import { audit } from "../../platform/audit";
import type { Actor } from "../../platform/auth/actor";
import { tenantOf } from "../../platform/auth/guard";
import { AppError, conflict, invalid } from "../../platform/http/errors";
import type { ReviewOutcome, ReviewQueue } from "../ops";
import * as repo from "./applications.repo";
import { EDITABLE, iso, maskKept, presentApplication } from "./presenter";
import type { CollectionDeps } from "./service";

const notFound = () => new AppError(CODE.NOT_FOUND, "collection.notFound");
/** The required fields and the message of each, in form order. */
const CHECKS: [keyof ApplyReq, MessageKey, (v: string) => boolean][] = [
  ["companyName", "collection.companyEmpty", (v) => v.length > 0],
  ["creditCode", "collection.creditCodeInvalid", (v) => /^[0-9A-HJ-NPQRTUWXY]{18}$/.test(v)],
  ["legalPerson", "collection.legalEmpty", (v) => v.length > 0],
  ["legalIdNo", "collection.idNoInvalid", (v) => /^(\d{15}|\d{17}[\dX])$/.test(v)],
  ["contactName", "collection.contactEmpty", (v) => v.length > 0],
  ["contactPhone", "collection.phoneInvalid", (v) => /^1\d{10}$/.test(v)],
  ["industryCode", "collection.industryEmpty", (v) => WECHAT_INDUSTRIES.some((i) => i.code === v)],
  ["bankName", "collection.bankEmpty", (v) => v.length > 0],
  ["bankAccount", "collection.bankAccountInvalid", (v) => /^\d{10,30}$/.test(v)],
  ["bankAccountName", "collection.accountNameEmpty", (v) => v.length > 0],
  ["licenceImage", "collection.licenceEmpty", (v) => v.length > 0],
  ["idCardFront", "collection.idCardFrontEmpty", (v) => v.length > 0],
  ["idCardBack", "collection.idCardBackEmpty", (v) => v.length > 0],
];

/**
 * Aggregated onboarding on a payment aggregator (here the local adapter: an operator reviews in the
 * console, the merchant confirms, signs through the link, and the adapter finishes the signing
 * asynchronously), and the licence images of the application.
 */
export class ApplicationsService {
  constructor(private readonly deps: CollectionDeps) {}

  private now(): Date {
    return this.deps.clock.now();
  }

  industries(lang: Lang) {
    return WECHAT_INDUSTRIES.map((i) => ({ code: i.code, name: i.name[lang], feeBps: i.feeBps }));
  }

  async records(actor: Actor, lang: Lang): Promise<Page<ApplyRecord>> {
    const r = await repo.currentApplication(this.deps.db, tenantOf(actor));
    return { list: r ? [presentApplication(r, lang)] : [], total: r ? 1 : 0, page: 1, pageSize: 20 };
  }

  /** Saves the application (a draft may be incomplete); a rejected one becomes a draft again. */
  async save(actor: Actor, req: ApplyReq, lang: Lang): Promise<ApplyRecord> {
    const merchantId = tenantOf(actor);
    if (req.industryCode && !WECHAT_INDUSTRIES.some((i) => i.code === req.industryCode)) {
      throw invalid("collection.industryEmpty", "industryCode");
    }
    const now = this.now();
    const values = {
      company_name: req.companyName,
      credit_code: req.creditCode,
      legal_person: req.legalPerson,
      legal_id_no: req.legalIdNo,
      contact_name: req.contactName,
      contact_phone: req.contactPhone,
      industry_code: req.industryCode,
      bank_name: req.bankName,
      bank_account: req.bankAccount,
      bank_account_name: req.bankAccountName,
      licence_image: req.licenceImage,
      id_card_front: req.idCardFront,
      id_card_back: req.idCardBack,
      updated_at: now,
    };
    // Images are the merchant's own uploads.
    if (req.licenceImage && !req.licenceImage.startsWith(`${merchantId}-`)) {
      throw invalid("collection.licenceEmpty", "licenceImage");
    }
    if (req.idCardFront && !req.idCardFront.startsWith(`${merchantId}-`)) {
      throw invalid("collection.idCardFrontEmpty", "idCardFront");
    }
    if (req.idCardBack && !req.idCardBack.startsWith(`${merchantId}-`)) {
      throw invalid("collection.idCardBackEmpty", "idCardBack");
    }
    try {
      const row = await withTx(this.deps.db, async (tx) => {
        const cur = await repo.currentApplication(tx, merchantId, true);
        if (!cur) {
          return repo.insertApplication(tx, {
            merchant_id: merchantId,
            business_code: `APL${merchantId}${Date.now().toString(36).toUpperCase()}`,
            ...values,
            created_at: now,
          });
        }
        if (!EDITABLE.includes(cur.state)) throw conflict("collection.notEditable");
        return repo.updateApplication(tx, cur.id, { ...values, state: "EDITTING" });
      });
      return presentApplication(row, lang);
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict("collection.notEditable");
      throw err;
    }
  }

  /** Submits the application to the aggregator's review: every field must be there and valid. */
  async submit(actor: Actor, lang: Lang): Promise<ApplyRecord> {
    const merchantId = tenantOf(actor);
    const row = await withTx(this.deps.db, async (tx) => {
      const cur = await repo.currentApplication(tx, merchantId, true);
      if (!cur) throw notFound();
      if (!EDITABLE.includes(cur.state)) throw conflict("collection.wrongState");
      const values: Record<keyof ApplyReq, string> = {
        companyName: cur.company_name,
        creditCode: cur.credit_code,
        legalPerson: cur.legal_person,
        legalIdNo: cur.legal_id_no,
        contactName: cur.contact_name,
        contactPhone: cur.contact_phone,
        industryCode: cur.industry_code,
        bankName: cur.bank_name,
        bankAccount: cur.bank_account,
        bankAccountName: cur.bank_account_name,
        licenceImage: cur.licence_image,
        idCardFront: cur.id_card_front,
        idCardBack: cur.id_card_back,
      };
      for (const [field, key, ok] of CHECKS) if (!ok(values[field])) throw invalid(key, field);
      const feeBps = WECHAT_INDUSTRIES.find((i) => i.code === cur.industry_code)?.feeBps ?? 60;
      await audit(tx, {
        actorUserId: actor.userId,
        action: "paymentApply.submit",
        subjectType: "pay_application",
        subjectId: cur.id,
      });
      return repo.updateApplication(tx, cur.id, {
        state: "AUDITING",
        fee_bps: feeBps,
        submitted_at: this.now(),
        updated_at: this.now(),
      });
    });
    return presentApplication(row, lang);
  }

  /** The merchant confirms the approved application (account verification): the aggregator issues the signing link. */
  async confirm(actor: Actor, lang: Lang): Promise<ApplyRecord> {
    const merchantId = tenantOf(actor);
    const row = await withTx(this.deps.db, async (tx) => {
      const cur = await repo.currentApplication(tx, merchantId, true);
      if (!cur) throw notFound();
      if (cur.state !== "TO_BE_CONFIRMED") throw conflict("collection.wrongState");
      return repo.updateApplication(tx, cur.id, {
        state: "TO_BE_SIGNED",
        sign_token: randomBytes(16).toString("base64url"),
        sub_mchid: `19${String(1_000_000 + cur.id).padStart(8, "0")}`,
        updated_at: this.now(),
      });
    });
    return presentApplication(row, lang);
  }

  /** The signing link (the merchant's administrator opens it): what is signed. */
  async signInfo(token: string, lang: Lang): Promise<ApplyRecord> {
    const r = await repo.applicationByToken(this.deps.db, token);
    if (!r) throw new AppError(CODE.NOT_FOUND, "collection.signLinkInvalid");
    return presentApplication(r, lang);
  }

  /** Signs through the link: the aggregator then finishes asynchronously (`advance`). */
  async sign(token: string, lang: Lang): Promise<ApplyRecord> {
    const row = await withTx(this.deps.db, async (tx) => {
      const r = await repo.applicationByToken(tx, token, true);
      if (!r || (r.state !== "TO_BE_SIGNED" && r.state !== "SIGNING" && r.state !== "FINISHED")) {
        throw new AppError(CODE.NOT_FOUND, "collection.signLinkInvalid");
      }
      if (r.state !== "TO_BE_SIGNED") return r;
      return repo.updateApplication(tx, r.id, { state: "SIGNING", signed_at: this.now(), updated_at: this.now() });
    });
    return presentApplication(row, lang);
  }

  /** The local aggregator's asynchronous step: signed applications finish after a short while. */
  async advance(): Promise<number> {
    const before = new Date(this.now().getTime() - this.deps.signingSeconds * 1000);
    return repo.finishSigned(this.deps.db, before, this.now(), this.now());
  }

  /** Licence images: JPEG or PNG up to 5 MB, kept per merchant. */
  async uploadImage(actor: Actor, data: Buffer): Promise<{ key: string; url: string }> {
    const merchantId = tenantOf(actor);
    const png = data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const jpeg = data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff;
    if ((!png && !jpeg) || data.length > 5 * 1024 * 1024) throw invalid("collection.imageInvalid", "file");
    const key = `${merchantId}-${randomUUID()}.${png ? "png" : "jpg"}`;
    await this.deps.storage.put(`collection/${key}`, data);
    return { key, url: `/api/card-brander/paymentApplyRecords/images/${key}` };
  }

  /** An image of the merchant's own (or any, for an operator reviewing). */
  async image(merchantId: number | null, key: string): Promise<{ data: Buffer; contentType: string }> {
    if (!/^\d+-[0-9a-f-]{36}\.(png|jpg)$/.test(key) || (merchantId !== null && !key.startsWith(`${merchantId}-`))) {
      throw new AppError(CODE.NOT_FOUND, "error.notFound");
    }
    const data = await this.deps.storage.get(`collection/${key}`);
    if (!data) throw new AppError(CODE.NOT_FOUND, "error.notFound");
    return { data, contentType: key.endsWith(".png") ? "image/png" : "image/jpeg" };
  }

  /** The operator console's review of the local aggregator (applications under review). */
  reviewQueue(): ReviewQueue {
    const decide = async (
      tx: Tx,
      id: number,
      operator: Actor,
      now: Date,
      reason: string | null,
    ): Promise<ReviewOutcome> => {
      const r = await repo.lockApplication(tx, id);
      if (!r) throw new AppError(CODE.NOT_FOUND, "error.notFound");
      if (r.state !== "AUDITING") throw conflict("review.notPending");
      const state = reason === null ? "TO_BE_CONFIRMED" : "REJECTED";
      await repo.setReview(tx, id, {
        state,
        reject_reason: reason,
        reviewed_at: now,
        reviewed_by: operator.userId,
        updated_at: now,
      });
      return {
        subjectType: "pay_application",
        subjectId: String(id),
        before: { state: r.state },
        after: { state, ...(reason !== null && { reason }) },
      };
    };
    const reviewState = (s: string): QueueItem["state"] =>
      s === "AUDITING" ? "pending" : s === "REJECTED" ? "rejected" : "approved";
    return {
      kind: "paymentApply",
      countPending: (db) => repo.countAuditing(db),
      list: async (db, q: QueueItemsQuery): Promise<Page<QueueItem>> => {
        const { total, rows } = await repo.reviewPage(db, q);
        return {
          list: rows.map((r) => ({
            id: String(r.id),
            kind: "paymentApply",
            merchantId: String(r.merchant_id),
            merchantName: r.merchant_name,
            state: reviewState(r.state),
            submittedAt: iso(r.submitted_at) ?? new Date(r.updated_at).toISOString(),
            reviewedAt: iso(r.reviewed_at),
            reviewedBy: r.reviewed_by === null ? null : String(r.reviewed_by),
            rejectReason: r.reject_reason,
            fields: {
              businessCode: r.business_code,
              applyState: r.state,
              companyName: r.company_name,
              licenseNumber: r.credit_code,
              legalName: r.legal_person,
              legalIdNumber: maskKept(r.legal_id_no, 3),
              contact: `${r.contact_name} ${r.contact_phone}`,
              industry: WECHAT_INDUSTRIES.find((i) => i.code === r.industry_code)?.name.cn ?? r.industry_code,
              bank: `${r.bank_name} ${maskKept(r.bank_account)} ${r.bank_account_name}`,
            },
            documents: (
              [
                ["license", r.licence_image],
                ["id_front", r.id_card_front],
                ["id_back", r.id_card_back],
              ] as const
            )
              .filter(([, key]) => key !== "")
              .map(([kind, key]) => ({ kind, url: `/api/ops/collection/images/${key}` })),
          })),
          total,
          page: q.page,
          pageSize: q.pageSize,
        };
      },
      approve: (tx, id, operator, now) => decide(tx, id, operator, now, null),
      reject: (tx, id, operator, reason, now) => decide(tx, id, operator, now, reason),
    };
  }
}
