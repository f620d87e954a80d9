import { randomBytes } from "node:crypto";
import { maskMiddle } from "../../platform/present";
import type { Readable } from "node:stream";
import {
  payerProblem,
  type BankDetails,
  type CreditReq,
  type FundAccount,
  type FundChangeQuery,
  type FundChangeRow,
  type MerchantAccountKind,
  type Money,
  type StatementQuery,
  type StatementReply,
  type TopUpListQuery,
  type TopUpReq,
} from "@tessera/contracts";
import type { Config } from "../../config";
import { withTx, type Db, type Tx } from "../../db/tx";
import type { Actor } from "../../platform/auth/actor";
import { audit } from "../../platform/audit";
import type { Clock } from "../../platform/clock";
import { conflict, forbidden, invalid, notFound, AppError } from "../../platform/http/errors";
import { imageInfo } from "../../platform/images";
import type { FileStorage } from "../../platform/storage";
import { balancesOf, fundChanges, periodTotals, post, type EntryFilter } from "../ledger";
import { getMerchant, merchantOfActor, type MerchantRow } from "../merchants";
import { recordOperatorAction } from "../ops";
import { CODE, renderLedgerReason, type Lang } from "@tessera/contracts";
import * as repo from "./repo";
import { pageWindow } from "../../db/paginate";

export interface FundsDeps {
  db: Db;
  config: Config;
  clock: Clock;
  storage: FileStorage;
}

/** Transfer proofs: images up to 5 MB. */
export const PROOF_MAX_BYTES = 5 * 1024 * 1024;

/** The accounts each role may list: purchasers their reserve and SUP accounts, suppliers income and SUP. */
const LISTABLE: Record<string, readonly FundAccount[]> = {
  sale: ["reserve", "sup"],
  business: ["income", "sup"],
  providers: ["income"],
};

/**
 * Top-ups, reserve transfers, operator credits and refunds, and the fund-change lists. Every movement of
 * money goes through the ledger in the same transaction as the business row that causes it, under an
 * idempotency key derived from the request's key, so a retried request never moves money twice.
 */
export class FundsService {
  constructor(private readonly deps: FundsDeps) {}

  private merchantOf(actor: Actor): Promise<MerchantRow> {
    return merchantOfActor(this.deps.db, actor);
  }

  /** The platform account a purchaser transfers to: the Hong Kong reserve account for international ones. */
  async bankDetails(actor: Actor): Promise<BankDetails> {
    const merchant = await this.merchantOf(actor);
    const { domesticBank, internationalBank, topUpFeeBasisPoints } = this.deps.config.funds;
    const base = { currency: merchant.currency, feeBasisPoints: topUpFeeBasisPoints };
    return merchant.version === "international"
      ? { ...internationalBank, ...base }
      : { ...domesticBank, swift: null, bankAddress: null, ...base };
  }

  /** Stores an image of the bank transfer; the notice refers to it by id. */
  async uploadProof(actor: Actor, file: { data: Buffer }): Promise<{ proofId: string; url: string }> {
    const merchant = await this.merchantOf(actor);
    if (file.data.length === 0 || file.data.length > PROOF_MAX_BYTES) throw invalid("funds.proofInvalid", "file");
    const info = await imageInfo(file.data);
    if (!info) throw invalid("funds.proofInvalid", "file");
    const proofId = randomBytes(16).toString("hex");
    const storageKey = `topup-proofs/${merchant.id}/${proofId}.${info.format === "jpeg" ? "jpg" : info.format}`;
    await this.deps.storage.put(storageKey, file.data);
    await repo.insertProof(this.deps.db, {
      id: proofId,
      merchantId: merchant.id,
      storageKey,
      contentType: `image/${info.format}`,
    });
    return { proofId, url: proofUrl(proofId) };
  }

  /** A proof's bytes, for the merchant that uploaded it and for operators. */
  async openProof(actor: Actor, proofId: string): Promise<{ stream: Readable; size: number; contentType: string }> {
    const proof = /^[a-f0-9]{32}$/.test(proofId) ? await repo.findProof(this.deps.db, proofId) : undefined;
    if (!proof || (actor.kind !== "operator" && proof.merchant_id !== actor.merchantId)) throw notFound();
    const opened = await this.deps.storage.open(proof.storage_key);
    if (!opened) throw notFound();
    return { ...opened, contentType: proof.content_type };
  }

