import { createHmac, timingSafeEqual } from "node:crypto";
import {
  ledgerReason,
  CODE,
  ONECARD_LIMITS,
  renderMessage,
  type Lang,
  type OcBagReply,
  type OcBalance,
  type OcBatch,
  type OcCard,
  type OcGift,
  type OcMove,
  type OcProduct,
  type OcProductReq,
  type OcSale,
  type OnecardState,
  type Page,
  type SendCodeReply,
} from "@tessera/contracts";
import { sql, type Expression, type RawBuilder } from "kysely";
import { withTx, type Db, type Tx } from "../../db/tx";
import type { Actor } from "../../platform/auth/actor";
import { audit } from "../../platform/audit";
import { platformDay, type Clock } from "../../platform/clock";
import { keyedHash, sameHash } from "../../platform/crypto/tokens";
import { AppError, conflict, invalid } from "../../platform/http/errors";
import type { SmsSender } from "../../platform/messaging/adapters";
import { post, type Posting } from "../ledger";
import { getMerchant, merchantOfActor, type MerchantRow } from "../merchants";
import { mayBuyCondition } from "../purchasing";
import type { CardKeys } from "../supply";
import { cardNumber, maskNo, newCardPassword, parseCardNumber } from "./cardno";
import { loginExpired, type Customer } from "./customers";
import * as repo from "./repo";

/** What one-card needs of accounts: SMS codes to a card holder's phone (reset password). */
export interface OnecardCodes {
  send(phone: string, lang: Lang): Promise<SendCodeReply>;
  check(phone: string, code: string): Promise<number>;
  consume(tx: Tx, codeId: number, now: Date): Promise<boolean>;
}

export interface OnecardDeps {
  db: Db;
  clock: Clock;
  keys: CardKeys;
  /** Key of the password hashes (derived from the app secret). */
  pwdKey: Buffer;
  sms: SmsSender;
  codes: OnecardCodes;
  /** Key of the gift links' MACs (derived from the app secret). */
  giftKey: Buffer;
  /** The embedded database lands issued cards with COPY (repo.copyCards); a server with one INSERT from arrays. */
  copyInserts?: boolean;
}

/** Cards written per statement when a batch is issued. */
const ISSUE_CHUNK = 5000;

const DAY_MS = 86_400_000;
const money = (amount: number, currency: repo.Currency) => ({ amount, currency });
const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
/**
 * A `date` column as YYYY-MM-DD. The drivers hand it back as a Date at local midnight (not the declared
 * string), and `String(date)` is "Tue Dec 31 2030 ...": the charter showed "Tue Dec 31" and a fixed
 * validity made an invalid expiry.
 */
