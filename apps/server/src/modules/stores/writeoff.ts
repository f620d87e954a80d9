import {
  ledgerReason,
  CODE,
  type Currency,
  type Lang,
  type MessageKey,
  type Page,
  type Redemption,
  type RedemptionQuery,
  type SettlementDoc,
  type SettlementDocQuery,
  type WriteAccountReply,
  type WriteOffPreview,
  type WriteOffKind,
  type WriteOffReq,
  type GoodsStoresReply,
  type GoodsStoresReq,
} from "@tessera/contracts";
import { sql, type InsertObject } from "kysely";
import { isUniqueViolation, withTx, type Db, type Executor, type Tx } from "../../db/tx";
import type { Actor } from "../../platform/auth/actor";
import { tenantOf } from "../../platform/auth/guard";
import { platformDay, type Clock } from "../../platform/clock";
import { AppError, conflict, invalid } from "../../platform/http/errors";
import type { PurchasableGoods } from "../catalog";
import { getMerchant } from "../merchants";
import type { DynamicCodes, DynamicRefusal, OnecardService } from "../onecard";
import { codePriceSql, heldVoucherSales } from "../purchasing";
import { post } from "../ledger";
import { peekRedeemable, redeemSupplyCard, type CardKeys, type RedeemRefusal } from "../supply";
import * as repo from "./repo";
import type { StoresTables } from "./tables";
import type { StoresService } from "./service";

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

/** Whether a goods' codes are redeemable at a store: no restriction rows means all the brand's stores. */
async function goodsValidAt(db: Executor, goodsId: number, storeId: number): Promise<boolean> {
  const rows = await db
    .selectFrom("store_goods_restrictions")
    .select("store_id")
    .where("goods_id", "=", goodsId)
    .execute();
  return rows.length === 0 || rows.some((r) => Number(r.store_id) === storeId);
}
const money = (amount: number, currency: Currency) => ({ amount, currency });
const iso = (d: Date | string) => new Date(d).toISOString();
const maskCardNo = (no: string) => `${no.slice(0, 4)}********${no.slice(-4)}`;

/** A redemption as lists show it (r: the redemption, s: its store, m: the brand, u: the clerk). */
const REDEMPTION_COLUMNS = [
  "r.id",
  "r.source",
  "r.brander_id",
  "m.name as brander_name",
  "r.store_id",
  "s.name as store_name",
  sql<string | null>`coalesce(u.display_name, u.email)`.as("clerk_name"),
  "r.item_name",
  "r.code_mask",
  "r.value",
  "r.settle_amount",
  "r.held_amount",
  "r.currency",
  "r.order_ref",
  "r.day",
  "r.doc_id",
  "r.created_at",
] as const;

type StoreRow = NonNullable<Awaited<ReturnType<typeof repo.findStore>>>;

interface RedemptionRow {
  id: number;
  source: "coupon" | "onecard";
  brander_id: number;
  brander_name: string;
  store_id: number;
  store_name: string;
  clerk_name: string | null;
  item_name: string;
  code_mask: string;
  value: number | string;
  settle_amount: number | string;
  held_amount: number | string;
  currency: Currency;
  order_ref: string | null;
  day: string;
  doc_id: number | null;
  created_at: Date;
}