  /** Files a top-up notice. The same request key returns the first notice instead of filing another. */
  async submitTopUp(actor: Actor, req: TopUpReq) {
    const merchant = await this.merchantOf(actor);
    const problem = payerProblem(merchant.version, req.payerType, req.payerName, req.idNumber);
    if (problem) throw invalid(problem.key, problem.field);
    let proofKey: string | null = null;
    if (req.proofId) {
      const proof = await repo.findProof(this.deps.db, req.proofId);
      if (!proof || proof.merchant_id !== merchant.id) throw invalid("funds.proofNotFound", "proofId");
      proofKey = proof.storage_key;
    }
    const notice = await withTx(this.deps.db, async (tx) => {
      const id = await repo.insertNotice(tx, {
        merchantId: merchant.id,
        amount: req.amount,
        currency: merchant.currency,
        payerType: req.payerType,
        payerName: req.payerName,
        idNumber: req.idNumber.toUpperCase(),
        otherAccount: req.otherAccount,
        transferRef: req.transferRef,
        proofKey,
        requestKey: req.requestKey,
        submittedBy: actor.userId,
      });
      if (id === null) {
        const first = await repo.findNoticeByRequestKey(tx, merchant.id, req.requestKey);
        if (!first || first.amount !== req.amount || first.transfer_ref !== req.transferRef) {
          throw conflict("ledger.idempotencyMismatch", "requestKey");
        }
        return first;
      }
      await audit(tx, {
        actorUserId: actor.userId,
        action: "funds.topUp.submit",
        subjectType: "topup_notice",
        subjectId: id,
        detail: { amount: req.amount },
      });
      const row = await repo.findNotice(tx, id);
      if (!row) throw new Error("top-up notice vanished in its own transaction");
      return row;
    });
    return this.presentOne(notice, { unmasked: false });
  }

  async listTopUps(actor: Actor, q: TopUpListQuery) {
    const isOperator = actor.kind === "operator";
    const merchantId = isOperator
      ? q.merchantId !== undefined
        ? Number(q.merchantId)
        : undefined
      : (await this.merchantOf(actor)).id;
    const { rows, total } = await repo.noticePage(this.deps.db, {
      merchantId,
      state: q.state,
      ...pageWindow(q),
    });
    return { list: await this.present(rows, { unmasked: isOperator }), total, page: q.page, pageSize: q.pageSize };
  }

  /**
   * An operator confirms a notice: the reserve account is credited from bank clearing and the configured
   * fee is taken as its own entry, all with the review in one transaction. A second confirmation, or a
   * confirmation racing a rejection, finds the notice reviewed and changes nothing.
   */
  async confirmTopUp(operator: Actor, id: number, ip: string) {
    const row = await withTx(this.deps.db, async (tx) => {
      const notice = await this.lockPending(tx, id);
      const fee = Math.floor((notice.amount * this.deps.config.funds.topUpFeeBasisPoints) / 10_000);
      const base = { currency: notice.currency, subject: { type: "topup_notice", id }, createdBy: operator.userId };
      await post(tx, {
        ...base,
        idempotencyKey: `topup:${id}`,
        kind: "top_up",
        reason: notice.transfer_ref,
        postings: [
          { account: { platform: "bank_clearing" }, amount: -notice.amount },
          { account: { merchantId: notice.merchant_id, kind: "reserve" }, amount: notice.amount },
        ],
      });
      if (fee > 0) {
        await post(tx, {
          ...base,
          idempotencyKey: `topup-fee:${id}`,
          kind: "top_up_fee",
          reason: notice.transfer_ref,
          postings: [
            { account: { merchantId: notice.merchant_id, kind: "reserve" }, amount: -fee },
            { account: { platform: "fees" }, amount: fee },
          ],
        });
      }
      await repo.markReviewed(tx, id, {
        state: "confirmed",
        fee,
        rejectReason: null,
        reviewedBy: operator.userId,
        now: this.deps.clock.now(),
      });
      await recordOperatorAction(tx, {
        operatorUserId: operator.userId,
        action: "topUp.confirm",
        subjectType: "topUpNotice",
        subjectId: String(id),
        before: { state: "pending" },
        after: { state: "confirmed", amount: notice.amount, fee, currency: notice.currency },
        reason: null,
        ip,
        now: this.deps.clock.now(),
      });
      return repo.findNotice(tx, id);
    });
    return this.presentOne(row, { unmasked: true });
  }

  async rejectTopUp(operator: Actor, id: number, reason: string, ip: string) {
    const row = await withTx(this.deps.db, async (tx) => {
      await this.lockPending(tx, id);
      await repo.markReviewed(tx, id, {
        state: "rejected",
        fee: 0,
        rejectReason: reason,
        reviewedBy: operator.userId,
        now: this.deps.clock.now(),
      });
      await recordOperatorAction(tx, {
        operatorUserId: operator.userId,
        action: "topUp.reject",
        subjectType: "topUpNotice",
        subjectId: String(id),
        before: { state: "pending" },
        after: { state: "rejected" },
        reason,
        ip,
        now: this.deps.clock.now(),
      });
      return repo.findNotice(tx, id);
    });
    return this.presentOne(row, { unmasked: true });
  }

