import {
  CODE,
  type ContractTransferReq,
  type Lang,
  type Page,
  type SendCodeReply,
  type Transfer,
  type TransferQuery,
  type TransferReq,
} from "@tessera/contracts";
import { withTx, type Db } from "../../db/tx";
import type { Actor } from "../../platform/auth/actor";
import { audit } from "../../platform/audit";
import type { Clock } from "../../platform/clock";
import { AppError, conflict, invalid } from "../../platform/http/errors";
import { post } from "../ledger";
import { getMerchant, merchantOfActor, type MerchantRow } from "../merchants";
import * as repo from "./repo";
import { pageWindow } from "../../db/paginate";

/** What transfers need of the accounts module: the user's bound phone and SMS codes. */
export interface TransferCodes {
  phoneOf(actor: Actor): Promise<string | null>;
  send(phone: string, lang: Lang, actor: Actor): Promise<SendCodeReply>;
  /** Checks a code and returns its id, to be consumed in the caller's transaction. */
  check(phone: string, code: string): Promise<number>;
  consume(tx: Parameters<Parameters<typeof withTx>[1]>[0], codeId: number, now: Date): Promise<boolean>;
}

export interface TransfersDeps {
  db: Db;
  clock: Clock;
  codes: TransferCodes;
}

/**
 * Transfers between merchants' income accounts. The sender authorises outgoing transfers once with an
 * SMS code; a transfer is created (and may be updated) by the sender and accepted or refused by the
 * recipient. Money moves only on acceptance, once (ledger key `transfer:<id>`), in the transaction
 * that completes the transfer.
 */
export class TransfersService {
  constructor(private readonly deps: TransfersDeps) {}

  private merchantOf(actor: Actor): Promise<MerchantRow> {
    return merchantOfActor(this.deps.db, actor);
  }

  /** Whether the merchant has authorised outgoing transfers, and when. */
  async authStatus(actor: Actor): Promise<{ authorised: boolean; authorisedAt: string | null }> {
    const merchant = await this.merchantOf(actor);
    const auth = await repo.findAuth(this.deps.db, merchant.id);
    return { authorised: auth !== undefined, authorisedAt: auth ? new Date(auth.authorised_at).toISOString() : null };
  }

  /** `PUT applyTransitAuth`: sends the authorisation code to the user's own bound phone. */
  async applyAuth(actor: Actor, lang: Lang): Promise<SendCodeReply & { phone: string }> {
    await this.merchantOf(actor);
    const phone = await this.deps.codes.phoneOf(actor);
    if (!phone) throw conflict("transfer.bindPhoneFirst");
    const reply = await this.deps.codes.send(phone, lang, actor);
    return { ...reply, phone: `${phone.slice(0, 3)}****${phone.slice(-4)}` };
  }

  /** `PUT confirmTransitAuth`: the code authorises the merchant's outgoing transfers. */
  async confirmAuth(actor: Actor, smsCode: string): Promise<{ authorised: true }> {
    const merchant = await this.merchantOf(actor);
    const phone = await this.deps.codes.phoneOf(actor);
    if (!phone) throw conflict("transfer.bindPhoneFirst");
    const codeId = await this.deps.codes.check(phone, smsCode);
    const now = this.deps.clock.now();
    await withTx(this.deps.db, async (tx) => {
      if (!(await this.deps.codes.consume(tx, codeId, now))) {
        throw new AppError(CODE.CODE_INVALID, "code.invalid", {}, "smsCode");
      }
      await repo.upsertAuth(tx, { merchantId: merchant.id, userId: actor.userId, phone, now });
      await audit(tx, {
        actorUserId: actor.userId,
        action: "transfers.authorise",
        subjectType: "merchant",
        subjectId: merchant.id,
      });
    });
    return { authorised: true };
  }

  /** `GET transfer/check`: who the money would go to, and whether the sender may send. */
  async check(actor: Actor, toMerchantId: string) {
    const merchant = await this.merchantOf(actor);
    const target = await this.target(merchant, toMerchantId);
    return {
      merchantId: String(target.id),
      merchantName: target.name,
      currency: target.currency,
      authorised: (await repo.findAuth(this.deps.db, merchant.id)) !== undefined,
    };
  }

  private async target(sender: MerchantRow, toMerchantId: string): Promise<MerchantRow> {
    const id = Number(toMerchantId);
    if (id === sender.id) throw invalid("transfer.targetSelf", "toMerchantId");
    const target = Number.isSafeInteger(id) ? await getMerchant(this.deps.db, id) : undefined;
    if (!target) throw invalid("transfer.targetNotFound", "toMerchantId");
    if (target.currency !== sender.currency) throw invalid("transfer.currencyMismatch", "toMerchantId");
    return target;
  }

