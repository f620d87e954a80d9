import { maskMiddle } from "../../platform/present";
import {
  CODE,
  type Lang,
  type MessageKey,
  type Page,
  type Redemption,
  type RedemptionQuery,
  type WriteOffPreview,
  type WriteOffKind,
  type WriteOffReq,
  type GoodsStoresReply,
  type GoodsStoresReq,
} from "@tessera/contracts";
import { isUniqueViolation, withTx, type Db, type Executor } from "../../db/tx";
import type { Actor } from "../../platform/auth/actor";
import { tenantOf } from "../../platform/auth/guard";
import { platformDay, type Clock } from "../../platform/clock";
import { AppError, conflict, invalid } from "../../platform/http/errors";
import type { PurchasableGoods } from "../catalog";
import { getMerchant } from "../merchants";
import type { DynamicCodes, DynamicRefusal, OnecardService } from "../onecard";
import { codePriceSql } from "../purchasing";
import { peekRedeemable, redeemSupplyCard, type CardKeys, type RedeemRefusal } from "../supply";
import { money, presentRedemption } from "./presenter";
import { findStore } from "./repo";
import type { StoresService } from "./service";
import { SettlementService } from "./settlement.service";
import * as repo from "./writeoff.repo";
import type { RedemptionRow } from "./writeoff.repo";

export interface WriteOffDeps {
  db: Db;
  clock: Clock;
  keys: CardKeys;
  stores: StoresService;
  onecard: OnecardService;
  /** Customers' dynamic codes for their cards (onecard/dyncode.ts). */
  dynamic: DynamicCodes;
  goodsOf: (db: Executor, goodsId: number) => Promise<PurchasableGoods | undefined>;
}

const REFUSAL: Record<RedeemRefusal, MessageKey> = {
  unknown: "writeoff.codeUnknown",
  used: "writeoff.used",
  void: "writeoff.void",
  expired: "writeoff.expired",
  notSold: "writeoff.notSold",
};
const refuse = (r: RedeemRefusal) =>
  r === "unknown" ? new AppError(CODE.NOT_FOUND, REFUSAL[r]) : conflict(REFUSAL[r]);
const wrongStore = () => new AppError(CODE.FORBIDDEN, "writeoff.wrongStore");
const notValidHere = () => new AppError(CODE.FORBIDDEN, "writeoff.notValidHere");
const DYNAMIC_REFUSAL: Record<DynamicRefusal, MessageKey> = {
  unknown: "writeoff.dynamicUnknown",
  expired: "writeoff.dynamicExpired",
  used: "writeoff.dynamicUsed",
};
const refuseDynamic = (r: DynamicRefusal) =>
  r === "unknown" ? new AppError(CODE.NOT_FOUND, DYNAMIC_REFUSAL[r]) : conflict(DYNAMIC_REFUSAL[r]);

const maskCardNo = (no: string) =>
  maskMiddle(no, { head: 4, tail: 4, stars: 8, short: (v) => `${v.slice(0, 4)}********${v.slice(-4)}` });

type StoreRow = NonNullable<Awaited<ReturnType<typeof findStore>>>;

/**
 * Write-off (核销) at a brand's stores and its settlement. A clerk (a sub-account bound to a store)
 * redeems a code bought through purchasing (supply's card secrets: once, under the code's row lock) or
 * takes an amount off a one-card card (onecard's debit, keyed by the request); the brand's main
 * account redeems at a store it names. Each redemption is a row; after the platform day ends, one
 * settlement document per store and day sums them, once (the document's unique key), T+1 like the
 * supplier payout.
 *
 * Money: a store voucher (business type card_voucher) is paid to the brand when it is used, as
 * group-buying platforms pay merchants: purchasing put the purchaser's money in the platform's order
 * escrow, the redemption records what the escrow holds for its code (`held_amount`), and the settlement
 * document moves the sum to the brand's income in its own transaction, keyed by the document. Other codes
 * (card secrets) were paid to the supplier at sale and one-card cards at activation: their lines are on
 * the document and settle nothing (their money reached the brand before).
 */
export class WriteOffService {
  /** The write-off account and the daily settlement documents. */
  readonly settlement: SettlementService;

  constructor(private readonly deps: WriteOffDeps) {
    this.settlement = new SettlementService(deps);
  }

  private now(): Date {
    return this.deps.clock.now();
  }

