import { randomBytes, randomUUID } from "node:crypto";
import {
  ledgerReason,
  CODE,
  renderMessage,
  WECHAT_INDUSTRIES,
  type ApplyRecord,
  type ApplyReq,
  type Currency,
  type Lang,
  type MessageKey,
  type Page,
  type PayCode,
  type PayCodeInfo,
  type PayOrder,
  type PayOrderQuery,
  type QueueItem,
  type QueueItemsQuery,
  type PayRefund,
} from "@tessera/contracts";
import { isUniqueViolation, withTx, type Db, type Tx } from "../../db/tx";
import { audit } from "../../platform/audit";
import type { Actor } from "../../platform/auth/actor";
import { tenantOf } from "../../platform/auth/guard";
import type { Clock } from "../../platform/clock";
import { AppError, conflict, invalid } from "../../platform/http/errors";
import type { FileStorage } from "../../platform/storage";
import { balancesOf, post } from "../ledger";
import { getMerchant } from "../merchants";
import type { ReviewOutcome, ReviewQueue } from "../ops";
import { moneyText } from "../../platform/money-text";
import { moneyAccounts, type PaymentsAdapter } from "../../platform/payments";
import type { PayApplicationsTable } from "./tables";
import type { Selectable } from "kysely";

export interface CollectionDeps {
  db: Db;
  clock: Clock;
  storage: FileStorage;
  /** Whether a user is a sub-account (sub-passport) of the merchant (accounts module). */
  isSubAccount: (merchantId: number, userId: number) => Promise<boolean>;
  /** Whether a store is the merchant's (stores module). */
  ownStore: (merchantId: number, storeId: number) => Promise<boolean>;
  /** The local aggregator finishes a signed application after this many seconds (its asynchronous step). */
  signingSeconds: number;
  /** Customer payments: the payments seam. */
  payments: PaymentsAdapter;
}

type AppRow = Selectable<PayApplicationsTable>;
const notFound = () => new AppError(CODE.NOT_FOUND, "collection.notFound");
const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
const money = (amount: number, currency: Currency) => ({ amount, currency });
const maskMiddle = (s: string, keep = 4) =>
  s.length <= keep * 2 ? s : `${s.slice(0, keep)}${"*".repeat(s.length - keep * 2)}${s.slice(-keep)}`;
const EDITABLE: readonly string[] = ["EDITTING", "REJECTED"];
/**
 * The fee's share of `refunded` out of `amount`, rounded half up (all of it once everything is refunded).
 * Exact in doubles: a payment is at most 5,000,000 minor units and its fee a fraction of it.
 */
export const feeShare = (fee: number, amount: number, refunded: number) =>
  refunded >= amount ? fee : Math.floor((fee * refunded * 2 + amount) / (2 * amount));
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
const imageUrl = (key: string) => (key ? `/api/card-brander/paymentApplyRecords/images/${key}` : null);

/**
 * Payment collection: aggregated onboarding on a payment aggregator (here the local adapter: an operator
 * reviews in the console, the merchant confirms, signs through the link, and the adapter finishes the
 * signing asynchronously), collection codes per account, payments through a code (the local adapter's
 * simulated wallet pays at once) and refunds. A payment credits the merchant's income less the fee of its
 * industry, the fee to the platform; a refund takes it back, never more than was paid, once per request.
 */
export class CollectionService {
  constructor(private readonly deps: CollectionDeps) {}

  private now(): Date {
    return this.deps.clock.now();
  }

  industries(lang: Lang) {
    return WECHAT_INDUSTRIES.map((i) => ({ code: i.code, name: i.name[lang], feeBps: i.feeBps }));
  }

  /* ---------- onboarding ---------- */