  private async lockPending(tx: Tx, id: number): Promise<repo.NoticeRow> {
    const notice = await repo.lockNotice(tx, id);
    if (!notice) throw new AppError(CODE.NOT_FOUND, "funds.topUpNotFound");
    if (notice.state !== "pending") throw conflict("funds.topUpAlreadyReviewed");
    return notice;
  }

  /** An operator credits a merchant's reserve account by hand (a reason is required and audited). */
  manualCredit(operator: Actor, merchantId: number, req: CreditReq, ip: string) {
    return this.operatorMovement(operator, merchantId, req, "manual_credit", ip);
  }

  /** An operator sends top-up money back to the purchaser's bank: it leaves the reserve account. */
  topUpRefund(operator: Actor, merchantId: number, req: CreditReq, ip: string) {
    return this.operatorMovement(operator, merchantId, req, "top_up_refund", ip);
  }

  private async operatorMovement(
    operator: Actor,
    merchantId: number,
    req: CreditReq,
    kind: "manual_credit" | "top_up_refund",
    ip: string,
  ) {
    const merchant = await getMerchant(this.deps.db, merchantId);
    if (!merchant) throw new AppError(CODE.NOT_FOUND, "funds.merchantNotFound");
    const sign = kind === "manual_credit" ? 1 : -1;
    const result = await withTx(this.deps.db, async (tx) => {
      const posted = await post(tx, {
        idempotencyKey: `${kind}:${merchantId}:${req.requestKey}`,
        kind,
        currency: merchant.currency,
        reason: req.reason,
        subject: { type: "merchant", id: merchantId },
        createdBy: operator.userId,
        postings: [
          { account: { platform: "bank_clearing" }, amount: -sign * req.amount },
          { account: { merchantId, kind: "reserve" }, amount: sign * req.amount },
        ],
      });
      if (!posted.replayed) {
        const after = posted.entries.find((e) => e.merchantId === merchantId)?.balanceAfter;
        await recordOperatorAction(tx, {
          operatorUserId: operator.userId,
          action: `funds.${kind}`,
          subjectType: "merchant",
          subjectId: String(merchantId),
          before: { reserve: after === undefined ? null : after - sign * req.amount },
          after: {
            reserve: after ?? null,
            amount: req.amount,
            currency: merchant.currency,
            transactionId: posted.transactionId,
          },
          reason: req.reason,
          ip,
          now: this.deps.clock.now(),
        });
      }
      return posted;
    });
    return {
      transactionId: String(result.transactionId),
      replayed: result.replayed,
      balances: await this.balances(merchant),
    };
  }

  /** A purchaser moves money from its reserve account to its SUP account, which pays suppliers. */
  async reserveTransfer(actor: Actor, req: { amount: number; requestKey: string }) {
    const merchant = await this.merchantOf(actor);
    const result = await withTx(this.deps.db, (tx) =>
      post(tx, {
        idempotencyKey: `reserve_transfer:${merchant.id}:${req.requestKey}`,
        kind: "reserve_transfer",
        currency: merchant.currency,
        subject: { type: "merchant", id: merchant.id },
        createdBy: actor.userId,
        postings: [
          { account: { merchantId: merchant.id, kind: "reserve" }, amount: -req.amount },
          { account: { merchantId: merchant.id, kind: "sup" }, amount: req.amount },
        ],
      }),
    );
    return {
      transactionId: String(result.transactionId),
      replayed: result.replayed,
      balances: await this.balances(merchant),
    };
  }

  private async balances(merchant: MerchantRow): Promise<{ reserve: Money; sup: Money; income: Money }> {
    const all = await balancesOf(this.deps.db, merchant.id, merchant.currency);
    return { reserve: all.reserve, sup: all.sup, income: all.income };
  }

  /** Which account a fund-change list shows: the asked one when the actor's roles allow it. */
  private async listFilter(
    actor: Actor,
    q: FundChangeQuery,
    defaultAccount: FundAccount,
  ): Promise<{ filter: EntryFilter; merchant: MerchantRow }> {
    const merchant = await this.merchantOf(actor);
    const account = q.account ?? defaultAccount;
    const allowed = actor.roles.some((r) => LISTABLE[r]?.includes(account));
    if (!allowed) throw forbidden();
    const kind: MerchantAccountKind = account;
    return {
      merchant,
      filter: {
        merchantId: merchant.id,
        kind,
        currency: merchant.currency,
        from: q.from,
        to: q.to,
        type: q.type,
        minAmount: q.minAmount,
        maxAmount: q.maxAmount,
      },
    };
  }