  /** The store the actor redeems at: a clerk's own store, or the one the main account names. */
  private async storeFor(actor: Actor, storeId: string | undefined): Promise<StoreRow> {
    const brander = tenantOf(actor);
    let store: StoreRow | undefined;
    if (actor.menus !== null) {
      store = await this.deps.stores.clerks.storeOfClerk(actor.userId);
      if (!store || store.brander_id !== brander) throw new AppError(CODE.FORBIDDEN, "writeoff.noStore");
      if (storeId !== undefined && Number(storeId) !== store.id) throw wrongStore();
    } else {
      if (storeId === undefined) throw invalid("writeoff.chooseStore", "storeId");
      store = await findStore(this.deps.db, brander, Number(storeId));
      if (!store) throw new AppError(CODE.NOT_FOUND, "stores.notFound");
    }
    if (store.state !== "open") throw conflict("writeoff.storeClosed");
    return store;
  }

  /** Which store a clerk works at (the verification page's header). */
  async myStore(actor: Actor): Promise<{ storeId: string; storeName: string; branderName: string } | null> {
    const s = await this.deps.stores.clerks.storeOfClerk(actor.userId);
    if (!s || s.brander_id !== actor.merchantId) return null;
    const brand = await getMerchant(this.deps.db, s.brander_id);
    return { storeId: String(s.id), storeName: s.name, branderName: brand?.name ?? "" };
  }

  /** What a code is worth and whether it may be redeemed here (nothing changes). */
  async check(
    actor: Actor,
    req: { kind: WriteOffKind; code: string; secret?: string | undefined; storeId?: string | undefined },
    client: string,
    lang: Lang,
  ): Promise<WriteOffPreview> {
    const store = await this.storeFor(actor, req.storeId);
    const today = platformDay(this.now());
    if (req.kind === "coupon") {
      const found = await peekRedeemable(this.deps.db, this.deps.keys, {
        supplierId: store.brander_id,
        number: req.code,
        secret: req.secret ?? "",
        today,
      });
      // Looked up within the store's brand only: another supplier's code answers exactly as an unknown
      // one, right secret or not, so a clerk cannot test other brands' codes (issue 38 item 7).
      if (!found.card) throw refuse("unknown");
      if (found.refusal) throw refuse(found.refusal);
      const goods = await this.deps.goodsOf(this.deps.db, found.card.goodsId);
      if (!goods) throw refuse("unknown");
      if (!(await repo.goodsValidAt(this.deps.db, goods.id, store.id))) throw notValidHere();
      return {
        kind: "coupon",
        itemName: goods.name,
        codeMask: found.card.numberMask,
        value: money(goods.faceValue, goods.currency),
        expiresOn: found.card.expiresOn,
        storeId: String(store.id),
        storeName: store.name,
      };
    }
    if (req.kind === "dynamic") {
      const found = await this.deps.dynamic.lookup(this.deps.db, req.code);
      if (!found.card) throw refuseDynamic("unknown");
      if (found.card.branderId !== store.brander_id) throw wrongStore();
      if (found.refusal) throw refuseDynamic(found.refusal);
      const c = found.card;
      return {
        kind: "onecard",
        itemName: c.productName,
        codeMask: c.cardNoMasked,
        value: money(c.balance, c.currency),
        expiresOn: c.expiresAt ? c.expiresAt.toISOString() : null,
        storeId: String(store.id),
        storeName: store.name,
      };
    }
    const secret = req.secret ?? "";
    // Looked up within the store's brand: another brand's card answers exactly like an unknown number, right
    // password or wrong, and counts toward no lock, so a clerk cannot test other brands' card passwords here.
    await this.deps.onecard.verify(req.code, secret, client, lang, store.brander_id);
    const b = await this.deps.onecard.balance(req.code, secret, client, lang);
    return {
      kind: "onecard",
      itemName: b.productName,
      codeMask: b.cardNo,
      value: b.balance,
      expiresOn: b.expiresAt,
      storeId: String(store.id),
      storeName: store.name,
    };
  }