  private present(r: AppRow, lang: Lang): ApplyRecord {
    // Masked once with the aggregator; a draft or a rejected application is the merchant's to edit, in full.
    const submitted = !EDITABLE.includes(r.state);
    return {
      id: String(r.id),
      businessCode: r.business_code,
      state: r.state,
      companyName: r.company_name,
      creditCode: r.credit_code,
      legalPerson: r.legal_person,
      legalIdNo: submitted ? maskMiddle(r.legal_id_no, 3) : r.legal_id_no,
      contactName: r.contact_name,
      contactPhone: r.contact_phone,
      industryCode: r.industry_code,
      industryName: WECHAT_INDUSTRIES.find((i) => i.code === r.industry_code)?.name[lang] ?? "",
      bankName: r.bank_name,
      bankAccount: submitted ? maskMiddle(r.bank_account) : r.bank_account,
      bankAccountName: r.bank_account_name,
      licenceImage: r.licence_image,
      licenceUrl: imageUrl(r.licence_image),
      idCardFront: r.id_card_front,
      idCardFrontUrl: imageUrl(r.id_card_front),
      idCardBack: r.id_card_back,
      idCardBackUrl: imageUrl(r.id_card_back),
      rejectReason: r.reject_reason,
      signUrl: r.state === "TO_BE_SIGNED" && r.sign_token ? `/paySign/${r.sign_token}` : null,
      subMchid: r.sub_mchid,
      feeBps: r.fee_bps,
      submittedAt: iso(r.submitted_at),
      updatedAt: new Date(r.updated_at).toISOString(),
    };
  }

  private current(db: Db | Tx, merchantId: number, lock = false) {
    let q = db
      .selectFrom("pay_applications")
      .selectAll()
      .where("merchant_id", "=", merchantId)
      .where("state", "<>", "CANCELED");
    if (lock) q = q.forUpdate();
    return q.executeTakeFirst();
  }