  async fundChangePage(actor: Actor, q: FundChangeQuery, defaultAccount: FundAccount, lang: Lang = "cn") {
    const { filter, merchant } = await this.listFilter(actor, q, defaultAccount);
    const { rows, total } = await fundChanges(this.deps.db, filter, {
      ...pageWindow(q),
    });
    const balances = await balancesOf(this.deps.db, merchant.id, merchant.currency);
    return {
      list: rows.map((r) => presentChange(r, merchant.currency, lang)),
      total,
      page: q.page,
      pageSize: q.pageSize,
      balance: balances[filter.kind as MerchantAccountKind],
    };
  }

  /**
   * Statements (per day) and settlements (per month) of one account: opening, money in, money out,
   * closing, number of movements, for each period that had any.
   */
  async statement(
    actor: Actor,
    q: StatementQuery,
    unit: "day" | "month",
    defaultAccount: FundAccount,
  ): Promise<StatementReply> {
    const { filter, merchant } = await this.listFilter(actor, { ...q, page: 1, pageSize: 20 }, defaultAccount);
    const totals = await periodTotals(this.deps.db, {
      merchantId: merchant.id,
      kind: filter.kind,
      currency: merchant.currency,
      unit,
      from: q.from,
      to: q.to,
    });
    return {
      currency: merchant.currency,
      account: q.account ?? defaultAccount,
      rows: totals.map((t) => ({ ...t, opening: t.closing - t.increase + t.expense })),
    };
  }

  /** Every row the filter selects, in pages of 1000, for the xlsx export. */
  async *fundChangeBatches(
    actor: Actor,
    q: FundChangeQuery,
    defaultAccount: FundAccount,
    lang: Lang = "cn",
  ): AsyncGenerator<FundChangeRow[]> {
    const { filter, merchant } = await this.listFilter(actor, q, defaultAccount);
    for (let offset = 0; ; offset += 1000) {
      const { rows } = await fundChanges(this.deps.db, filter, { offset, limit: 1000 });
      if (rows.length > 0) yield rows.map((r) => presentChange(r, merchant.currency, lang));
      if (rows.length < 1000) return;
    }
  }

  private async presentOne(row: repo.NoticeRow | undefined, opts: { unmasked: boolean }) {
    const [presented] = row ? await this.present([row], opts) : [];
    if (!presented) throw new Error("the notice must exist inside its own transaction");
    return presented;
  }

  private async present(rows: repo.NoticeRow[], opts: { unmasked: boolean }) {
    const names = new Map<number, string>();
    for (const id of new Set(rows.map((r) => r.merchant_id))) {
      names.set(id, (await getMerchant(this.deps.db, id))?.name ?? "");
    }
    return rows.map((r) => {
      const proofId = r.proof_key ? proofIdOf(r.proof_key) : undefined;
      return {
        id: String(r.id),
        merchantId: String(r.merchant_id),
        merchantName: names.get(r.merchant_id) ?? "",
        amount: { amount: r.amount, currency: r.currency },
        fee: { amount: r.fee, currency: r.currency },
        payerType: r.payer_type,
        payerName: r.payer_name,
        idNumber: opts.unmasked ? r.id_number : maskAccount(r.id_number),
        otherAccount: opts.unmasked ? r.other_account : maskAccount(r.other_account),
        transferRef: r.transfer_ref,
        proofUrl: proofId ? proofUrl(proofId) : null,
        state: r.state,
        rejectReason: r.reject_reason,
        createdAt: new Date(r.created_at).toISOString(),
        reviewedAt: r.reviewed_at ? new Date(r.reviewed_at).toISOString() : null,
      };
    });
  }
}

/** A proof's id is part of its storage key (`topup-proofs/<merchant>/<id>.<ext>`, see uploadProof). */
function proofIdOf(storageKey: string): string | undefined {
  return /\/([a-f0-9]{32})\.[a-z]+$/.exec(storageKey)?.[1];
}

function proofUrl(proofId: string): string {
  return `/api/card-user/funds/proofs/${proofId}`;
}

/** Keeps the first and last four characters of an ID or account number. */
export function maskAccount(value: string): string {
  return maskMiddle(value, {
    head: 4,
    tail: 4,
    short: (v) => `${v.slice(0, 2)}${"*".repeat(Math.max(0, v.length - 2))}`,
  });
}

function presentChange(
  r: { id: number; amount: number; balanceAfter: number; createdAt: Date; type: string; reason: string },
  currency: MerchantRow["currency"],
  lang: Lang,
): FundChangeRow {
  return {
    id: String(r.id),
    time: new Date(r.createdAt).toISOString(),
    increase: r.amount > 0 ? r.amount : 0,
    expense: r.amount < 0 ? -r.amount : 0,
    balance: r.balanceAfter,
    currency,
    type: r.type as FundChangeRow["type"],
    // Structured reasons in the reader's language; plain text (and rows written before) as written.
    reason: renderLedgerReason(r.reason, lang),
  };
}