function presentRedemption(r: RedemptionRow): Redemption {
  return {
    id: String(r.id),
    kind: r.source,
    branderId: String(r.brander_id),
    branderName: r.brander_name,
    storeId: String(r.store_id),
    storeName: r.store_name,
    clerkName: r.clerk_name ?? "",
    itemName: r.item_name,
    codeMask: r.code_mask,
    value: money(Number(r.value), r.currency),
    // What the settlement pays the brand for it: the voucher money waiting in the escrow. A card secret was
    // paid at sale and a one-card redemption at the card's activation, so they settle nothing (issue 37:
    // counting them again made the document say more than the ledger paid).
    settleAmount: money(Number(r.held_amount), r.currency),
    orderRef: r.order_ref,
    day: r.day,
    settled: r.doc_id !== null,
    docId: r.doc_id === null ? null : String(r.doc_id),
    createdAt: iso(r.created_at),
  };
}

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
  constructor(private readonly deps: WriteOffDeps) {}

  private now(): Date {
    return this.deps.clock.now();
  }

  /** The store the actor redeems at: a clerk's own store, or the one the main account names. */
  private async storeFor(actor: Actor, storeId: string | undefined): Promise<StoreRow> {
    const brander = tenantOf(actor);
    let store: StoreRow | undefined;
    if (actor.menus !== null) {
      store = await this.deps.stores.storeOfClerk(actor.userId);
      if (!store || store.brander_id !== brander) throw new AppError(CODE.FORBIDDEN, "writeoff.noStore");
      if (storeId !== undefined && Number(storeId) !== store.id) throw wrongStore();
    } else {
      if (storeId === undefined) throw invalid("writeoff.chooseStore", "storeId");
      store = await repo.findStore(this.deps.db, brander, Number(storeId));
      if (!store) throw new AppError(CODE.NOT_FOUND, "stores.notFound");
    }
    if (store.state !== "open") throw conflict("writeoff.storeClosed");
    return store;
  }

  /** Which store a clerk works at (the verification page's header). */
  async myStore(actor: Actor): Promise<{ storeId: string; storeName: string; branderName: string } | null> {
    const s = await this.deps.stores.storeOfClerk(actor.userId);
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
      if (!(await goodsValidAt(this.deps.db, goods.id, store.id))) throw notValidHere();
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
      const first = await this.deps.db
        .selectFrom("store_redemptions")
        .select("id")
        .where("brander_id", "=", brander)
        .where("request_key", "=", req.requestKey)
        .executeTakeFirst();
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
          const written = await this.insertRedemption(
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
          const row = await tx
            .insertInto("store_redemptions")
            .values({
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
            })
            .returning("id")
            .executeTakeFirstOrThrow();
          return row.id;
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
          const row = await tx
            .insertInto("store_redemptions")
            .values({
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
            })
            .returning("id")
            .executeTakeFirstOrThrow();
          return row.id;
        });
      }
    } catch (err) {
      // A retry with the same key raced the first: answer with the first.
      if (isUniqueViolation(err)) {
        const again = await this.deps.db
          .selectFrom("store_redemptions")
          .select("id")
          .where("brander_id", "=", brander)
          .where("request_key", "=", req.requestKey)
          .executeTakeFirst();
        if (again) return this.redemptionView(again.id);
        throw conflict("writeoff.used");
      }
      throw err;
    }
    return typeof id === "number" ? this.redemptionView(id) : presentRedemption(id);
  }

  /**
   * Writes a coupon's redemption and reads it back as the list shows it, in one statement, with whether
   * the goods' codes are valid at the redemption's store (no restriction rows, or one for this store).
   * The caller throws when not valid, inside its transaction, so the row never stays.
   */
  private async insertRedemption(
    tx: Tx,
    values: InsertObject<StoresTables, "store_redemptions">,
    goodsId: number,
  ): Promise<{ row: RedemptionRow; valid: boolean }> {
    const { valid, ...row } = await tx
      .with("ins", (db) => db.insertInto("store_redemptions").values(values).returningAll())
      .selectFrom("ins as r")
      .innerJoin("stores as s", "s.id", "r.store_id")
      .innerJoin("merchants as m", "m.id", "r.brander_id")
      .leftJoin("users as u", "u.id", "r.clerk_id")
      .select([...REDEMPTION_COLUMNS])
      .select(
        sql<boolean>`NOT EXISTS (SELECT 1 FROM store_goods_restrictions g WHERE g.goods_id = ${goodsId}) OR EXISTS (SELECT 1 FROM store_goods_restrictions g WHERE g.goods_id = ${goodsId} AND g.store_id = r.store_id)`.as(
          "valid",
        ),
      )
      .executeTakeFirstOrThrow();
    return { row, valid };
  }

  private redemptions() {
    return this.deps.db
      .selectFrom("store_redemptions as r")
      .innerJoin("stores as s", "s.id", "r.store_id")
      .innerJoin("merchants as m", "m.id", "r.brander_id")
      .leftJoin("users as u", "u.id", "r.clerk_id")
      .select([...REDEMPTION_COLUMNS]);
  }

  private async redemptionView(id: number): Promise<Redemption> {
    const r = await this.redemptions().where("r.id", "=", id).executeTakeFirstOrThrow();
    return presentRedemption(r);
  }

  private async page(
    filter: { branderIds?: number[]; purchaserId?: number; storeId?: number },
    q: RedemptionQuery,
  ): Promise<Page<Redemption>> {
    let base = this.redemptions();
    if (filter.branderIds) {
      base = base.where("r.brander_id", "in", filter.branderIds.length > 0 ? filter.branderIds : [-1]);
    }
    if (filter.purchaserId !== undefined) base = base.where("r.purchaser_id", "=", filter.purchaserId);
    if (filter.storeId !== undefined) base = base.where("r.store_id", "=", filter.storeId);
    if (q.storeId) base = base.where("r.store_id", "=", Number(q.storeId));
    if (q.kind) base = base.where("r.source", "=", q.kind);
    if (q.from) base = base.where("r.day", ">=", q.from);
    if (q.to) base = base.where("r.day", "<=", q.to);
    if (q.settled) base = base.where("r.doc_id", q.settled === "true" ? "is not" : "is", null);
    const rows = await base
      .orderBy("r.id", "desc")
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize)
      .execute();
    const total = await base
      .clearSelect()
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .executeTakeFirst();
    return { list: rows.map(presentRedemption), total: Number(total?.n ?? 0), page: q.page, pageSize: q.pageSize };
  }

  /** hyAccounts: the brand's redemption records (a clerk sees their store's). */
  async brandRedemptions(actor: Actor, q: RedemptionQuery): Promise<Page<Redemption>> {
    const brander = tenantOf(actor);
    const mine = actor.menus !== null ? await this.deps.stores.storeOfClerk(actor.userId) : undefined;
    return this.page({ branderIds: [brander], ...(mine && { storeId: mine.id }) }, q);
  }

  /** WriteOrder: the redemptions of codes a purchaser bought. */
  async purchaserRedemptions(actor: Actor, q: RedemptionQuery): Promise<Page<Redemption>> {
    return this.page({ purchaserId: tenantOf(actor) }, q);
  }

  /** accounts (WriteAccount): per store, what was redeemed and what is settled. */
  async account(actor: Actor, q: { from?: string | undefined; to?: string | undefined }): Promise<WriteAccountReply> {
    const brander = tenantOf(actor);
    const me = await getMerchant(this.deps.db, brander);
    const currency: Currency = me?.currency ?? "CNY";
    let base = this.deps.db
      .selectFrom("store_redemptions as r")
      .innerJoin("stores as s", "s.id", "r.store_id")
      .where("r.brander_id", "=", brander)
      .where("r.currency", "=", currency);
    if (q.from) base = base.where("r.day", ">=", q.from);
    if (q.to) base = base.where("r.day", "<=", q.to);
    const rows = await base
      .select([
        "r.store_id",
        "s.name",
        sql<string>`count(*)`.as("n"),
        sql<string>`coalesce(sum(r.value), 0)`.as("value"),
        // Settled money is what the escrow held for the redemptions (what the ledger moves), never card money paid before.
        sql<string>`coalesce(sum(CASE WHEN r.doc_id IS NOT NULL THEN r.held_amount ELSE 0 END), 0)`.as("settled"),
        sql<string>`coalesce(sum(CASE WHEN r.doc_id IS NULL THEN r.held_amount ELSE 0 END), 0)`.as("unsettled"),
      ])
      .groupBy(["r.store_id", "s.name"])
      .orderBy("r.store_id")
      .execute();
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
      this.deps.db
        .selectFrom("store_redemptions")
        .select((eb) => eb.fn.coalesce(eb.fn.sum<string>("held_amount"), sql<string>`0`).as("n"))
        .where("brander_id", "=", brander)
        .where("currency", "=", currency)
        .executeTakeFirst(),
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

  /* ---------- settlement ---------- */

  private docs() {
    return this.deps.db
      .selectFrom("store_settlement_docs as d")
      .innerJoin("stores as s", "s.id", "d.store_id")
      .innerJoin("merchants as m", "m.id", "d.brander_id")
      .select([
        "d.id",
        "d.brander_id",
        "m.name as brander_name",
        "d.store_id",
        "s.name as store_name",
        "d.day",
        "d.currency",
        "d.count",
        "d.value",
        "d.amount",
        "d.paid",
        "d.state",
        "d.created_at",
      ]);
  }

  private presentDoc(r: {
    id: number;
    brander_id: number;
    brander_name: string;
    store_id: number;
    store_name: string;
    day: string;
    currency: Currency;
    count: number;
    value: number | string;
    amount: number | string;
    paid: number | string;
    state: "settled";
    created_at: Date;
  }): SettlementDoc {
    return {
      id: String(r.id),
      branderId: String(r.brander_id),
      branderName: r.brander_name,
      storeId: String(r.store_id),
      storeName: r.store_name,
      day: r.day,
      count: r.count,
      value: money(Number(r.value), r.currency),
      // The settled amount is what the document paid out of the escrow (its ledger transaction); documents made
      // before issue 37 also summed card redemptions into `amount`, so the paid column is the one to trust.
      amount: money(Number(r.paid), r.currency),
      paid: money(Number(r.paid), r.currency),
      state: r.state,
      createdAt: iso(r.created_at),
    };
  }

  async documents(branderIds: number[], q: SettlementDocQuery): Promise<Page<SettlementDoc>> {
    let base = this.docs().where("d.brander_id", "in", branderIds.length > 0 ? branderIds : [-1]);
    if (q.storeId) base = base.where("d.store_id", "=", Number(q.storeId));
    if (q.from) base = base.where("d.day", ">=", q.from);
    if (q.to) base = base.where("d.day", "<=", q.to);
    const rows = await base
      .orderBy("d.day", "desc")
      .orderBy("d.id", "desc")
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize)
      .execute();
    const total = await base
      .clearSelect()
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .executeTakeFirst();
    return {
      list: rows.map((r) => this.presentDoc(r)),
      total: Number(total?.n ?? 0),
      page: q.page,
      pageSize: q.pageSize,
    };
  }

  async brandDocuments(actor: Actor, q: SettlementDocQuery): Promise<Page<SettlementDoc>> {
    return this.documents([tenantOf(actor)], q);
  }

  /** One document and its redemptions (the xlsx and the printable document). */
  async document(branderIds: number[], id: number): Promise<{ doc: SettlementDoc; lines: Redemption[] }> {
    const r = await this.docs()
      .where("d.id", "=", id)
      .where("d.brander_id", "in", branderIds.length > 0 ? branderIds : [-1])
      .executeTakeFirst();
    if (!r) throw new AppError(CODE.NOT_FOUND, "writeoff.docNotFound");
    const lines = await this.redemptions().where("r.doc_id", "=", id).orderBy("r.id").execute();
    return { doc: this.presentDoc(r), lines: lines.map(presentRedemption) };
  }

  /**
   * Settles every store's redemptions of platform days up to `day` (yesterday by default): per store,
   * day and currency one document (its unique key: a second run, on this or another process, makes
   * none) with the redemptions linked to it, what they are settled for, and, in the same transaction,
   * the ledger transfer of the vouchers' held money from the order escrow to the brand's income.
   * `amount` in the reply: what the documents paid into brands' income.
   */
  async settle(
    day = platformDay(new Date(this.now().getTime() - 86_400_000)),
  ): Promise<{ day: string; documents: number; amount: number }> {
    if (day > platformDay(this.now())) throw invalid("validation.invalidParameter", "day");
    const groups = await this.deps.db
      .selectFrom("store_redemptions")
      .select(["store_id", "brander_id", "day", "currency"])
      .where("doc_id", "is", null)
      .where("day", "<=", day)
      .groupBy(["store_id", "brander_id", "day", "currency"])
      .orderBy("day")
      .orderBy("store_id")
      .execute();
    let documents = 0;
    let total = 0;
    for (const g of groups) {
      const made = await withTx(this.deps.db, async (tx) => {
        const last = await tx
          .selectFrom("store_settlement_docs")
          .select((eb) => eb.fn.max("part").as("part"))
          .where("store_id", "=", g.store_id)
          .where("day", "=", g.day)
          .where("currency", "=", g.currency)
          .executeTakeFirst();
        const doc = await tx
          .insertInto("store_settlement_docs")
          .values({
            brander_id: g.brander_id,
            store_id: g.store_id,
            day: g.day,
            currency: g.currency,
            part: Number(last?.part ?? 0) + 1,
            count: 0,
            value: 0,
            amount: 0,
            created_at: this.now(),
          })
          .onConflict((oc) => oc.columns(["store_id", "day", "currency", "part"]).doNothing())
          .returning("id")
          .executeTakeFirst();
        // Another run made this document first.
        if (!doc) return null;
        const lines = await tx
          .updateTable("store_redemptions")
          .set({ doc_id: doc.id })
          .where("store_id", "=", g.store_id)
          .where("day", "=", g.day)
          .where("currency", "=", g.currency)
          .where("doc_id", "is", null)
          .returning(["value", "held_amount"])
          .execute();
        if (lines.length === 0) {
          // Another run settled them between the look and this document.
          await tx.deleteFrom("store_settlement_docs").where("id", "=", doc.id).execute();
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
        await tx
          .updateTable("store_settlement_docs")
          .set({ count: lines.length, value, amount, paid: held, ledger_tx_id: posted?.transactionId ?? null })
          .where("id", "=", doc.id)
          .execute();
        return held;
      });
      if (made !== null) {
        documents++;
        total += made;
      }
    }
    return { day, documents, amount: total };
  }

  /** product/shop/verify: whether a goods' codes can be redeemed at a store. */
  async shopVerify(
    actor: Actor,
    storeId: number,
    goodsId: number,
  ): Promise<{ redeemable: boolean; reason: string | null }> {
    const brander = tenantOf(actor);
    const store = await repo.findStore(this.deps.db, brander, storeId);
    if (!store) throw new AppError(CODE.NOT_FOUND, "stores.notFound");
    const goods = await this.deps.goodsOf(this.deps.db, goodsId);
    if (!goods || goods.supplierMerchantId !== brander) return { redeemable: false, reason: "writeoff.wrongStore" };
    if (store.state !== "open") return { redeemable: false, reason: "writeoff.storeClosed" };
    if (!(await goodsValidAt(this.deps.db, goodsId, storeId))) {
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
    const rows = await this.deps.db
      .selectFrom("store_goods_restrictions as g")
      .innerJoin("stores as s", "s.id", "g.store_id")
      .select(["s.id", "s.name"])
      .where("g.goods_id", "=", goodsId)
      .where("g.brander_id", "=", brander)
      .orderBy("s.id")
      .execute();
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
      const mine = await this.deps.db
        .selectFrom("stores")
        .select("id")
        .where("brander_id", "=", brander)
        .where("id", "in", ids)
        .execute();
      if (mine.length !== ids.length) throw new AppError(CODE.NOT_FOUND, "stores.notFound");
    }
    const now = this.now();
    await withTx(this.deps.db, async (tx) => {
      await tx.deleteFrom("store_goods_restrictions").where("goods_id", "=", goodsId).execute();
      if (!req.all) {
        await tx
          .insertInto("store_goods_restrictions")
          .values(
            ids.map((storeId) => ({ goods_id: goodsId, store_id: storeId, brander_id: brander, created_at: now })),
          )
          .execute();
      }
    });
    return this.goodsStores(actor, goodsId);
  }
}