  /**
   * Redeems once. The same request key returns the first redemption (a retry after a lost reply);
   * a used, void, expired or foreign code is refused with its reason and nothing changes.
   */
  async redeem(actor: Actor, req: WriteOffReq, client: string, lang: Lang): Promise<Redemption> {
    const store = await this.storeFor(actor, req.storeId);
    const brander = store.brander_id;
    // A retry after a lost reply answers with the first redemption. A coupon needs no look first: its
    // retry finds the code redeemed under the same reference and then meets the request key's unique
    // index, answered in the catch below (one statement less on every redemption).
    if (req.kind !== "coupon") {
      const first = await repo.redemptionByRequest(this.deps.db, brander, req.requestKey);
      if (first) return this.redemptionView(first.id);
    }
    const now = this.now();
    const day = platformDay(now);
    const base = {
      brander_id: brander,
      store_id: store.id,
      clerk_id: actor.userId,
      request_key: req.requestKey,
      day,
      created_at: now,
    };
    let id: number | RedemptionRow;
    try {
      if (req.kind === "coupon") {
        id = await withTx(this.deps.db, async (tx) => {
          const r = await redeemSupplyCard(tx, this.deps.keys, {
            supplierId: brander,
            number: req.code,
            secret: req.secret ?? "",
            today: day,
            at: now,
            ref: `store:${brander}:${req.requestKey}`,
          });
          if (!r.ok) {
            throw refuse(r.refusal);
          }
          const goods = await this.deps.goodsOf(tx, r.card.goodsId);
          if (!goods) throw refuse("unknown");
          const price = codePriceSql(r.card.orderId, goods.price);
          const written = await repo.insertCouponRedemption(
            tx,
            {
              ...base,
              source: "coupon",
              source_id: r.card.cardId,
              dedupe_key: `coupon:${r.card.cardId}`,
              item_name: goods.name,
              code_mask: r.card.numberMask,
              value: goods.faceValue,
              // The brand is settled what the purchaser paid for the code; for a store voucher that money
              // waits in the escrow until this redemption's settlement document moves it.
              settle_amount: price.price,
              held_amount: price.held,
              currency: goods.currency,
              purchaser_id: r.card.buyerMerchantId,
              order_ref: r.card.orderId,
            },
            goods.id,
          );
          // Thrown inside the transaction: the code's redemption and the row above roll back.
          if (!written.valid) throw notValidHere();
          return written.row;
        });
      } else if (req.kind === "dynamic") {
        if (req.amount === undefined) throw invalid("writeoff.amountMissing", "amount");
        const amount = req.amount;
        const key = `store:${brander}:${req.requestKey}`;
        id = await withTx(this.deps.db, async (tx) => {
          // The code's row lock: of clerks redeeming the same code at once, one consumes it, the rest
          // wait here and then find it used.
          const found = await this.deps.dynamic.lookup(tx, req.code, { lock: true });
          if (!found.card) throw refuseDynamic("unknown");
          if (found.card.branderId !== brander) throw wrongStore();
          if (found.refusal) throw refuseDynamic(found.refusal);
          const c = found.card;
          await this.deps.onecard.debit(tx, c.cardId, amount, "redeem", key, `store ${store.id}`);
          await this.deps.dynamic.markUsed(tx, c.codeId, key);
          return repo.insertRedemption(tx, {
            ...base,
            source: "onecard",
            source_id: c.cardId,
            dedupe_key: `onecard:${brander}:${req.requestKey}`,
            item_name: c.productName,
            code_mask: c.cardNoMasked,
            value: amount,
            settle_amount: amount,
            currency: c.currency,
            purchaser_id: null,
            order_ref: null,
          });
        });
      } else {
        if (req.amount === undefined) throw invalid("writeoff.amountMissing", "amount");
        const amount = req.amount;
        const secret = req.secret ?? "";
        // Within the store's brand only, as in check(): a foreign card is an unknown one.
        const card = await this.deps.onecard.verify(req.code, secret, client, lang, brander);
        const b = await this.deps.onecard.balance(req.code, secret, client, lang);
        id = await withTx(this.deps.db, async (tx) => {
          await this.deps.onecard.debit(
            tx,
            card.id,
            amount,
            "redeem",
            `store:${brander}:${req.requestKey}`,
            `store ${store.id}`,
          );
          return repo.insertRedemption(tx, {
            ...base,
            source: "onecard",
            source_id: card.id,
            dedupe_key: `onecard:${brander}:${req.requestKey}`,
            item_name: b.productName,
            code_mask: maskCardNo(req.code),
            value: amount,
            settle_amount: amount,
            currency: b.balance.currency,
            purchaser_id: null,
            order_ref: null,
          });
        });
      }
    } catch (err) {
      // A retry with the same key raced the first: answer with the first.
      if (isUniqueViolation(err)) {
        const again = await repo.redemptionByRequest(this.deps.db, brander, req.requestKey);
        if (again) return this.redemptionView(again.id);
        throw conflict("writeoff.used");
      }
      throw err;
    }
    return typeof id === "number" ? this.redemptionView(id) : presentRedemption(id);
  }

