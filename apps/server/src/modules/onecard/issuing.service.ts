import {
  ledgerReason,
  CODE,
  ONECARD_LIMITS,
  type OcBatch,
  type OcCard,
  type OcProduct,
  type OcProductReq,
  type OnecardState,
  type Page,
} from "@tessera/contracts";
import { withTx } from "../../db/tx";
import type { Actor } from "../../platform/auth/actor";
import { audit } from "../../platform/audit";
import { AppError, conflict, invalid } from "../../platform/http/errors";
import { post, type Posting } from "../ledger";
import { merchantOfActor, type MerchantRow } from "../merchants";
import { cardNumber, maskNo, newCardPassword, parseCardNumber, passwordHash } from "./cardno";
import * as issuing from "./issuing.repo";
import { calendarDay, DAY_MS, expiryOf, money, presentBatch, presentCard, presentProduct } from "./presenter";
import * as repo from "./repo";
import type { OnecardDeps } from "./service";
import { pageWindow } from "../../db/paginate";

/** Cards written per statement when a batch is issued. */
const ISSUE_CHUNK = 5000;

/**
 * Issuing: a brand defines card products and issues batches of cards (numbers in sequence with a check
 * digit, random passwords, sealed); a purchaser activates the cards it bought (the prices leave the order
 * escrow for the brands' income, `onecard:activation:<id>`; each card is loaded with its face value).
 */
export class IssuingService {
  constructor(private readonly deps: OnecardDeps) {}

  private now(): Date {
    return this.deps.clock.now();
  }
  private merchantOf(actor: Actor): Promise<MerchantRow> {
    return merchantOfActor(this.deps.db, actor);
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
      const p = await issuing.lockProductOfBrand(tx, id, brand.id);
      if (!p) throw new AppError(CODE.NOT_FOUND, "onecard.productNotFound");
      const issued = await issuing.anyCardOfProduct(tx, id);
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
      await issuing.updateProduct(tx, id, {
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
      });
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
      const productId = await issuing.insertProduct(tx, {
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
      });
      await audit(tx, {
        actorUserId: actor.userId,
        action: "onecard.product.create",
        subjectType: "onecard_product",
        subjectId: productId,
      });
      return productId;
    });
    return this.productView(id, brand.id);
  }

  async setOnSale(actor: Actor, id: number, onSale: boolean): Promise<OcProduct> {
    const brand = await this.merchantOf(actor);
    const found = await issuing.setProductOnSale(this.deps.db, id, brand.id, onSale);
    if (!found) throw new AppError(CODE.NOT_FOUND, "onecard.productNotFound");
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
      ...pageWindow(q),
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
      const madeId = await issuing.insertBatch(tx, {
        product_id: product.id,
        brander_id: brand.id,
        count: req.count,
        request_key: req.requestKey,
        created_by: actor.userId,
        created_at: now,
      });
      if (madeId === undefined) return issuing.batchIdByKey(tx, brand.id, req.requestKey);
      const made = { id: madeId };
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
        const ids = await issuing.nextCardIds(tx, end - start);
        const cards: repo.NewCard[] = [];
        for (let serial = start; serial < end; serial++) {
          const id = Number(ids[serial - start]);
          const no = cardNumber(made.id, serial);
          const password = newCardPassword();
          cards.push({
            id,
            serial,
            noHash: keys.numberHash(no),
            noMasked: maskNo(no),
            sealed: keys.seal(no, password),
            pwdHash: passwordHash(this.deps.pwdKey, id, password),
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
    const { offset, limit } = pageWindow(q);
    const { rows, total } = await repo.batchPage(
      this.deps.db,
      brand.id,
      offset,
      limit,
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
      ...pageWindow(q),
    });
    return { list: rows.map((r) => presentCard(r, false, this.deps.keys)), total, page: q.page, pageSize: q.pageSize };
  }

  /* ---------- purchaser: activate ---------- */

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
    const replay = await issuing.activationByKey(this.deps.db, me.id, req.requestKey);
    if (replay) return { id: String(replay.id), count: replay.count, amount: money(replay.amount, me.currency) };
    const ids = await this.cardIdsFor(me, req);
    if (ids.length === 0) throw invalid("onecard.selectCards");
    const now = this.now();
    return withTx(this.deps.db, async (tx) => {
      const actId = await issuing.insertActivation(tx, {
        purchaser_id: me.id,
        count: ids.length,
        amount: 0,
        request_key: req.requestKey,
        created_by: actor.userId,
        created_at: now,
      });
      if (actId === undefined) {
        const first = await issuing.activationByKeyOrThrow(tx, me.id, req.requestKey);
        return { id: String(first.id), count: first.count, amount: money(first.amount, me.currency) };
      }
      const act = { id: actId };
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
        await issuing.activateCard(tx, c.id, { balance: c.face_value, now, expires, activationId: act.id });
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
      await issuing.setActivationAmount(tx, act.id, total);
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
    const cards = await issuing.cardsToPreview(this.deps.db, ids);
    if (cards.length !== ids.length || cards.some((c) => c.owner_id !== me.id)) {
      throw new AppError(CODE.FORBIDDEN, "onecard.notYours");
    }
    if (cards.some((c) => c.state !== "sold")) throw conflict("onecard.activateMixed");
    const amount = cards.reduce((s, c) => s + (c.sale_price ?? 0), 0);
    const faceValue = cards.reduce((s, c) => s + c.face_value, 0);
    return { count: ids.length, amount: money(amount, me.currency), faceValue: money(faceValue, me.currency) };
  }
}
