import {
  ledgerReason,
  CODE,
  type Currency,
  type Page,
  type Redemption,
  type SettlePreview,
  type SettlementDoc,
  type SettlementDocQuery,
  type WriteAccountReply,
} from "@tessera/contracts";
import { withTx } from "../../db/tx";
import type { Actor } from "../../platform/auth/actor";
import { tenantOf } from "../../platform/auth/guard";
import { platformDay } from "../../platform/clock";
import { AppError, invalid } from "../../platform/http/errors";
import { post } from "../ledger";
import { getMerchant } from "../merchants";
import { heldVoucherSales } from "../purchasing";
import { money, presentDoc, presentRedemption } from "./presenter";
import * as repo from "./settlement.repo";
import { redemptionsOfDoc } from "./writeoff.repo";
import type { WriteOffDeps } from "./writeoff.service";

/**
 * The write-off account (per store, what was redeemed and what is settled) and the daily settlement: one
 * document per store, day and currency, made once, that moves the vouchers' held money from the order
 * escrow to the brand's income in its own transaction, keyed by the document.
 */
export class SettlementService {
  constructor(private readonly deps: WriteOffDeps) {}

  private now(): Date {
    return this.deps.clock.now();
  }

  /** accounts (WriteAccount): per store, what was redeemed and what is settled. */
  async account(actor: Actor, q: { from?: string | undefined; to?: string | undefined }): Promise<WriteAccountReply> {
    const brander = tenantOf(actor);
    const me = await getMerchant(this.deps.db, brander);
    const currency: Currency = me?.currency ?? "CNY";
    const rows = await repo.accountRows(this.deps.db, brander, currency, q);
    const out = rows.map((r) => ({
      storeId: String(r.store_id),
      storeName: r.name,
      count: Number(r.n),
      value: money(Number(r.value), currency),
      settled: money(Number(r.settled), currency),
      unsettled: money(Number(r.unsettled), currency),
    }));
    const sum = (f: (x: (typeof out)[number]) => number) => out.reduce((a, x) => a + f(x), 0);
    // Of the vouchers' money the escrow took at sale, what no redemption has claimed yet.
    const [sold, claimed] = await Promise.all([
      heldVoucherSales(this.deps.db, brander, currency),
      repo.claimedHeld(this.deps.db, brander, currency),
    ]);
    return {
      awaitingRedemption: money(sold - Number(claimed?.n ?? 0), currency),
      rows: out,
      total: {
        count: sum((x) => x.count),
        value: money(
          sum((x) => x.value.amount),
          currency,
        ),
        settled: money(
          sum((x) => x.settled.amount),
          currency,
        ),
        unsettled: money(
          sum((x) => x.unsettled.amount),
          currency,
        ),
      },
    };
  }

  async documents(branderIds: number[], q: SettlementDocQuery): Promise<Page<SettlementDoc>> {
    const { rows, total } = await repo.docPage(this.deps.db, branderIds, q);
    return {
      list: rows.map((r) => presentDoc(r)),
      total,
      page: q.page,
      pageSize: q.pageSize,
    };
  }

  async brandDocuments(actor: Actor, q: SettlementDocQuery): Promise<Page<SettlementDoc>> {
    return this.documents([tenantOf(actor)], q);
  }

  /** One document and its redemptions (the xlsx and the printable document). */
  async document(branderIds: number[], id: number): Promise<{ doc: SettlementDoc; lines: Redemption[] }> {
    const r = await repo.docOf(this.deps.db, branderIds, id);
    if (!r) throw new AppError(CODE.NOT_FOUND, "writeoff.docNotFound");
    const lines = await redemptionsOfDoc(this.deps.db, id);
    return { doc: presentDoc(r), lines: lines.map(presentRedemption) };
  }

  /**
   * Settles every store's redemptions of platform days up to `day` (yesterday by default): per store,
   * day and currency one document (its unique key: a second run, on this or another process, makes
   * none) with the redemptions linked to it, what they are settled for, and, in the same transaction,
   * the ledger transfer of the vouchers' held money from the order escrow to the brand's income.
   * `amount` in the reply: what the documents paid into brands' income.
   */
  /** What `settle(day)` would do now, for the operator's confirmation: nothing changes. */
  async preview(day = platformDay(this.now())): Promise<SettlePreview> {
    if (day > platformDay(this.now())) throw invalid("validation.invalidParameter", "day");
    const rows = await repo.unsettledTotals(this.deps.db, day);
    return {
      day,
      totals: rows.map((r) => ({
        stores: Number(r.stores),
        redemptions: Number(r.redemptions),
        amount: money(Number(r.amount ?? 0), r.currency),
      })),
    };
  }

  async settle(
    day = platformDay(new Date(this.now().getTime() - 86_400_000)),
  ): Promise<{ day: string; documents: number; amount: number }> {
    if (day > platformDay(this.now())) throw invalid("validation.invalidParameter", "day");
    const groups = await repo.unsettledGroups(this.deps.db, day);
    let documents = 0;
    let total = 0;
    for (const g of groups) {
      const made = await withTx(this.deps.db, async (tx) => {
        const last = await repo.lastPart(tx, g);
        const doc = await repo.insertDoc(tx, {
          brander_id: g.brander_id,
          store_id: g.store_id,
          day: g.day,
          currency: g.currency,
          part: Number(last?.part ?? 0) + 1,
          count: 0,
          value: 0,
          amount: 0,
          created_at: this.now(),
        });
        // Another run made this document first.
        if (!doc) return null;
        const lines = await repo.claimForDoc(tx, g, doc.id);
        if (lines.length === 0) {
          // Another run settled them between the look and this document.
          await repo.deleteDoc(tx, doc.id);
          return null;
        }
        const value = lines.reduce((a, l) => a + Number(l.value), 0);
        // The vouchers' money waiting in the escrow since their sale goes to the brand, once: the posting
        // is keyed by the document, and the document is made once. That is all the document settles: card
        // secrets and one-card cards were paid before (at sale, at activation) and are listed for the count.
        const held = lines.reduce((a, l) => a + Number(l.held_amount), 0);
        const amount = held;
        const posted =
          held > 0
            ? await post(tx, {
                idempotencyKey: `store-settlement:${doc.id}`,
                kind: "store_settlement",
                currency: g.currency,
                reason: ledgerReason("ledgerReason.storeSettlement", { day: g.day, store: `#${g.store_id}` }),
                subject: { type: "store_settlement_doc", id: doc.id },
                createdBy: null,
                postings: [
                  { account: { platform: "order_escrow" }, amount: -held },
                  { account: { merchantId: g.brander_id, kind: "income" }, amount: held },
                ],
              })
            : null;
        await repo.finishDoc(tx, doc.id, {
          count: lines.length,
          value,
          amount,
          paid: held,
          ledger_tx_id: posted?.transactionId ?? null,
        });
        return held;
      });
      if (made !== null) {
        documents++;
        total += made;
      }
    }
    return { day, documents, amount: total };
  }
}