  private async redemptionView(id: number): Promise<Redemption> {
    const r = await repo.redemptionOf(this.deps.db, id);
    return presentRedemption(r);
  }

  private async page(
    filter: { branderIds?: number[]; purchaserId?: number; storeId?: number },
    q: RedemptionQuery,
  ): Promise<Page<Redemption>> {
    const { rows, total } = await repo.redemptionPage(this.deps.db, filter, q);
    return { list: rows.map(presentRedemption), total, page: q.page, pageSize: q.pageSize };
  }

  /** hyAccounts: the brand's redemption records (a clerk sees their store's). */
  async brandRedemptions(actor: Actor, q: RedemptionQuery): Promise<Page<Redemption>> {
    const brander = tenantOf(actor);
    const mine = actor.menus !== null ? await this.deps.stores.clerks.storeOfClerk(actor.userId) : undefined;
    return this.page({ branderIds: [brander], ...(mine && { storeId: mine.id }) }, q);
  }

  /** WriteOrder: the redemptions of codes a purchaser bought. */
  async purchaserRedemptions(actor: Actor, q: RedemptionQuery): Promise<Page<Redemption>> {
    return this.page({ purchaserId: tenantOf(actor) }, q);
  }

  /** product/shop/verify: whether a goods' codes can be redeemed at a store. */
  async shopVerify(
    actor: Actor,
    storeId: number,
    goodsId: number,
  ): Promise<{ redeemable: boolean; reason: string | null }> {
    const brander = tenantOf(actor);
    const store = await findStore(this.deps.db, brander, storeId);
    if (!store) throw new AppError(CODE.NOT_FOUND, "stores.notFound");
    const goods = await this.deps.goodsOf(this.deps.db, goodsId);
    if (!goods || goods.supplierMerchantId !== brander) return { redeemable: false, reason: "writeoff.wrongStore" };
    if (store.state !== "open") return { redeemable: false, reason: "writeoff.storeClosed" };
    if (!(await repo.goodsValidAt(this.deps.db, goodsId, storeId))) {
      return { redeemable: false, reason: "writeoff.notValidHere" };
    }
    return { redeemable: true, reason: null };
  }

  private async ownGoods(brander: number, goodsId: number) {
    const goods = await this.deps.goodsOf(this.deps.db, goodsId);
    // Another brand's goods answers as if it did not exist.
    if (!goods || goods.supplierMerchantId !== brander) throw new AppError(CODE.NOT_FOUND, "writeoff.goodsNotFound");
    return goods;
  }

  /** Where a goods' codes are redeemable (the "redeemable stores" dialog). */
  async goodsStores(actor: Actor, goodsId: number): Promise<GoodsStoresReply> {
    const brander = tenantOf(actor);
    await this.ownGoods(brander, goodsId);
    const rows = await repo.restrictedStores(this.deps.db, brander, goodsId);
    return {
      goodsId: String(goodsId),
      all: rows.length === 0,
      stores: rows.map((r) => ({ id: String(r.id), name: r.name })),
    };
  }

  /** Limits a goods' codes to the stores listed, or lifts the limit (`all`). Only the brand's own stores. */
  async setGoodsStores(actor: Actor, goodsId: number, req: GoodsStoresReq): Promise<GoodsStoresReply> {
    const brander = tenantOf(actor);
    await this.ownGoods(brander, goodsId);
    const ids = [...new Set(req.storeIds.map(Number))];
    if (!req.all && ids.length === 0) throw invalid("writeoff.chooseStores", "storeIds");
    if (!req.all) {
      const mine = await repo.brandStores(this.deps.db, brander, ids);
      if (mine.length !== ids.length) throw new AppError(CODE.NOT_FOUND, "stores.notFound");
    }
    const now = this.now();
    await withTx(this.deps.db, async (tx) => {
      await repo.setRestrictions(tx, brander, goodsId, req.all ? null : ids, now);
    });
    return this.goodsStores(actor, goodsId);
  }
}