const calendarDay = (v: Date | string): string => {
  if (!(v instanceof Date)) return String(v).slice(0, 10);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${v.getFullYear()}-${pad(v.getMonth() + 1)}-${pad(v.getDate())}`;
};
const cardErr = (key: Parameters<typeof invalid>[0]) => new AppError(CODE.INVALID_PARAMETER, key);

/**
 * Per-client attempts of the public card checks: at most 20 failed ones in 10 minutes per address. An
 * attempt is counted when it starts (so a burst of parallel guesses cannot all pass the check before
 * the first failure is counted) and given back when the password was right.
 */
class ClientThrottle {
  private readonly seen = new Map<string, { start: number; n: number }>();
  constructor(private readonly clock: Clock) {}
  attempt(client: string): void {
    const now = this.clock.now().getTime();
    const e = this.seen.get(client);
    if (!e || now - e.start >= 600_000) {
      if (this.seen.size > 100_000) this.seen.clear();
      this.seen.set(client, { start: now, n: 1 });
      return;
    }
    if (e.n >= 20) throw new AppError(CODE.TOO_MANY_REQUESTS, "onecard.clientThrottled");
    e.n++;
  }
  succeeded(client: string): void {
    const e = this.seen.get(client);
    if (e && e.n > 0) e.n--;
  }
}

/**
 * Stored-value cards. Brands define products and issue batches; purchasers buy cards with SUP money
 * (into the platform's order escrow, ledger key `onecard:sale:<id>`), activate them (the price goes to
 * the brand's income, `onecard:activation:<id>`; the card is loaded with its face value), return
 * unactivated ones (`onecard:return:<id>`, back to SUP), extract their passwords once and gift them to
 * phones. A card's balance changes only with a row in its own book (onecard_moves), under the card's
 * row lock, and never below what is held.
 */
export class OnecardService {
  private readonly throttle: ClientThrottle;
  constructor(private readonly deps: OnecardDeps) {
    this.throttle = new ClientThrottle(deps.clock);
  }

  private now(): Date {
    return this.deps.clock.now();
  }
  private merchantOf(actor: Actor): Promise<MerchantRow> {
    return merchantOfActor(this.deps.db, actor);
  }
  private pwdHash(cardId: number, password: string): string {
    return keyedHash(this.deps.pwdKey, "onecard-password", String(cardId), password);
  }

  /* ---------- brand: products and batches ---------- */

  /** The prepaid-card rules of a product's terms (caps, bearer validity), as configuration. */
  private checkProductRules(req: OcProductReq): void {
    if (req.named && req.faceValue > ONECARD_LIMITS.namedCap) {
      throw invalid("onecard.namedCap", "faceValue", { cap: ONECARD_LIMITS.namedCap / 100 });
    }
    if (!req.named && req.faceValue > ONECARD_LIMITS.bearerCap) {
      throw invalid("onecard.bearerCap", "faceValue", { cap: ONECARD_LIMITS.bearerCap / 100 });
    }
    if (!req.named) {
      const days =
        req.validity.kind === "days"
          ? req.validity.days
          : req.validity.kind === "fixed"
            ? (Date.parse(req.validity.until) - this.now().getTime()) / DAY_MS
            : 0;
      if (!(days >= ONECARD_LIMITS.bearerMinValidDays)) throw invalid("onecard.bearerValidity", "validity");
    }
    if (req.validity.kind === "fixed" && Number.isNaN(Date.parse(req.validity.until))) {
      throw invalid("onecard.validityInvalid", "validity");
    }
  }

  /**
   * Changes a product. Once cards are issued they carry its face value, kind, named flag and validity,
   * so only the name, the sale price (future sales), the stores, the terms and equity payment change.
   */
  async updateProduct(actor: Actor, id: number, req: OcProductReq): Promise<OcProduct> {
    const brand = await this.merchantOf(actor);
    this.checkProductRules(req);
    await withTx(this.deps.db, async (tx) => {
      const p = await tx
        .selectFrom("onecard_products")
        .selectAll()
        .where("id", "=", id)
        .where("brander_id", "=", brand.id)
        .forUpdate()
        .executeTakeFirst();
      if (!p) throw new AppError(CODE.NOT_FOUND, "onecard.productNotFound");
      const issued = await tx
        .selectFrom("onecard_cards")
        .select("id")
        .where("product_id", "=", id)
        .limit(1)
        .executeTakeFirst();
      const until = req.validity.kind === "fixed" ? req.validity.until : null;
      const days = req.validity.kind === "days" ? req.validity.days : null;
      const fixedUntil = p.valid_until ? calendarDay(p.valid_until) : null;
      const terms =
        p.kind !== req.kind ||
        p.face_value !== req.faceValue ||
        p.named !== req.named ||
        p.validity_kind !== req.validity.kind ||
        fixedUntil !== until ||
        p.valid_days !== days;
      if (issued && terms) throw conflict("onecard.productIssued");
      await tx
        .updateTable("onecard_products")
        .set({
          kind: req.kind,
          name: req.name,
          face_value: req.faceValue,
          sale_price: req.salePrice,
          named: req.named,
          validity_kind: req.validity.kind,
          valid_until: until,
          valid_days: days,
          recharge_allowed: req.rechargeAllowed,
          scope: req.scope,
          terms: req.terms,
        })
        .where("id", "=", id)
        .execute();
      await audit(tx, {
        actorUserId: actor.userId,
        action: "onecard.product.update",
        subjectType: "onecard_product",
        subjectId: id,
      });
    });
    return this.productView(id, brand.id);
  }

  async createProduct(actor: Actor, req: OcProductReq): Promise<OcProduct> {
    const brand = await this.merchantOf(actor);
    this.checkProductRules(req);
    const id = await withTx(this.deps.db, async (tx) => {
      const row = await tx
        .insertInto("onecard_products")
        .values({
          brander_id: brand.id,
          kind: req.kind,
          name: req.name,
          face_value: req.faceValue,
          sale_price: req.salePrice,
          currency: brand.currency,
          named: req.named,
          validity_kind: req.validity.kind,
          valid_until: req.validity.kind === "fixed" ? req.validity.until : null,
          valid_days: req.validity.kind === "days" ? req.validity.days : null,
          recharge_allowed: req.rechargeAllowed,
          scope: req.scope,
          terms: req.terms,
          created_at: this.now(),
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await audit(tx, {
        actorUserId: actor.userId,
        action: "onecard.product.create",
        subjectType: "onecard_product",
        subjectId: row.id,
      });
      return row.id;
    });
    return this.productView(id, brand.id);
  }

  async setOnSale(actor: Actor, id: number, onSale: boolean): Promise<OcProduct> {
    const brand = await this.merchantOf(actor);
    const res = await this.deps.db
      .updateTable("onecard_products")
      .set({ on_sale: onSale })
      .where("id", "=", id)
      .where("brander_id", "=", brand.id)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 0) throw new AppError(CODE.NOT_FOUND, "onecard.productNotFound");
    return this.productView(id, brand.id);
  }

  private async productView(id: number, branderId: number): Promise<OcProduct> {
    const { rows } = await repo.productPage(this.deps.db, { branderId, offset: 0, limit: 1000 });
    const row = rows.find((r) => r.id === id);
    if (!row) throw new AppError(CODE.NOT_FOUND, "onecard.productNotFound");
    return presentProduct(row);
  }

  async products(
    actor: Actor,
    q: {
      page: number;
      pageSize: number;
      kind?: string | undefined;
      keyword?: string | undefined;
      onSale?: "true" | "false" | undefined;
    },
  ): Promise<Page<OcProduct>> {
    const brand = await this.merchantOf(actor);
    const onSale = q.onSale === undefined ? undefined : q.onSale === "true";
    const { rows, total } = await repo.productPage(this.deps.db, {
      branderId: brand.id,
      kind: q.kind,
      keyword: q.keyword,
      onSale,
      offset: (q.page - 1) * q.pageSize,
      limit: q.pageSize,
    });
    return { list: rows.map(presentProduct), total, page: q.page, pageSize: q.pageSize };
  }

  /**
   * Products on sale to this purchaser (OneCardMall): in its currency, from brands it may buy from under
   * purchasing's rule (docked, authorised by the brand or whitelisted), so the mall never offers a card
   * a purchase refuses.
   */
  async mall(
    actor: Actor,
    q: { page: number; pageSize: number; kind?: string | undefined; keyword?: string | undefined },
  ): Promise<Page<OcProduct>> {
    const me = await this.merchantOf(actor);
    const { rows, total } = await repo.productPage(this.deps.db, {
      buyable: this.buyableBy(me.id),
      onSaleOnly: true,
      currency: me.currency,
      kind: q.kind,
      keyword: q.keyword,
      offset: (q.page - 1) * q.pageSize,
      limit: q.pageSize,
    });
    return { list: rows.map(presentProduct), total, page: q.page, pageSize: q.pageSize };
  }

  /** The terms of a product on sale (the public card charter). */
  async charter(id: number): Promise<OcProduct> {
    const p = await repo.productById(this.deps.db, id);
    if (!p) throw new AppError(CODE.NOT_FOUND, "onecard.productNotFound");
    return this.productView(id, p.brander_id);
  }

  /** Issues `count` cards of a product: numbers in sequence with a check digit, random passwords, sealed. */
  async issueBatch(actor: Actor, req: { productId: string; count: number; requestKey: string }): Promise<OcBatch> {
    const brand = await this.merchantOf(actor);
    const product = await repo.productOfBrand(this.deps.db, Number(req.productId), brand.id);
    if (!product) throw new AppError(CODE.NOT_FOUND, "onecard.productNotFound");
    const now = this.now();
    const batchId = await withTx(this.deps.db, async (tx) => {
      const made = await tx
        .insertInto("onecard_batches")
        .values({
          product_id: product.id,
          brander_id: brand.id,
          count: req.count,
          request_key: req.requestKey,
          created_by: actor.userId,
          created_at: now,
        })
        .onConflict((oc) => oc.columns(["brander_id", "request_key"]).doNothing())
        .returning("id")
        .executeTakeFirst();
      if (!made) {
        const first = await tx
          .selectFrom("onecard_batches")
          .select("id")
          .where("brander_id", "=", brand.id)
          .where("request_key", "=", req.requestKey)
          .executeTakeFirstOrThrow();
        return first.id;
      }
      const { keys } = this.deps;
      const head = {
        batchId: made.id,
        productId: product.id,
        branderId: brand.id,
        faceValue: product.face_value,
        currency: product.currency,
      };
      for (let start = 1; start <= req.count; start += ISSUE_CHUNK) {
        const end = Math.min(start + ISSUE_CHUNK, req.count + 1);
        // The id of each card is needed for its password hash: take them from the sequence first.
        const ids = await sql<{
          id: string;
        }>`SELECT nextval(pg_get_serial_sequence('onecard_cards', 'id'))::text AS id FROM generate_series(1, ${end - start})`.execute(
          tx,
        );
        const cards: repo.NewCard[] = [];
        for (let serial = start; serial < end; serial++) {
          const id = Number(ids.rows[serial - start]?.id);
          const no = cardNumber(made.id, serial);
          const password = newCardPassword();
          cards.push({
            id,
            serial,
            noHash: keys.numberHash(no),
            noMasked: maskNo(no),
            sealed: keys.seal(no, password),
            pwdHash: this.pwdHash(id, password),
          });
        }
        if (this.deps.copyInserts === true) await repo.copyCards(tx, head, cards);
        else await repo.insertCards(tx, head, cards);
      }
      await audit(tx, {
        actorUserId: actor.userId,
        action: "onecard.batch.issue",
        subjectType: "onecard_batch",
        subjectId: made.id,
        detail: { count: req.count },
      });
      return made.id;
    });
    const { rows } = await repo.batchPage(this.deps.db, brand.id, 0, 1000);
    const b = rows.find((r) => r.id === batchId);
    if (!b) throw new AppError(CODE.NOT_FOUND, "error.notFound");
    return presentBatch(b);
  }

  async batches(
    actor: Actor,
    q: { page: number; pageSize: number; productId?: string | undefined },
  ): Promise<Page<OcBatch>> {
    const brand = await this.merchantOf(actor);
    const { rows, total } = await repo.batchPage(
      this.deps.db,
      brand.id,
      (q.page - 1) * q.pageSize,
      q.pageSize,
      q.productId ? Number(q.productId) : undefined,
    );
    return { list: rows.map(presentBatch), total, page: q.page, pageSize: q.pageSize };
  }

  /** The cards of one of the brand's batches, numbers masked (the brand never sees passwords). */
  async batchCards(
    actor: Actor,
    batchId: number,
    q: { page: number; pageSize: number; state?: OnecardState | undefined },
  ): Promise<Page<OcCard>> {
    const brand = await this.merchantOf(actor);
    const { rows, total } = await repo.cardPage(this.deps.db, {
      branderId: brand.id,
      batchId,
      state: q.state,
      offset: (q.page - 1) * q.pageSize,
      limit: q.pageSize,
    });
    return { list: rows.map((r) => presentCard(r, false, this.deps.keys)), total, page: q.page, pageSize: q.pageSize };
  }

  /* ---------- purchaser: buy ---------- */

  /** Purchasing's rule of who may buy from whom, on a brand column; a card product has no per-goods whitelist. */
  private buyableBy(purchaserId: number): (brander: Expression<unknown>) => RawBuilder<boolean> {
    const day = platformDay(this.now());
    return (brander) => mayBuyCondition(purchaserId, day, brander, 0);
  }

  private async mayBuyFrom(tx: Tx, purchaserId: number, branderId: number): Promise<boolean> {
    const row = await sql<{
      ok: boolean | null;
    }>`SELECT ${this.buyableBy(purchaserId)(sql.lit(branderId))} AS ok`.execute(tx);
    return row.rows[0]?.ok === true;
  }

  /**
   * Buys cards of a product: the cards are taken from the brand's stock (SKIP LOCKED, so parallel
   * purchases take different cards and a card is sold once) and paid from SUP into the order escrow,
   * in one transaction. The same request key returns the first purchase.
   */
  async purchase(actor: Actor, req: { productId: string; quantity: number; requestKey: string }): Promise<OcSale> {
    const me = await this.merchantOf(actor);
    const product = await repo.productById(this.deps.db, Number(req.productId));
    if (!product || product.currency !== me.currency) throw new AppError(CODE.NOT_FOUND, "onecard.productNotFound");
    const amount = product.sale_price * req.quantity;
    const now = this.now();
    const saleId = await withTx(this.deps.db, async (tx) => {
      const first = await tx
        .selectFrom("onecard_sales")
        .select("id")
        .where("purchaser_id", "=", me.id)
        .where("request_key", "=", req.requestKey)
        .executeTakeFirst();
      if (first) return first.id;
      if (!product.on_sale) throw conflict("onecard.productOff");
      if (!(await this.mayBuyFrom(tx, me.id, product.brander_id))) throw conflict("docking.notDocked", "productId");
      if (amount >= ONECARD_LIMITS.realNamePurchase && me.real_name_state !== "verified") {
        throw new AppError(CODE.CONFLICT, "onecard.realNameRequired", {
          amount: ONECARD_LIMITS.realNamePurchase / 100,
        });
      }
      const sale = await tx
        .insertInto("onecard_sales")
        .values({
          purchaser_id: me.id,
          brander_id: product.brander_id,
          product_id: product.id,
          quantity: req.quantity,
          unit_price: product.sale_price,
          face_value: product.face_value,
          currency: product.currency,
          request_key: req.requestKey,
          created_by: actor.userId,
          created_at: now,
        })
        .onConflict((oc) => oc.columns(["purchaser_id", "request_key"]).doNothing())
        .returning("id")
        .executeTakeFirst();
      if (!sale) {
        const again = await tx
          .selectFrom("onecard_sales")
          .select("id")
          .where("purchaser_id", "=", me.id)
          .where("request_key", "=", req.requestKey)
          .executeTakeFirstOrThrow();
        return again.id;
      }
      const taken = await sql<{ id: number }>`
        WITH pick AS MATERIALIZED (
          SELECT id FROM onecard_cards WHERE product_id = ${product.id} AND state = 'issued' ORDER BY id LIMIT ${req.quantity} FOR UPDATE SKIP LOCKED
        )
        UPDATE onecard_cards c SET state = 'sold', owner_id = ${me.id}, sale_id = ${sale.id}, sale_price = ${product.sale_price}
        FROM pick WHERE c.id = pick.id AND c.state = 'issued'
        RETURNING c.id`.execute(tx);
      if (taken.rows.length < req.quantity) {
        const left = await tx
          .selectFrom("onecard_cards")
          .select((eb) => eb.fn.countAll<string>().as("n"))
          .where("product_id", "=", product.id)
          .where("state", "=", "issued")
          .executeTakeFirstOrThrow();
        throw new AppError(CODE.CONFLICT, "onecard.stockShort", { left: Number(left.n) + taken.rows.length });
      }
      if (amount > 0) {
        await post(tx, {
          idempotencyKey: `onecard:sale:${sale.id}`,
          kind: "card_sale",
          currency: product.currency,
          reason: product.name,
          subject: { type: "onecard_sale", id: sale.id },
          createdBy: actor.userId,
          postings: [
            { account: { merchantId: me.id, kind: "sup" }, amount: -amount },
            { account: { platform: "order_escrow" }, amount },
          ],
        });
      }
      await audit(tx, {
        actorUserId: actor.userId,
        action: "onecard.purchase",
        subjectType: "onecard_sale",
        subjectId: sale.id,
        detail: { quantity: req.quantity, amount },
      });
      return sale.id;
    });
    const [s] = (await this.sales(actor, { page: 1, pageSize: 1000, id: saleId })).list;
    if (!s) throw new AppError(CODE.NOT_FOUND, "error.notFound");
    return s;
  }

  async sales(actor: Actor, q: { page: number; pageSize: number; id?: number }): Promise<Page<OcSale>> {
    const me = await this.merchantOf(actor);
    let base = this.deps.db
      .selectFrom("onecard_sales as s")
      .innerJoin("onecard_products as p", "p.id", "s.product_id")
      .innerJoin("merchants as m", "m.id", "s.brander_id")
      .where("s.purchaser_id", "=", me.id);
    if (q.id !== undefined) base = base.where("s.id", "=", q.id);
    const [rows, count] = await Promise.all([
      base
        .selectAll("s")
        .select(["p.name as product_name", "m.name as brander_name"])
        .select((eb) =>
          eb
            .selectFrom("onecard_cards as c")
            .whereRef("c.sale_id", "=", "s.id")
            .where("c.state", "=", "returned")
            .select((e) => e.fn.countAll<string>().as("n"))
            .as("returned"),
        )
        .orderBy("s.id", "desc")
        .offset((q.page - 1) * q.pageSize)
        .limit(q.pageSize)
        .execute(),
      base.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
    ]);
    return {
      list: rows.map((s) => ({
        id: String(s.id),
        productId: String(s.product_id),
        productName: s.product_name,
        branderName: s.brander_name,
        quantity: s.quantity,
        unitPrice: money(s.unit_price, s.currency),
        amount: money(s.unit_price * s.quantity, s.currency),
        faceValue: money(s.face_value, s.currency),
        returned: Number(s.returned ?? 0),
        createdAt: new Date(s.created_at).toISOString(),
      })),
      total: Number(count.n),
      page: q.page,
      pageSize: q.pageSize,
    };
  }

  async cards(
    actor: Actor,
    q: {
      page: number;
      pageSize: number;
      state?: OnecardState | undefined;
      saleId?: string | undefined;
      productId?: string | undefined;
      cardNo?: string | undefined;
    },
  ): Promise<Page<OcCard>> {
    const me = await this.merchantOf(actor);
    const noHash = q.cardNo && q.cardNo.length === 16 ? this.deps.keys.numberHash(q.cardNo) : undefined;
    if (q.cardNo && !noHash) return { list: [], total: 0, page: q.page, pageSize: q.pageSize };
    const { rows, total } = await repo.cardPage(this.deps.db, {
      ownerId: me.id,
      state: q.state,
      saleId: q.saleId ? Number(q.saleId) : undefined,
      productId: q.productId ? Number(q.productId) : undefined,
      noHash,
      offset: (q.page - 1) * q.pageSize,
      limit: q.pageSize,
    });
    return { list: rows.map((r) => presentCard(r, false, this.deps.keys)), total, page: q.page, pageSize: q.pageSize };
  }

  /* ---------- purchaser: activate, return, extract, gift ---------- */

  private async cardIdsFor(
    me: MerchantRow,
    sel: {
      cardIds?: string[] | undefined;
      range?: { from: string; to: string } | undefined;
      saleId?: string | undefined;
    },
  ): Promise<number[]> {
    if (sel.cardIds) return [...new Set(sel.cardIds.map(Number))].sort((a, b) => a - b);
    if (sel.saleId) return repo.cardIdsOfSale(this.deps.db, Number(sel.saleId), me.id);
    if (sel.range) {
      const a = parseCardNumber(sel.range.from);
      const b = parseCardNumber(sel.range.to);
      if (!a || !b || a.batchId !== b.batchId || a.serial > b.serial || b.serial - a.serial >= 10_000) {
        throw invalid("onecard.rangeInvalid", "range");
      }
      return repo.cardIdsOfRange(this.deps.db, a.batchId, a.serial, b.serial);
    }
    return [];
  }

  /**
   * Activates cards, all or nothing: every card must be this purchaser's and sold, not yet activated.
   * Each card is loaded with its face value (its first move); the cards' prices leave the escrow for
   * their brands' income in one ledger transaction. The same request key returns the first result.
   */
  async activate(
    actor: Actor,
    req: {
      cardIds?: string[] | undefined;
      range?: { from: string; to: string } | undefined;
      saleId?: string | undefined;
      requestKey: string;
    },
  ) {
    const me = await this.merchantOf(actor);
    const replay = await this.deps.db
      .selectFrom("onecard_activations")
      .selectAll()
      .where("purchaser_id", "=", me.id)
      .where("request_key", "=", req.requestKey)
      .executeTakeFirst();
    if (replay) return { id: String(replay.id), count: replay.count, amount: money(replay.amount, me.currency) };
    const ids = await this.cardIdsFor(me, req);
    if (ids.length === 0) throw invalid("onecard.selectCards");
    const now = this.now();
    return withTx(this.deps.db, async (tx) => {
      const act = await tx
        .insertInto("onecard_activations")
        .values({
          purchaser_id: me.id,
          count: ids.length,
          amount: 0,
          request_key: req.requestKey,
          created_by: actor.userId,
          created_at: now,
        })
        .onConflict((oc) => oc.columns(["purchaser_id", "request_key"]).doNothing())
        .returning("id")
        .executeTakeFirst();
      if (!act) {
        const first = await tx
          .selectFrom("onecard_activations")
          .selectAll()
          .where("purchaser_id", "=", me.id)
          .where("request_key", "=", req.requestKey)
          .executeTakeFirstOrThrow();
        return { id: String(first.id), count: first.count, amount: money(first.amount, me.currency) };
      }
      const cards = await repo.lockCards(tx, ids);
      if (cards.length !== ids.length || cards.some((c) => c.owner_id !== me.id)) {
        throw new AppError(CODE.FORBIDDEN, "onecard.notYours");
      }
      if (cards.some((c) => c.state !== "sold")) throw conflict("onecard.activateMixed");
      const products = new Map<number, repo.ProductRow>();
      for (const c of cards) {
        if (!products.has(c.product_id)) {
          products.set(c.product_id, (await repo.productById(tx, c.product_id)) as repo.ProductRow);
        }
      }
      const byBrand = new Map<number, number>();
      let total = 0;
      for (const c of cards) {
        const p = products.get(c.product_id);
        const expires = p ? expiryOf(p, now) : null;
        await tx
          .updateTable("onecard_cards")
          .set({
            state: "activated",
            balance: c.face_value,
            activated_at: now,
            expires_at: expires,
            activation_id: act.id,
          })
          .where("id", "=", c.id)
          .execute();
        if (c.face_value > 0) {
          await repo.addMove(tx, {
            cardId: c.id,
            kind: "activate",
            amount: c.face_value,
            balanceAfter: c.face_value,
            requestKey: `activation:${act.id}`,
            now,
          });
        }
        const price = c.sale_price ?? 0;
        total += price;
        if (price > 0) byBrand.set(c.brander_id, (byBrand.get(c.brander_id) ?? 0) + price);
      }
      if (total > 0) {
        const postings: Posting[] = [{ account: { platform: "order_escrow" }, amount: -total }];
        for (const [brand, amount] of byBrand) {
          postings.push({ account: { merchantId: brand, kind: "income" }, amount });
        }
        await post(tx, {
          idempotencyKey: `onecard:activation:${act.id}`,
          kind: "card_activation",
          currency: me.currency,
          reason: ledgerReason("ledgerReason.cardActivation", { count: ids.length }),
          subject: { type: "onecard_activation", id: act.id },
          createdBy: actor.userId,
          postings,
        });
      }
      await tx.updateTable("onecard_activations").set({ amount: total }).where("id", "=", act.id).execute();
      await audit(tx, {
        actorUserId: actor.userId,
        action: "onecard.activate",
        subjectType: "onecard_activation",
        subjectId: act.id,
        detail: { count: ids.length },
      });
      return { id: String(act.id), count: ids.length, amount: money(total, me.currency) };
    });
  }

  /**
   * What activating this selection would do, shown before the purchaser confirms it (issue 37): the
   * cards, the prices paid for them (they leave the escrow for the brands) and the face value loaded.
   * The same selection and checks as `activate`, read without locks; nothing changes.
   */
  async activationPreview(
    actor: Actor,
    sel: {
      cardIds?: string[] | undefined;
      range?: { from: string; to: string } | undefined;
      saleId?: string | undefined;
    },
  ) {
    const me = await this.merchantOf(actor);
    const ids = await this.cardIdsFor(me, sel);
    if (ids.length === 0) throw invalid("onecard.selectCards");
    const cards = await this.deps.db
      .selectFrom("onecard_cards")
      .select(["owner_id", "state", "sale_price", "face_value"])
      .where("id", "in", ids)
      .execute();
    if (cards.length !== ids.length || cards.some((c) => c.owner_id !== me.id)) {
      throw new AppError(CODE.FORBIDDEN, "onecard.notYours");
    }
    if (cards.some((c) => c.state !== "sold")) throw conflict("onecard.activateMixed");
    const amount = cards.reduce((s, c) => s + (c.sale_price ?? 0), 0);
    const faceValue = cards.reduce((s, c) => s + c.face_value, 0);
    return { count: ids.length, amount: money(amount, me.currency), faceValue: money(faceValue, me.currency) };
  }

  /** Returns unactivated cards: their prices go back from the escrow to SUP; the cards are void for good. */
  async returnCards(actor: Actor, req: { cardIds: string[]; reason: string; requestKey: string }) {
    const me = await this.merchantOf(actor);
    const ids = [...new Set(req.cardIds.map(Number))].sort((a, b) => a - b);
    const now = this.now();
    const id = await withTx(this.deps.db, async (tx) => {
      const first = await tx
        .selectFrom("onecard_returns")
        .select("id")
        .where("purchaser_id", "=", me.id)
        .where("request_key", "=", req.requestKey)
        .executeTakeFirst();
      if (first) return first.id;
      const cards = await repo.lockCards(tx, ids);
      if (cards.length !== ids.length || cards.some((c) => c.owner_id !== me.id)) {
        throw new AppError(CODE.FORBIDDEN, "onecard.notYours");
      }
      if (cards.some((c) => c.state !== "sold")) throw conflict("onecard.returnActivated");
      const amount = cards.reduce((s, c) => s + (c.sale_price ?? 0), 0);
      const ret = await tx
        .insertInto("onecard_returns")
        .values({
          purchaser_id: me.id,
          count: ids.length,
          amount,
          currency: me.currency,
          reason: req.reason,
          request_key: req.requestKey,
          created_by: actor.userId,
          created_at: now,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await tx
        .updateTable("onecard_cards")
        .set({ state: "returned", return_id: ret.id })
        .where("id", "in", ids)
        .execute();
      if (amount > 0) {
        await post(tx, {
          idempotencyKey: `onecard:return:${ret.id}`,
          kind: "refund",
          currency: me.currency,
          reason: req.reason || ledgerReason("ledgerReason.cardReturn"),
          subject: { type: "onecard_return", id: ret.id },
          createdBy: actor.userId,
          postings: [
            { account: { platform: "order_escrow" }, amount: -amount },
            { account: { merchantId: me.id, kind: "sup" }, amount },
          ],
        });
      }
      await audit(tx, {
        actorUserId: actor.userId,
        action: "onecard.return",
        subjectType: "onecard_return",
        subjectId: ret.id,
        detail: { count: ids.length, amount },
      });
      return ret.id;
    });
    const r = await this.deps.db
      .selectFrom("onecard_returns")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    return presentReturn(r);
  }

  async returns(actor: Actor, q: { page: number; pageSize: number }) {
    const me = await this.merchantOf(actor);
    const base = this.deps.db.selectFrom("onecard_returns").where("purchaser_id", "=", me.id);
    const [rows, count] = await Promise.all([
      base
        .selectAll()
        .orderBy("id", "desc")
        .offset((q.page - 1) * q.pageSize)
        .limit(q.pageSize)
        .execute(),
      base.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
    ]);
    return { list: rows.map(presentReturn), total: Number(count.n), page: q.page, pageSize: q.pageSize };
  }

  /**
   * Extraction (提卡): the numbers and passwords of unactivated cards the purchaser holds, the only way
   * to see a password again; every extraction is recorded with who did it.
   */
  async extract(
    actor: Actor,
    cardIds: string[],
  ): Promise<{ no: string; password: string; product: string; faceValue: number; currency: string }[]> {
    const me = await this.merchantOf(actor);
    const ids = [...new Set(cardIds.map(Number))].sort((a, b) => a - b);
    const now = this.now();
    const cards = await withTx(this.deps.db, async (tx) => {
      const locked = await repo.lockCards(tx, ids);
      if (locked.length !== ids.length || locked.some((c) => c.owner_id !== me.id)) {
        throw new AppError(CODE.FORBIDDEN, "onecard.notYours");
      }
      if (locked.some((c) => c.state !== "sold")) throw conflict("onecard.unusable");
      await tx.updateTable("onecard_cards").set({ extracted_at: now }).where("id", "in", ids).execute();
      const ex = await tx
        .insertInto("onecard_extractions")
        .values({ purchaser_id: me.id, card_ids: ids, created_by: actor.userId, created_at: now })
        .returning("id")
        .executeTakeFirstOrThrow();
      await audit(tx, {
        actorUserId: actor.userId,
        action: "onecard.extract",
        subjectType: "onecard_extraction",
        subjectId: ex.id,
        detail: { count: ids.length },
      });
      return locked;
    });
    const names = new Map<number, string>();
    for (const c of cards) {
      if (!names.has(c.product_id)) {
        names.set(c.product_id, (await repo.productById(this.deps.db, c.product_id))?.name ?? "");
      }
    }
    return cards.map((c) => {
      const { number, secret } = this.deps.keys.unseal(c.sealed);
      return {
        no: number,
        password: secret,
        product: names.get(c.product_id) ?? "",
        faceValue: c.face_value,
        currency: c.currency,
      };
    });
  }

  async extractions(actor: Actor, q: { page: number; pageSize: number }) {
    const me = await this.merchantOf(actor);
    const base = this.deps.db
      .selectFrom("onecard_extractions as e")
      .innerJoin("users as u", "u.id", "e.created_by")
      .where("e.purchaser_id", "=", me.id);
    const [rows, count] = await Promise.all([
      base
        .select(["e.id", "e.card_ids", "e.created_at", "u.email"])
        .orderBy("e.id", "desc")
        .offset((q.page - 1) * q.pageSize)
        .limit(q.pageSize)
        .execute(),
      base.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
    ]);
    return {
      list: rows.map((r) => ({
        id: String(r.id),
        count: r.card_ids.length,
        userEmail: r.email,
        createdAt: new Date(r.created_at).toISOString(),
      })),
      total: Number(count.n),
      page: q.page,
      pageSize: q.pageSize,
    };
  }

  /**
   * Gives activated cards to a phone number (an SMS tells them; they claim the cards into their card bag)
   * or, without a phone, by link: the reply's link claims them for whoever opens it first, logged in.
   */
  async gift(
    actor: Actor,
    req: { cardIds: string[]; phone?: string | undefined; message: string; requestKey: string },
    lang: Lang,
  ): Promise<OcGift> {
    const me = await this.merchantOf(actor);
    const ids = [...new Set(req.cardIds.map(Number))].sort((a, b) => a - b);
    const { id, fresh } = await withTx(this.deps.db, async (tx) => {
      const first = await tx
        .selectFrom("onecard_gifts")
        .select("id")
        .where("purchaser_id", "=", me.id)
        .where("request_key", "=", req.requestKey)
        .executeTakeFirst();
      if (first) return { id: first.id, fresh: false };
      const cards = await repo.lockCards(tx, ids);
      if (cards.length !== ids.length || cards.some((c) => c.owner_id !== me.id)) {
        throw new AppError(CODE.FORBIDDEN, "onecard.notYours");
      }
      if (cards.some((c) => c.state === "sold")) throw conflict("onecard.notActivated");
      if (cards.some((c) => c.state !== "activated" || c.customer_id !== null || c.gift_id !== null)) {
        throw conflict("onecard.unusable");
      }
      const giftId = await this.giveCards(tx, actor, me, {
        cards,
        phone: req.phone ?? null,
        message: req.message,
        requestKey: req.requestKey,
        packageId: null,
      });
      return { id: giftId, fresh: true };
    });
    if (fresh && req.phone) await this.tellRecipient(me, req.phone, ids.length, lang);
    const [g] = (await this.gifts(actor, { page: 1, pageSize: 20, id })).list;
    if (!g) throw new AppError(CODE.NOT_FOUND, "onecard.giftNotFound");
    return g;
  }

  /** Records a gift of cards the caller locked and checked (activated, the sender's, not given), and marks them given. */
  async giveCards(
    tx: Tx,
    actor: Actor,
    me: MerchantRow,
    g: {
      cards: { id: number; balance: number }[];
      phone: string | null;
      message: string;
      requestKey: string;
      packageId: number | null;
    },
  ): Promise<number> {
    const now = this.now();
    const ids = g.cards.map((c) => c.id);
    const row = await tx
      .insertInto("onecard_gifts")
      .values({
        purchaser_id: me.id,
        phone: g.phone,
        package_id: g.packageId,
        card_ids: ids,
        amount: g.cards.reduce((sum, c) => sum + c.balance, 0),
        currency: me.currency,
        message: g.message,
        request_key: g.requestKey,
        expires_at: new Date(now.getTime() + ONECARD_LIMITS.giftDays * DAY_MS),
        created_at: now,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await tx.updateTable("onecard_cards").set({ gift_id: row.id }).where("id", "in", ids).execute();
    await audit(tx, {
      actorUserId: actor.userId,
      action: "onecard.gift",
      subjectType: "onecard_gift",
      subjectId: row.id,
      detail: { count: ids.length, byLink: g.phone === null },
    });
    return row.id;
  }

  async tellRecipient(me: MerchantRow, phone: string, count: number, lang: Lang): Promise<void> {
    await this.deps.sms.send({ to: phone, text: renderMessage("onecard.giftSms", lang, { from: me.name, count }) });
  }

  /** The token of a gift's claim link: its id and a keyed MAC of it, so links cannot be guessed from ids. */
  giftToken(id: number): string {
    return `${id}.${createHmac("sha256", this.deps.giftKey).update(`gift:${id}`).digest("base64url").slice(0, 24)}`;
  }

  private giftOfToken(token: string): number | undefined {
    const id = Number(token.split(".")[0]);
    if (!Number.isSafeInteger(id) || id <= 0) return undefined;
    const expected = Buffer.from(this.giftToken(id));
    const given = Buffer.from(token);
    return expected.length === given.length && timingSafeEqual(expected, given) ? id : undefined;
  }

  async gifts(
    actor: Actor,
    q: { page: number; pageSize: number; id?: number; ids?: number[]; packageId?: string | undefined },
  ): Promise<Page<OcGift>> {
    const me = await this.merchantOf(actor);
    await this.expireGifts();
    let base = this.deps.db
      .selectFrom("onecard_gifts as g")
      .leftJoin("onecard_gift_packages as p", "p.id", "g.package_id")
      .where("g.purchaser_id", "=", me.id);
    if (q.id !== undefined) base = base.where("g.id", "=", q.id);
    if (q.ids !== undefined) base = base.where("g.id", "in", q.ids.length > 0 ? q.ids : [0]);
    if (q.packageId !== undefined) base = base.where("g.package_id", "=", Number(q.packageId));
    const [rows, count] = await Promise.all([
      base
        .selectAll("g")
        .select("p.name as package_name")
        .orderBy("g.id", "desc")
        .offset((q.page - 1) * q.pageSize)
        .limit(q.pageSize)
        .execute(),
      base.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
    ]);
    return {
      list: rows.map((g) => ({
        ...presentGift(g, true),
        packageName: g.package_name,
        link: g.phone === null ? `/client/claim?token=${this.giftToken(g.id)}` : null,
      })),
      total: Number(count.n),
      page: q.page,
      pageSize: q.pageSize,
    };
  }

  /** Unclaimed gifts past their expiry go back to the sender: the cards are free to give again. Idempotent. */
  async expireGifts(): Promise<number> {
    const now = this.now();
    return withTx(this.deps.db, async (tx) => {
      const expired = await tx
        .updateTable("onecard_gifts")
        .set({ state: "expired" })
        .where("state", "=", "sent")
        .where("expires_at", "<=", now)
        .returning("id")
        .execute();
      if (expired.length > 0) {
        await tx
          .updateTable("onecard_cards")
          .set({ gift_id: null })
          .where(
            "gift_id",
            "in",
            expired.map((g) => g.id),
          )
          .where("customer_id", "is", null)
          .execute();
      }
      return expired.length;
    });
  }

  /** Sales, activations, returns and redemptions per day, week or month, and what cards still hold. */
  async report(
    actor: Actor,
    q: { dimension: "day" | "week" | "month"; from?: string | undefined; to?: string | undefined },
  ) {
    const me = await this.merchantOf(actor);
    const unit = q.dimension;
    const from = q.from ?? "1970-01-01";
    const to = q.to ?? "9999-12-31";
    const rows = await sql<{
      period: string;
      sold_count: string;
      sold_amount: string;
      activated_count: string;
      activated_value: string;
      returned_count: string;
      returned_amount: string;
      redeemed: string;
    }>`
      WITH ev AS (
        SELECT date_trunc(${unit}, s.created_at AT TIME ZONE 'Asia/Shanghai') AS p, s.quantity AS sc, s.quantity * s.unit_price AS sa, 0 AS ac, 0::bigint AS av, 0 AS rc, 0::bigint AS ra, 0::bigint AS rd
          FROM onecard_sales s WHERE s.purchaser_id = ${me.id}
        UNION ALL
        SELECT date_trunc(${unit}, c.activated_at AT TIME ZONE 'Asia/Shanghai'), 0, 0, 1, c.face_value, 0, 0, 0
          FROM onecard_cards c WHERE c.owner_id = ${me.id} AND c.activated_at IS NOT NULL
        UNION ALL
        SELECT date_trunc(${unit}, r.created_at AT TIME ZONE 'Asia/Shanghai'), 0, 0, 0, 0, r.count, r.amount, 0
          FROM onecard_returns r WHERE r.purchaser_id = ${me.id}
        UNION ALL
        SELECT date_trunc(${unit}, v.created_at AT TIME ZONE 'Asia/Shanghai'), 0, 0, 0, 0, 0, 0, -v.amount
          FROM onecard_moves v JOIN onecard_cards c ON c.id = v.card_id WHERE c.owner_id = ${me.id} AND v.kind IN ('redeem', 'capture', 'refund')
      )
      SELECT to_char(p, 'YYYY-MM-DD') AS period, SUM(sc)::text AS sold_count, SUM(sa)::text AS sold_amount, SUM(ac)::text AS activated_count,
             SUM(av)::text AS activated_value, SUM(rc)::text AS returned_count, SUM(ra)::text AS returned_amount, SUM(rd)::text AS redeemed
      FROM ev WHERE p >= ${from}::date AND p < ${to}::date + 1 GROUP BY p ORDER BY p DESC LIMIT 1000`.execute(
      this.deps.db,
    );
    const out = await sql<{ outstanding: string; n: string }>`
      SELECT COALESCE(SUM(balance), 0)::text AS outstanding, COUNT(*) FILTER (WHERE balance > 0)::text AS n
      FROM onecard_cards WHERE owner_id = ${me.id} AND state = 'activated'`.execute(this.deps.db);
    const c = me.currency;
    return {
      rows: rows.rows.map((r) => ({
        period: r.period,
        soldCount: Number(r.sold_count),
        soldAmount: money(Number(r.sold_amount), c),
        activatedCount: Number(r.activated_count),
        activatedValue: money(Number(r.activated_value), c),
        returnedCount: Number(r.returned_count),
        returnedAmount: money(Number(r.returned_amount), c),
        redeemed: money(Number(r.redeemed), c),
      })),
      outstanding: money(Number(out.rows[0]?.outstanding ?? 0), c),
      heldCards: Number(out.rows[0]?.n ?? 0),
    };
  }

  /* ---------- card credentials ---------- */

  /**
   * Finds a card by number and password. Unknown numbers and wrong passwords get one answer; wrong
   * passwords count per (card, client), locking the card for that client only after a few (the holder
   * told by SMS), and against the address (throttled), so guessing gets nowhere and nobody can lock a
   * card for everyone else (issue 38 item 7).
   *
   * `client` is the caller's address for the per-address limit of anonymous and customer checks; null for
   * an authenticated brand. `brandId` names that brand: only its own cards exist for it, so another
   * brand's card answers exactly like an unknown number and its lock is not touched, and its failures
   * count as `merchant:<id>`. To a caller without a brand, a locked card answers like an unknown one
   * (a different answer would tell a real card from an unissued number).
   */
  async verify(
    cardNo: string,
    password: string,
    client: string | null,
    lang: Lang,
    brandId?: number,
  ): Promise<repo.CardRowDb> {
    if (client !== null) this.throttle.attempt(client);
    const found = parseCardNumber(cardNo)
      ? await repo.cardByHash(this.deps.db, this.deps.keys.numberHash(cardNo))
      : undefined;
    const card = found && (brandId === undefined || found.brander_id === brandId) ? found : undefined;
    const who = brandId !== undefined ? `merchant:${brandId}` : `ip:${client ?? "unknown"}`;
    const now = this.now();
    const lockedUntil = card ? await repo.clientLock(this.deps.db, card.id, who) : null;
    const expected = card?.pwd_hash ?? "00";
    const given = this.pwdHash(card?.id ?? 0, password);
    if (card && lockedUntil && lockedUntil > now) {
      if (brandId === undefined) throw cardErr("onecard.cardUnknown");
      throw new AppError(CODE.ACCOUNT_LOCKED, "onecard.cardLocked", {
        minutes: Math.ceil((lockedUntil.getTime() - now.getTime()) / 60_000),
      });
    }
    if (!card || !sameHash(expected, given)) {
      if (card) {
        const lockUntil = new Date(now.getTime() + ONECARD_LIMITS.lockMinutes * 60_000);
        const { locked } = await repo.countClientWrongPassword(
          this.deps.db,
          card.id,
          who,
          ONECARD_LIMITS.wrongPasswordsBeforeLock,
          lockUntil,
          now,
        );
        if (locked && card.customer_id !== null) {
          const owner = await this.deps.db
            .selectFrom("onecard_customers")
            .select("phone")
            .where("id", "=", card.customer_id)
            .executeTakeFirst();
          if (owner) {
            await this.deps.sms.send({
              to: owner.phone,
              text: renderMessage("onecard.lockedSms", lang, {
                last4: cardNo.slice(-4),
                minutes: ONECARD_LIMITS.lockMinutes,
              }),
            });
          }
        }
      }
      throw cardErr("onecard.cardUnknown");
    }
    if (client !== null) this.throttle.succeeded(client);
    // A right password clears this client's count (a primary-key delete; usually nothing to delete).
    await repo.clearWrongPasswords(this.deps.db, card.id, who);
    return card;
  }

  /** The public balance query (oneCardQuery): number and password. */
  async balance(cardNo: string, password: string, client: string, lang: Lang): Promise<OcBalance> {
    const card = await this.verify(cardNo, password, client, lang);
    const p = await repo.productById(this.deps.db, card.product_id);
    const brand = await getMerchant(this.deps.db, card.brander_id);
    return {
      cardNo: maskNo(cardNo),
      productName: p?.name ?? "",
      branderName: brand?.name ?? "",
      state: effectiveState(card, this.now()),
      faceValue: money(card.face_value, card.currency),
      balance: money(card.balance, card.currency),
      expiresAt: iso(card.expires_at),
    };
  }

  /** A purchaser looks one of its cards up by number (sale/oneCardQuery). */
  async lookup(actor: Actor, cardNo: string): Promise<OcCard> {
    const page = await this.cards(actor, { page: 1, pageSize: 20, cardNo });
    const card = page.list[0];
    if (!card) throw new AppError(CODE.NOT_FOUND, "onecard.cardUnknown");
    return card;
  }

  /* ---------- money on a card ---------- */

  private usable(card: repo.CardRowDb): void {
    const now = this.now();
    if (card.state === "sold" || card.state === "issued") throw conflict("onecard.notActivated");
    if (card.state === "frozen") throw conflict("onecard.frozen");
    if (card.state === "expired" || (card.expires_at && new Date(card.expires_at) <= now)) {
      throw conflict("onecard.expired");
    }
    if (card.state !== "activated") throw conflict("onecard.unusable");
  }

  /**
   * Takes `amount` off a card under its row lock: a move with the request key (a replay finds it and
   * changes nothing), never below what is held. Returns the balance after it.
   */
  async debit(
    tx: Tx,
    cardId: number,
    amount: number,
    kind: "redeem" | "capture",
    requestKey: string,
    note: string,
  ): Promise<{ balance: number; replayed: boolean }> {
    const card = await repo.lockCardForMove(tx, cardId, requestKey);
    if (!card) throw cardErr("onecard.cardUnknown");
    if (card.replayed) return { balance: card.balance, replayed: true };
    this.usable(card);
    if (card.balance - card.held < amount) throw conflict("onecard.insufficient");
    const after = card.balance - amount;
    await repo.moveBalance(tx, {
      cardId,
      kind,
      amount: -amount,
      balanceAfter: after,
      requestKey,
      note,
      now: this.now(),
    });
    return { balance: after, replayed: false };
  }

  /** A store or mall of the card's brand redeems in one step (number, password, amount, request key). */
  async redeem(
    actor: Actor,
    req: { cardNo: string; password: string; amount: number; requestKey: string },
    client: string | null,
    lang: Lang,
  ) {
    const me = await this.merchantOf(actor);
    // Only the brand's own cards exist for it: another brand's answers like an unknown number (no oracle).
    const card = await this.verify(req.cardNo, req.password, client, lang, me.id);
    const { balance } = await withTx(this.deps.db, (tx) =>
      this.debit(tx, card.id, req.amount, "redeem", `redeem:${req.requestKey}`, "redeem"),
    );
    return {
      id: `${card.id}`,
      state: "captured" as const,
      amount: money(req.amount, card.currency),
      balance: money(balance, card.currency),
    };
  }

  /** Two-phase redemption, first step: reserves `amount` of the card's balance. */
  async hold(
    actor: Actor,
    req: { cardNo: string; password: string; amount: number; requestKey: string },
    client: string | null,
    lang: Lang,
  ) {
    const me = await this.merchantOf(actor);
    // Only the brand's own cards exist for it: another brand's answers like an unknown number (no oracle).
    const card = await this.verify(req.cardNo, req.password, client, lang, me.id);
    const key = `${me.id}:${req.requestKey}`;
    return withTx(this.deps.db, async (tx) => {
      const c = await repo.lockCard(tx, card.id);
      if (!c) throw cardErr("onecard.cardUnknown");
      const first = await tx.selectFrom("onecard_holds").selectAll().where("request_key", "=", key).executeTakeFirst();
      if (first) {
        return {
          id: String(first.id),
          state: first.state,
          amount: money(first.amount, c.currency),
          balance: money(c.balance, c.currency),
        };
      }
      this.usable(c);
      if (c.balance - c.held < req.amount) throw conflict("onecard.insufficient");
      const h = await tx
        .insertInto("onecard_holds")
        .values({ card_id: c.id, amount: req.amount, request_key: key, created_at: this.now() })
        .returning("id")
        .executeTakeFirstOrThrow();
      await tx
        .updateTable("onecard_cards")
        .set({ held: c.held + req.amount })
        .where("id", "=", c.id)
        .execute();
      return {
        id: String(h.id),
        state: "held" as const,
        amount: money(req.amount, c.currency),
        balance: money(c.balance, c.currency),
      };
    });
  }

  /** Second step: capture (the money leaves the card) or release (the hold ends). Repeating it changes nothing. */
  async settleHold(actor: Actor, holdId: number, how: "capture" | "release") {
    const me = await this.merchantOf(actor);
    return withTx(this.deps.db, async (tx) => {
      const h0 = await tx.selectFrom("onecard_holds").selectAll().where("id", "=", holdId).executeTakeFirst();
      const c = h0 ? await repo.lockCard(tx, h0.card_id) : undefined;
      if (!h0 || !c || c.brander_id !== me.id) throw new AppError(CODE.NOT_FOUND, "onecard.holdNotFound");
      const h = await tx
        .selectFrom("onecard_holds")
        .selectAll()
        .where("id", "=", holdId)
        .forUpdate()
        .executeTakeFirstOrThrow();
      const target: "captured" | "released" = how === "capture" ? "captured" : "released";
      if (h.state === target) {
        return {
          id: String(h.id),
          state: h.state,
          amount: money(h.amount, c.currency),
          balance: money(c.balance, c.currency),
        };
      }
      if (h.state !== "held") throw conflict("onecard.holdDone");
      let balance = c.balance;
      if (how === "capture") {
        balance = c.balance - h.amount;
        await tx
          .updateTable("onecard_cards")
          .set({ held: c.held - h.amount, balance })
          .where("id", "=", c.id)
          .execute();
        await repo.addMove(tx, {
          cardId: c.id,
          kind: "capture",
          amount: -h.amount,
          balanceAfter: balance,
          requestKey: `hold:${h.id}`,
          note: "capture",
          now: this.now(),
        });
      } else {
        await tx
          .updateTable("onecard_cards")
          .set({ held: c.held - h.amount })
          .where("id", "=", c.id)
          .execute();
      }
      await tx
        .updateTable("onecard_holds")
        .set({ state: target, settled_at: this.now() })
        .where("id", "=", h.id)
        .execute();
      return {
        id: String(h.id),
        state: target,
        amount: money(h.amount, c.currency),
        balance: money(balance, c.currency),
      };
    });
  }

  /* ---------- end customer ---------- */

  async bag(customer: Customer): Promise<OcBagReply> {
    await this.expireGifts();
    const { rows } = await repo.cardPage(this.deps.db, { customerId: customer.id, offset: 0, limit: 1000 });
    const gifts = await this.deps.db
      .selectFrom("onecard_gifts as g")
      .innerJoin("merchants as m", "m.id", "g.purchaser_id")
      .selectAll("g")
      .select("m.name as from_name")
      .where("g.phone", "=", customer.phone)
      .where("g.state", "=", "sent")
      .orderBy("g.id", "desc")
      .execute();
    const now = this.now();
    return {
      cards: rows.map((r) => {
        const view = presentCard(r, true, this.deps.keys);
        return {
          ...view,
          state: effectiveState(r, now),
          productName: r.product_name,
          branderName: r.brander_name,
          rechargeAllowed: r.recharge_allowed,
          code: view.cardNo,
        };
      }),
      gifts: gifts.map((g) => ({ ...presentGift(g, false), fromName: g.from_name })),
    };
  }

  /** Claims a gift sent to the customer's phone: its cards go into the card bag, once. */
  async claimGift(customer: Customer, giftId: number): Promise<OcBagReply> {
    await this.claim(customer, giftId, (g) => g.phone === customer.phone);
    return this.bag(customer);
  }

  /** Claims a gift by its link: the first customer to open it, or only its phone's when it was sent to one. */
  async claimByLink(customer: Customer, token: string): Promise<OcBagReply> {
    const id = this.giftOfToken(token);
    if (id === undefined) throw new AppError(CODE.NOT_FOUND, "onecard.giftNotFound");
    await this.claim(customer, id, (g) => g.phone === null || g.phone === customer.phone);
    return this.bag(customer);
  }

  private async claim(
    customer: Customer,
    giftId: number,
    mayClaim: (g: { phone: string | null }) => boolean,
  ): Promise<void> {
    const now = this.now();
    await withTx(this.deps.db, async (tx) => {
      const g = await tx
        .selectFrom("onecard_gifts")
        .selectAll()
        .where("id", "=", giftId)
        .forUpdate()
        .executeTakeFirst();
      if (!g || !mayClaim(g)) throw new AppError(CODE.NOT_FOUND, "onecard.giftNotFound");
      if (g.state === "claimed") throw conflict("onecard.giftClaimed");
      if (g.state === "expired" || new Date(g.expires_at) <= now) throw conflict("onecard.giftExpired");
      await repo.lockCards(tx, g.card_ids);
      await tx
        .updateTable("onecard_cards")
        .set({ customer_id: customer.id })
        .where("id", "in", g.card_ids)
        .where("gift_id", "=", g.id)
        .execute();
      await tx
        .updateTable("onecard_gifts")
        .set({ state: "claimed", claimed_by: customer.id, claimed_at: now })
        .where("id", "=", g.id)
        .execute();
    });
  }

  /** Puts a card the customer holds (number and password) into their card bag (extract card). */
  async bind(customer: Customer, cardNo: string, password: string, client: string, lang: Lang): Promise<OcBagReply> {
    const card = await this.verify(cardNo, password, client, lang);
    await withTx(this.deps.db, async (tx) => {
      const c = await repo.lockCard(tx, card.id);
      if (!c) throw cardErr("onecard.cardUnknown");
      if (c.customer_id === customer.id) return;
      if (c.customer_id !== null) throw conflict("onecard.alreadyInBag");
      this.usable(c);
      if (c.gift_id !== null) throw conflict("onecard.unusable");
      await tx.updateTable("onecard_cards").set({ customer_id: customer.id }).where("id", "=", c.id).execute();
    });
    return this.bag(customer);
  }

  async moves(customer: Customer, q: { page: number; pageSize: number }): Promise<Page<OcMove>> {
    const { rows, total } = await repo.movePage(this.deps.db, customer.id, (q.page - 1) * q.pageSize, q.pageSize);
    return {
      list: rows.map((r) => ({
        id: String(r.id),
        cardNo: maskNo(this.deps.keys.unseal(r.sealed).number),
        kind: r.kind,
        amount: money(r.amount, r.currency),
        balanceAfter: money(r.balance_after, r.currency),
        note: r.note,
        createdAt: new Date(r.created_at).toISOString(),
      })),
      total,
      page: q.page,
      pageSize: q.pageSize,
    };
  }

  /**
   * Reset password, step one: a code to the customer's own phone, for a card in their card bag. A card
   * number alone texts nobody and reveals no phone: the caller must be the customer whose bag holds the
   * card (any other card answers like an unknown number), or know the current password (`resetPassword`).
   */
  async sendResetCode(customer: Customer, cardNo: string, lang: Lang): Promise<SendCodeReply> {
    await this.cardInBag(customer, cardNo);
    return this.deps.codes.send(customer.phone, lang);
  }

  /**
   * Reset password, step two: a new password, proved either by the code sent to the customer whose bag
   * holds the card, or by the card's current password (checked like any card check: per address and
   * per (card, address)). The lock and failures are cleared.
   */
  async resetPassword(
    req: { cardNo: string; password: string; smsCode?: string | undefined; currentPassword?: string | undefined },
    proof: { customer: Customer | null; client: string; lang: Lang },
  ): Promise<{ reset: true }> {
    let card: repo.CardRowDb;
    let codeId: number | undefined;
    if (req.currentPassword !== undefined) {
      card = await this.verify(req.cardNo, req.currentPassword, proof.client, proof.lang);
    } else {
      if (!proof.customer) throw loginExpired();
      if (req.smsCode === undefined) throw invalid("code.invalid", "smsCode");
      card = await this.cardInBag(proof.customer, req.cardNo);
      codeId = await this.deps.codes.check(proof.customer.phone, req.smsCode);
    }
    const now = this.now();
    await withTx(this.deps.db, async (tx) => {
      if (codeId !== undefined && !(await this.deps.codes.consume(tx, codeId, now))) {
        throw new AppError(CODE.CODE_INVALID, "code.invalid", {}, "smsCode");
      }
      const { number } = this.deps.keys.unseal(card.sealed);
      await tx
        .updateTable("onecard_cards")
        .set({
          pwd_hash: this.pwdHash(card.id, req.password),
          sealed: this.deps.keys.seal(number, req.password),
          wrong_attempts: 0,
          locked_until: null,
        })
        .where("id", "=", card.id)
        .execute();
      await tx.deleteFrom("onecard_card_failures").where("card_id", "=", card.id).execute();
      await audit(tx, {
        actorUserId: null,
        action: "onecard.resetPassword",
        subjectType: "onecard_card",
        subjectId: card.id,
      });
    });
    return { reset: true };
  }

  /** The card, when it is in this customer's bag; any other answers like an unknown number. */
  private async cardInBag(customer: Customer, cardNo: string): Promise<repo.CardRowDb> {
    const card = parseCardNumber(cardNo)
      ? await repo.cardByHash(this.deps.db, this.deps.keys.numberHash(cardNo))
      : undefined;
    if (!card || card.customer_id !== customer.id) throw cardErr("onecard.cardUnknown");
    return card;
  }

  checkInvariants(): Promise<string[]> {
    return repo.invariantProblems(this.deps.db);
  }
}

/* ---------- presenters ---------- */

function expiryOf(p: repo.ProductRow, from: Date): Date | null {
  if (p.validity_kind === "fixed" && p.valid_until) return new Date(`${calendarDay(p.valid_until)}T23:59:59+08:00`);
  if (p.validity_kind === "days" && p.valid_days) return new Date(from.getTime() + p.valid_days * DAY_MS);
  return null;
}

function effectiveState(c: { state: OnecardState; expires_at: Date | null }, now: Date): OnecardState {
  return c.state === "activated" && c.expires_at && new Date(c.expires_at) <= now ? "expired" : c.state;
}

function presentProduct(r: Awaited<ReturnType<typeof repo.productPage>>["rows"][number]): OcProduct {
  return {
    id: String(r.id),
    branderId: String(r.brander_id),
    branderName: r.brander_name,
    kind: r.kind,
    name: r.name,
    faceValue: money(r.face_value, r.currency),
    salePrice: money(r.sale_price, r.currency),
    named: r.named,
    validity: { kind: r.validity_kind, until: r.valid_until ? calendarDay(r.valid_until) : null, days: r.valid_days },
    rechargeAllowed: r.recharge_allowed,
    scope: r.scope,
    terms: r.terms,
    onSale: r.on_sale,
    stock: Number(r.stock ?? 0),
    issued: Number(r.issued ?? 0),
    createdAt: new Date(r.created_at).toISOString(),
  };
}

function presentBatch(b: Awaited<ReturnType<typeof repo.batchPage>>["rows"][number]): OcBatch {
  return {
    id: String(b.id),
    productId: String(b.product_id),
    productName: b.product_name,
    count: b.count,
    sold: Number(b.sold ?? 0),
    firstNo: cardNumber(b.id, 1),
    lastNo: cardNumber(b.id, b.count),
    createdAt: new Date(b.created_at).toISOString(),
  };
}

function presentCard(r: repo.CardListRow, holder: boolean, keys: CardKeys): OcCard {
  return {
    id: String(r.id),
    cardNo: holder ? keys.unseal(r.sealed).number : r.no_masked,
    productId: String(r.product_id),
    productName: r.product_name,
    kind: r.kind,
    state: r.state,
    faceValue: money(r.face_value, r.currency),
    balance: money(r.balance, r.currency),
    held: money(r.held, r.currency),
    saleId: r.sale_id === null ? null : String(r.sale_id),
    activatedAt: iso(r.activated_at),
    expiresAt: iso(r.expires_at),
    extractedAt: iso(r.extracted_at),
    inBag: r.customer_id !== null,
  };
}

function presentReturn(r: {
  id: number;
  count: number;
  amount: number;
  currency: repo.Currency;
  reason: string;
  created_at: Date;
}) {
  return {
    id: String(r.id),
    count: r.count,
    amount: money(r.amount, r.currency),
    reason: r.reason,
    createdAt: new Date(r.created_at).toISOString(),
  };
}

function presentGift(
  g: {
    id: number;
    phone: string | null;
    card_ids: number[];
    amount: number;
    currency: repo.Currency;
    message: string;
    state: "sent" | "claimed" | "expired";
    expires_at: Date;
    claimed_at: Date | null;
    created_at: Date;
  },
  maskPhone: boolean,
): OcGift {
  return {
    id: String(g.id),
    phone: g.phone === null ? null : maskPhone ? `${g.phone.slice(0, 3)}****${g.phone.slice(-4)}` : g.phone,
    link: null,
    packageName: null,
    cardCount: g.card_ids.length,
    amount: money(g.amount, g.currency),
    message: g.message,
    state: g.state,
    expiresAt: new Date(g.expires_at).toISOString(),
    claimedAt: iso(g.claimed_at),
    createdAt: new Date(g.created_at).toISOString(),
  };
}