  /** `POST transfers` and `POST contract/transfers`: a transfer awaiting the recipient. */
  async create(actor: Actor, req: TransferReq | ContractTransferReq): Promise<Transfer> {
    const merchant = await this.merchantOf(actor);
    const replay = await repo.findByRequestKey(this.deps.db, merchant.id, req.requestKey);
    if (replay) return this.presentOne(replay, merchant.id);
    const target = await this.target(merchant, req.toMerchantId);
    if (!(await repo.findAuth(this.deps.db, merchant.id))) throw conflict("transfer.notAuthorised");
    const row = await withTx(this.deps.db, async (tx) => {
      const id = await repo.insertTransfer(tx, {
        fromMerchantId: merchant.id,
        toMerchantId: target.id,
        amount: req.amount,
        currency: merchant.currency,
        remark: req.remark ?? "",
        contractNo: "contractNo" in req ? req.contractNo : null,
        requestKey: req.requestKey,
        createdBy: actor.userId,
      });
      if (id === null) return repo.findByRequestKey(tx, merchant.id, req.requestKey);
      await audit(tx, {
        actorUserId: actor.userId,
        action: "transfers.create",
        subjectType: "transfer",
        subjectId: id,
        detail: { amount: req.amount, to: target.id },
      });
      return repo.lockTransfer(tx, id);
    });
    return this.presentOne(row, merchant.id);
  }

  async list(actor: Actor, q: TransferQuery): Promise<Page<Transfer>> {
    const merchant = await this.merchantOf(actor);
    const { rows, total } = await repo.transferPage(this.deps.db, {
      merchantId: merchant.id,
      direction: q.direction,
      state: q.state,
      ...pageWindow(q),
    });
    return { list: await this.present(rows, merchant.id), total, page: q.page, pageSize: q.pageSize };
  }

  async contracts(actor: Actor) {
    const merchant = await this.merchantOf(actor);
    return (await repo.contracts(this.deps.db, merchant.id)).map((c) => ({
      contractNo: c.contract_no,
      transfers: Number(c.transfers),
      completed: { amount: Number(c.completed), currency: c.currency },
      pending: { amount: Number(c.pending), currency: c.currency },
      lastAt: new Date(c.last_at).toISOString(),
    }));
  }

  /**
   * The sender changes amount or remark, the recipient refuses or accepts; each only while the transfer
   * is still created, decided under a row lock so an update racing an acceptance cannot slip in.
   */
  async decide(
    actor: Actor,
    id: number,
    decision:
      | { kind: "update"; amount?: number | undefined; remark?: string | undefined }
      | { kind: "refuse"; reason: string }
      | { kind: "accept" },
  ): Promise<Transfer> {
    const merchant = await this.merchantOf(actor);
    const now = this.deps.clock.now();
    const row = await withTx(this.deps.db, async (tx) => {
      const t = await repo.lockTransfer(tx, id);
      const mine =
        t && (decision.kind === "update" ? t.from_merchant_id === merchant.id : t.to_merchant_id === merchant.id);
      if (!t || !mine) {
        // Another party's transfer, or the wrong side of one's own: the same answer as a missing one.
        throw new AppError(CODE.NOT_FOUND, "transfer.notFound");
      }
      if (t.state !== "created") throw conflict("transfer.notPending");
      switch (decision.kind) {
        case "update":
          await repo.updateTransfer(tx, id, { amount: decision.amount, remark: decision.remark, now });
          break;
        case "refuse":
          await repo.updateTransfer(tx, id, {
            state: "refused",
            refuseReason: decision.reason,
            decidedBy: actor.userId,
            now,
          });
          break;
        case "accept":
          await post(tx, {
            idempotencyKey: `transfer:${id}`,
            kind: "transfer",
            currency: t.currency,
            reason: t.contract_no ? `${t.contract_no} ${t.remark}`.trim() : t.remark,
            subject: { type: "transfer", id },
            createdBy: actor.userId,
            postings: [
              { account: { merchantId: t.from_merchant_id, kind: "income" }, amount: -t.amount },
              { account: { merchantId: t.to_merchant_id, kind: "income" }, amount: t.amount },
            ],
          });
          await repo.updateTransfer(tx, id, { state: "completed", decidedBy: actor.userId, completedAt: now, now });
          break;
      }
      await audit(tx, {
        actorUserId: actor.userId,
        action: `transfers.${decision.kind}`,
        subjectType: "transfer",
        subjectId: id,
        detail: { before: { state: t.state, amount: t.amount } },
      });
      return repo.lockTransfer(tx, id);
    });
    return this.presentOne(row, merchant.id);
  }

  private async presentOne(row: repo.TransferRow | undefined, merchantId: number): Promise<Transfer> {
    const [t] = row ? await this.present([row], merchantId) : [];
    if (!t) throw new Error("the transfer must exist inside its own transaction");
    return t;
  }

  private async present(rows: repo.TransferRow[], merchantId: number): Promise<Transfer[]> {
    const names = new Map<number, string>();
    for (const id of new Set(rows.flatMap((r) => [r.from_merchant_id, r.to_merchant_id]))) {
      names.set(id, (await getMerchant(this.deps.db, id))?.name ?? "");
    }
    return rows.map((r) => ({
      id: String(r.id),
      direction: r.from_merchant_id === merchantId ? "out" : "in",
      fromMerchantId: String(r.from_merchant_id),
      fromMerchantName: names.get(r.from_merchant_id) ?? "",
      toMerchantId: String(r.to_merchant_id),
      toMerchantName: names.get(r.to_merchant_id) ?? "",
      amount: { amount: r.amount, currency: r.currency },
      remark: r.remark,
      contractNo: r.contract_no,
      state: r.state,
      refuseReason: r.refuse_reason,
      createdAt: new Date(r.created_at).toISOString(),
      updatedAt: new Date(r.updated_at).toISOString(),
      completedAt: r.completed_at ? new Date(r.completed_at).toISOString() : null,
    }));
  }
}