  async records(actor: Actor, lang: Lang): Promise<Page<ApplyRecord>> {
    const r = await this.current(this.deps.db, tenantOf(actor));
    return { list: r ? [this.present(r, lang)] : [], total: r ? 1 : 0, page: 1, pageSize: 20 };
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
        const cur = await this.current(tx, merchantId, true);
        if (!cur) {
          return tx
            .insertInto("pay_applications")
            .values({
              merchant_id: merchantId,
              business_code: `APL${merchantId}${Date.now().toString(36).toUpperCase()}`,
              ...values,
              created_at: now,
            })
            .returningAll()
            .executeTakeFirstOrThrow();
        }
        if (!EDITABLE.includes(cur.state)) throw conflict("collection.notEditable");
        return tx
          .updateTable("pay_applications")
          .set({ ...values, state: "EDITTING" })
          .where("id", "=", cur.id)
          .returningAll()
          .executeTakeFirstOrThrow();
      });
      return this.present(row, lang);
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict("collection.notEditable");
      throw err;
    }
  }

  /** Submits the application to the aggregator's review: every field must be there and valid. */
  async submit(actor: Actor, lang: Lang): Promise<ApplyRecord> {
    const merchantId = tenantOf(actor);
    const row = await withTx(this.deps.db, async (tx) => {
      const cur = await this.current(tx, merchantId, true);
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
      return tx
        .updateTable("pay_applications")
        .set({ state: "AUDITING", fee_bps: feeBps, submitted_at: this.now(), updated_at: this.now() })
        .where("id", "=", cur.id)
        .returningAll()
        .executeTakeFirstOrThrow();
    });
    return this.present(row, lang);
  }

  /** The merchant confirms the approved application (account verification): the aggregator issues the signing link. */
  async confirm(actor: Actor, lang: Lang): Promise<ApplyRecord> {
    const merchantId = tenantOf(actor);
    const row = await withTx(this.deps.db, async (tx) => {
      const cur = await this.current(tx, merchantId, true);
      if (!cur) throw notFound();
      if (cur.state !== "TO_BE_CONFIRMED") throw conflict("collection.wrongState");
      return tx
        .updateTable("pay_applications")
        .set({
          state: "TO_BE_SIGNED",
          sign_token: randomBytes(16).toString("base64url"),
          sub_mchid: `19${String(1_000_000 + cur.id).padStart(8, "0")}`,
          updated_at: this.now(),
        })
        .where("id", "=", cur.id)
        .returningAll()
        .executeTakeFirstOrThrow();
    });
    return this.present(row, lang);
  }

  /** The signing link (the merchant's administrator opens it): what is signed. */
  async signInfo(token: string, lang: Lang): Promise<ApplyRecord> {
    const r = await this.deps.db
      .selectFrom("pay_applications")
      .selectAll()
      .where("sign_token", "=", token)
      .executeTakeFirst();
    if (!r) throw new AppError(CODE.NOT_FOUND, "collection.signLinkInvalid");
    return this.present(r, lang);
  }

  /** Signs through the link: the aggregator then finishes asynchronously (`advance`). */
  async sign(token: string, lang: Lang): Promise<ApplyRecord> {
    const row = await withTx(this.deps.db, async (tx) => {
      const r = await tx
        .selectFrom("pay_applications")
        .selectAll()
        .where("sign_token", "=", token)
        .forUpdate()
        .executeTakeFirst();
      if (!r || (r.state !== "TO_BE_SIGNED" && r.state !== "SIGNING" && r.state !== "FINISHED")) {
        throw new AppError(CODE.NOT_FOUND, "collection.signLinkInvalid");
      }
      if (r.state !== "TO_BE_SIGNED") return r;
      return tx
        .updateTable("pay_applications")
        .set({ state: "SIGNING", signed_at: this.now(), updated_at: this.now() })
        .where("id", "=", r.id)
        .returningAll()
        .executeTakeFirstOrThrow();
    });
    return this.present(row, lang);
  }

  /** The local aggregator's asynchronous step: signed applications finish after a short while. */
  async advance(): Promise<number> {
    const before = new Date(this.now().getTime() - this.deps.signingSeconds * 1000);
    const r = await this.deps.db
      .updateTable("pay_applications")
      .set({ state: "FINISHED", finished_at: this.now(), updated_at: this.now() })
      .where("state", "=", "SIGNING")
      .where("signed_at", "<=", before)
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
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
      const r = await tx.selectFrom("pay_applications").selectAll().where("id", "=", id).forUpdate().executeTakeFirst();
      if (!r) throw new AppError(CODE.NOT_FOUND, "error.notFound");
      if (r.state !== "AUDITING") throw conflict("review.notPending");
      const state = reason === null ? "TO_BE_CONFIRMED" : "REJECTED";
      await tx
        .updateTable("pay_applications")
        .set({ state, reject_reason: reason, reviewed_at: now, reviewed_by: operator.userId, updated_at: now })
        .where("id", "=", id)
        .execute();
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
      countPending: async (db) =>
        Number(
          (
            await db
              .selectFrom("pay_applications")
              .select((eb) => eb.fn.countAll<string>().as("n"))
              .where("state", "=", "AUDITING")
              .executeTakeFirst()
          )?.n ?? 0,
        ),
      list: async (db, q: QueueItemsQuery): Promise<Page<QueueItem>> => {
        let base = db
          .selectFrom("pay_applications as a")
          .innerJoin("merchants as m", "m.id", "a.merchant_id")
          .where("a.state", "not in", ["EDITTING", "CANCELED"]);
        if (q.state === "pending") base = base.where("a.state", "=", "AUDITING");
        if (q.state === "rejected") base = base.where("a.state", "=", "REJECTED");
        if (q.state === "approved") {
          base = base.where("a.state", "in", ["TO_BE_CONFIRMED", "TO_BE_SIGNED", "SIGNING", "FINISHED"]);
        }
        if (q.merchantId) base = base.where("a.merchant_id", "=", Number(q.merchantId));
        const total = Number((await base.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirst())?.n ?? 0);
        const rows = await base
          .selectAll("a")
          .select("m.name as merchant_name")
          .orderBy("a.submitted_at", "desc")
          .limit(q.pageSize)
          .offset((q.page - 1) * q.pageSize)
          .execute();
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
              legalIdNumber: maskMiddle(r.legal_id_no, 3),
              contact: `${r.contact_name} ${r.contact_phone}`,
              industry: WECHAT_INDUSTRIES.find((i) => i.code === r.industry_code)?.name.cn ?? r.industry_code,
              bank: `${r.bank_name} ${maskMiddle(r.bank_account)} ${r.bank_account_name}`,
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

  /* ---------- collection codes ---------- */

  private async finished(merchantId: number): Promise<AppRow> {
    const cur = await this.current(this.deps.db, merchantId);
    if (!cur || cur.state !== "FINISHED") throw conflict("collection.notFinished");
    return cur;
  }

  private presentCode(
    r: {
      id: number;
      passport_id: number;
      name: string;
      store_id: number | null;
      token: string;
      amount: number | null;
      created_at: Date;
    },
    origin: string,
  ): PayCode {
    return {
      id: String(r.id),
      passportId: String(r.passport_id),
      name: r.name,
      storeId: r.store_id === null ? null : String(r.store_id),
      amount: r.amount,
      url: `${origin}/pay/${r.token}`,
      createdAt: new Date(r.created_at).toISOString(),
    };
  }

  /** The account a code belongs to: the caller's own, or one of the merchant's sub-accounts. */
  private async checkPassport(actor: Actor, merchantId: number, passportId: number): Promise<void> {
    if (passportId === actor.userId) return;
    if (!(await this.deps.isSubAccount(merchantId, passportId))) {
      throw new AppError(CODE.NOT_FOUND, "collection.passportNotYours");
    }
  }

  async codes(
    actor: Actor,
    passportId: number,
    q: { page: number; pageSize: number },
    origin: string,
  ): Promise<Page<PayCode>> {
    const merchantId = tenantOf(actor);
    await this.checkPassport(actor, merchantId, passportId);
    const base = this.deps.db
      .selectFrom("pay_codes")
      .where("merchant_id", "=", merchantId)
      .where("passport_id", "=", passportId)
      .where("deleted_at", "is", null);
    const total = Number((await base.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirst())?.n ?? 0);
    const rows = await base
      .selectAll()
      .orderBy("id", "desc")
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize)
      .execute();
    return { list: rows.map((r) => this.presentCode(r, origin)), total, page: q.page, pageSize: q.pageSize };
  }

  /** The live collection codes bound to one of the merchant's stores, of any of its accounts. */
  async storeCodes(
    actor: Actor,
    storeId: number,
    q: { page: number; pageSize: number },
    origin: string,
  ): Promise<Page<PayCode>> {
    const merchantId = tenantOf(actor);
    if (!(await this.deps.ownStore(merchantId, storeId))) throw new AppError(CODE.NOT_FOUND, "stores.notFound");
    const base = this.deps.db
      .selectFrom("pay_codes")
      .where("merchant_id", "=", merchantId)
      .where("store_id", "=", storeId)
      .where("deleted_at", "is", null);
    const total = Number((await base.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirst())?.n ?? 0);
    const rows = await base
      .selectAll()
      .orderBy("id", "desc")
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize)
      .execute();
    return { list: rows.map((r) => this.presentCode(r, origin)), total, page: q.page, pageSize: q.pageSize };
  }

  async createCode(
    actor: Actor,
    passportId: number,
    req: { name: string; storeId: string | null; amount: number | null },
    origin: string,
  ): Promise<PayCode> {
    const merchantId = tenantOf(actor);
    await this.checkPassport(actor, merchantId, passportId);
    const account = await this.finished(merchantId);
    const currency = (await getMerchant(this.deps.db, merchantId))?.currency ?? "CNY";
    if (req.amount !== null && req.amount > account.per_payment_limit) {
      throw new AppError(
        CODE.INVALID_PARAMETER,
        "collection.overLimit",
        { limit: moneyText(account.per_payment_limit, currency) },
        "amount",
      );
    }
    if (req.storeId !== null && !(await this.deps.ownStore(merchantId, Number(req.storeId)))) {
      throw new AppError(CODE.NOT_FOUND, "stores.notFound");
    }
    const row = await this.deps.db
      .insertInto("pay_codes")
      .values({
        merchant_id: merchantId,
        passport_id: passportId,
        store_id: req.storeId === null ? null : Number(req.storeId),
        name: req.name,
        amount: req.amount,
        token: randomBytes(12).toString("base64url"),
        created_at: this.now(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return this.presentCode(row, origin);
  }

  async code(actor: Actor, passportId: number, id: number, origin: string): Promise<PayCode> {
    const r = await this.deps.db
      .selectFrom("pay_codes")
      .selectAll()
      .where("id", "=", id)
      .where("merchant_id", "=", tenantOf(actor))
      .where("passport_id", "=", passportId)
      .where("deleted_at", "is", null)
      .executeTakeFirst();
    if (!r) throw new AppError(CODE.NOT_FOUND, "collection.codeNotFound");
    return this.presentCode(r, origin);
  }

  async deleteCode(actor: Actor, passportId: number, id: number): Promise<{ deleted: true }> {
    const merchantId = tenantOf(actor);
    const r = await this.deps.db
      .updateTable("pay_codes")
      .set({ deleted_at: this.now() })
      .where("id", "=", id)
      .where("merchant_id", "=", merchantId)
      .where("passport_id", "=", passportId)
      .where("deleted_at", "is", null)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) throw new AppError(CODE.NOT_FOUND, "collection.codeNotFound");
    return { deleted: true };
  }

  /* ---------- paying ---------- */

  private async liveCode(token: string) {
    const c = await this.deps.db
      .selectFrom("pay_codes")
      .selectAll()
      .where("token", "=", token)
      .where("deleted_at", "is", null)
      .executeTakeFirst();
    if (!c) throw new AppError(CODE.NOT_FOUND, "collection.codeNotFound");
    return c;
  }

  async codeInfo(token: string): Promise<PayCodeInfo> {
    const c = await this.liveCode(token);
    const m = await getMerchant(this.deps.db, c.merchant_id);
    const app = await this.current(this.deps.db, c.merchant_id);
    return {
      merchantName: m?.name ?? "",
      codeName: c.name,
      currency: m?.currency ?? "CNY",
      amount: c.amount,
      limit: app?.per_payment_limit ?? 0,
    };
  }

  /**
   * The payer pays through a code with the local adapter's simulated wallet: the order is made and paid
   * in one transaction (the same request key returns the first order): the merchant's income gets the
   * amount less the fee, the platform the fee.
   */
  async pay(token: string, req: { amount: number; note: string; requestKey: string }): Promise<PayOrder> {
    const c = await this.liveCode(token);
    const app = await this.current(this.deps.db, c.merchant_id);
    if (!app || app.state !== "FINISHED") throw new AppError(CODE.NOT_FOUND, "collection.codeNotFound");
    const m = await getMerchant(this.deps.db, c.merchant_id);
    const currency: Currency = m?.currency ?? "CNY";
    // Bounded amounts: the code's own amount when it fixes one, else within the account's per-payment limit.
    if (c.amount !== null && req.amount !== c.amount) {
      throw new AppError(
        CODE.INVALID_PARAMETER,
        "collection.amountFixed",
        { amount: moneyText(c.amount, currency) },
        "amount",
      );
    }
    if (req.amount > app.per_payment_limit) {
      throw new AppError(
        CODE.INVALID_PARAMETER,
        "collection.overLimit",
        { limit: moneyText(app.per_payment_limit, currency) },
        "amount",
      );
    }
    const first = await this.deps.db
      .selectFrom("pay_orders")
      .select("id")
      .where("code_id", "=", c.id)
      .where("request_key", "=", req.requestKey)
      .executeTakeFirst();
    if (first) return this.orderView(c.merchant_id, first.id);
    const fee = Math.round((req.amount * app.fee_bps) / 10_000);
    const now = this.now();
    const orderNo = `PAY${now.getTime()}${randomBytes(3).toString("hex").toUpperCase()}`;
    try {
      const id = await withTx(this.deps.db, async (tx) => {
        const o = await tx
          .insertInto("pay_orders")
          .values({
            merchant_id: c.merchant_id,
            code_id: c.id,
            order_no: orderNo,
            request_key: req.requestKey,
            amount: req.amount,
            fee,
            currency,
            note: req.note,
            created_at: now,
          })
          .returning("id")
          .executeTakeFirstOrThrow();
        // Credited only on the payments seam's confirmation; test money goes to the sandbox accounts.
        const paid = await this.deps.payments.create(
          tx,
          {
            merchantId: c.merchant_id,
            subject: { type: "pay_order", id: o.id },
            paymentNo: orderNo,
            amount: req.amount,
            currency,
            description: c.name,
            payer: "payer",
          },
          now,
        );
        if (paid.state !== "paid") return o.id;
        const money = moneyAccounts(paid.sandbox);
        await post(tx, {
          idempotencyKey: `pay-order:${o.id}`,
          kind: "collection_payment",
          currency,
          reason: ledgerReason("ledgerReason.collection", { name: c.name }),
          subject: { type: "pay_order", id: o.id },
          createdBy: null,
          postings: [
            { account: money.clearing, amount: -req.amount },
            { account: money.income(c.merchant_id), amount: req.amount - fee },
            ...(fee > 0 ? [{ account: money.fees, amount: fee }] : []),
          ],
        });
        await tx
          .updateTable("pay_orders")
          .set({ state: "SUCCESS", paid_at: now, sandbox: paid.sandbox })
          .where("id", "=", o.id)
          .execute();
        return o.id;
      });
      return await this.orderView(c.merchant_id, id);
    } catch (err) {
      if (isUniqueViolation(err)) {
        const again = await this.deps.db
          .selectFrom("pay_orders")
          .select("id")
          .where("code_id", "=", c.id)
          .where("request_key", "=", req.requestKey)
          .executeTakeFirst();
        if (again) return this.orderView(c.merchant_id, again.id);
      }
      throw err;
    }
  }

  private orders() {
    return this.deps.db
      .selectFrom("pay_orders as o")
      .innerJoin("pay_codes as c", "c.id", "o.code_id")
      .select([
        "o.id",
        "o.order_no",
        "c.name as code_name",
        "o.amount",
        "o.fee",
        "o.refunded",
        "o.currency",
        "o.state",
        "o.note",
        "o.paid_at",
        "o.created_at",
      ]);
  }

  private presentOrder(r: {
    id: number;
    order_no: string;
    code_name: string;
    amount: number | string;
    fee: number | string;
    refunded: number | string;
    currency: Currency;
    state: PayOrder["state"];
    note: string;
    paid_at: Date | null;
    created_at: Date;
  }): PayOrder {
    const amount = Number(r.amount);
    const fee = Number(r.fee);
    return {
      id: String(r.id),
      orderNo: r.order_no,
      codeName: r.code_name,
      amount: money(amount, r.currency),
      fee: money(fee, r.currency),
      net: money(amount - fee, r.currency),
      refunded: money(Number(r.refunded), r.currency),
      state: r.state,
      note: r.note,
      paidAt: iso(r.paid_at),
      createdAt: new Date(r.created_at).toISOString(),
    };
  }

  private async orderView(merchantId: number, id: number): Promise<PayOrder> {
    const r = await this.orders().where("o.id", "=", id).where("o.merchant_id", "=", merchantId).executeTakeFirst();
    if (!r) throw new AppError(CODE.NOT_FOUND, "collection.orderNotFound");
    return this.presentOrder(r);
  }

  async orderList(merchantIds: number[], q: PayOrderQuery): Promise<Page<PayOrder>> {
    let base = this.orders().where("o.merchant_id", "in", merchantIds.length > 0 ? merchantIds : [-1]);
    if (q.state) base = base.where("o.state", "=", q.state);
    if (q.orderNo) base = base.where("o.order_no", "=", q.orderNo);
    if (q.from) base = base.where("o.created_at", ">=", new Date(`${q.from}T00:00:00+08:00`));
    if (q.to) {
      base = base.where("o.created_at", "<", new Date(new Date(`${q.to}T00:00:00+08:00`).getTime() + 86_400_000));
    }
    const total = Number(
      (
        await base
          .clearSelect()
          .select((eb) => eb.fn.countAll<string>().as("n"))
          .executeTakeFirst()
      )?.n ?? 0,
    );
    const rows = await base
      .orderBy("o.id", "desc")
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize)
      .execute();
    return { list: rows.map((r) => this.presentOrder(r)), total, page: q.page, pageSize: q.pageSize };
  }

  /* ---------- refunds ---------- */

  private presentRefund(
    r: {
      id: number;
      order_id: number;
      order_no: string;
      amount: number | string;
      fee: number | string;
      currency: Currency;
      state: PayRefund["state"];
      reason: string;
      fail_reason: string | null;
      created_at: Date;
    },
    lang: Lang,
  ): PayRefund {
    return {
      id: String(r.id),
      orderId: String(r.order_id),
      orderNo: r.order_no,
      amount: money(Number(r.amount), r.currency),
      feeBack: money(Number(r.fee), r.currency),
      state: r.state,
      reason: r.reason,
      failReason: r.fail_reason === null ? null : renderMessage(r.fail_reason as MessageKey, lang),
      createdAt: new Date(r.created_at).toISOString(),
    };
  }

  private refundsQuery() {
    return this.deps.db
      .selectFrom("pay_refunds as f")
      .innerJoin("pay_orders as o", "o.id", "f.order_id")
      .select([
        "f.id",
        "f.order_id",
        "o.order_no",
        "f.amount",
        "f.fee",
        "f.currency",
        "f.state",
        "f.reason",
        "f.fail_reason",
        "f.created_at",
      ]);
  }

  async refunds(
    actor: Actor,
    q: { page: number; pageSize: number; orderId?: string | undefined; state?: PayRefund["state"] | undefined },
    lang: Lang,
  ): Promise<Page<PayRefund>> {
    let base = this.refundsQuery().where("f.merchant_id", "=", tenantOf(actor));
    if (q.orderId) base = base.where("f.order_id", "=", Number(q.orderId));
    if (q.state) base = base.where("f.state", "=", q.state);
    const total = Number(
      (
        await base
          .clearSelect()
          .select((eb) => eb.fn.countAll<string>().as("n"))
          .executeTakeFirst()
      )?.n ?? 0,
    );
    const rows = await base
      .orderBy("f.id", "desc")
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize)
      .execute();
    return { list: rows.map((r) => this.presentRefund(r, lang)), total, page: q.page, pageSize: q.pageSize };
  }

  /**
   * Refunds part or all of a paid order, under the order's row lock: never more than what is left; the
   * same request key returns the first refund. The refund gives back the same share of the payment's fee
   * (from the platform's fees to the payer with the rest): the fee given back after a refund is the fee's
   * share of everything refunded so far, rounded, less what earlier refunds gave back, so the refund that
   * completes the payment gives back exactly what remains of the fee. The merchant's income pays the
   * refund less that share. The local adapter answers at once: success, or failure (the income cannot
   * cover it; nothing moved).
   */
  async refund(
    actor: Actor,
    req: { orderId: string; amount: number; reason: string; requestKey: string },
    lang: Lang,
  ): Promise<PayRefund> {
    const merchantId = tenantOf(actor);
    const first = await this.refundsQuery()
      .where("f.merchant_id", "=", merchantId)
      .where("f.request_key", "=", req.requestKey)
      .executeTakeFirst();
    if (first) return this.presentRefund(first, lang);
    const id = await withTx(this.deps.db, async (tx) => {
      const o = await tx
        .selectFrom("pay_orders")
        .selectAll()
        .where("id", "=", Number(req.orderId))
        .where("merchant_id", "=", merchantId)
        .forUpdate()
        .executeTakeFirst();
      if (!o) throw new AppError(CODE.NOT_FOUND, "collection.orderNotFound");
      const replay = await tx
        .selectFrom("pay_refunds")
        .select("id")
        .where("merchant_id", "=", merchantId)
        .where("request_key", "=", req.requestKey)
        .executeTakeFirst();
      if (replay) return replay.id;
      if (o.state !== "SUCCESS") throw conflict("collection.notPaid");
      if (req.amount > o.amount - o.refunded) throw invalid("collection.refundTooLarge", "amount");
      const now = this.now();
      const refunded = Number(o.refunded) + req.amount;
      const feeBack = feeShare(Number(o.fee), Number(o.amount), refunded) - Number(o.fee_refunded);
      const fromIncome = req.amount - feeBack;
      const money = moneyAccounts(o.sandbox);
      const balances = await balancesOf(tx, merchantId, o.currency);
      const income = (o.sandbox ? balances.sandbox_income : balances.income).amount;
      let ok = income >= fromIncome;
      const f = await tx
        .insertInto("pay_refunds")
        .values({
          merchant_id: merchantId,
          order_id: o.id,
          request_key: req.requestKey,
          amount: req.amount,
          currency: o.currency,
          reason: req.reason,
          created_by: actor.userId,
          created_at: now,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      if (ok) {
        ok =
          (
            await this.deps.payments.refund(
              tx,
              { paymentNo: o.order_no, refundNo: `${o.order_no}R${f.id}`, amount: req.amount },
              now,
            )
          ).state !== "failed" || !o.sandbox;
      }
      if (ok) {
        await post(tx, {
          idempotencyKey: `pay-refund:${f.id}`,
          kind: "refund",
          currency: o.currency,
          reason: ledgerReason("ledgerReason.collectionRefund", { orderNo: o.order_no }),
          subject: { type: "pay_refund", id: f.id },
          createdBy: actor.userId,
          postings: [
            { account: money.income(merchantId), amount: -fromIncome },
            ...(feeBack > 0 ? [{ account: money.fees, amount: -feeBack }] : []),
            { account: money.clearing, amount: req.amount },
          ],
        });
        await tx
          .updateTable("pay_orders")
          .set({ refunded, fee_refunded: Number(o.fee_refunded) + feeBack })
          .where("id", "=", o.id)
          .execute();
      }
      await tx
        .updateTable("pay_refunds")
        .set({
          state: ok ? "SUCCESS" : "FAILURE",
          fee: ok ? feeBack : 0,
          fail_reason: ok ? null : "collection.refundFunds",
          finished_at: now,
        })
        .where("id", "=", f.id)
        .execute();
      await audit(tx, {
        actorUserId: actor.userId,
        action: "payOrder.refund",
        subjectType: "pay_order",
        subjectId: o.id,
        detail: { amount: req.amount, feeBack: ok ? feeBack : 0, ok },
      });
      return f.id;
    });
    const r = await this.refundsQuery().where("f.id", "=", id).executeTakeFirstOrThrow();
    return this.presentRefund(r, lang);
  }
}
