import {
  CODE,
  ONECARD_LIMITS,
  type OcCard,
  type OcProduct,
  type OcSale,
  type OnecardState,
  type Page,
} from "@tessera/contracts";
import { ledgerReason } from "@tessera/contracts";
import { sql, type Expression, type RawBuilder } from "kysely";
import { withTx, type Tx } from "../../db/tx";
import type { Actor } from "../../platform/auth/actor";
import { audit } from "../../platform/audit";
import { platformDay } from "../../platform/clock";
import { AppError, conflict } from "../../platform/http/errors";
import { post } from "../ledger";
import { merchantOfActor, type MerchantRow } from "../merchants";
import { mayBuyCondition } from "../docking";
import { money, presentCard, presentProduct, presentReturn } from "./presenter";
import { cardsToPreview } from "./issuing.repo";
import * as repo from "./repo";
import * as sales from "./sales.repo";
import type { OnecardDeps } from "./service";
import { pageWindow } from "../../db/paginate";

/**
 * Card sales: purchasers buy cards with SUP money (into the platform's order escrow, ledger key
 * `onecard:sale:<id>`), list them, return unactivated ones (`onecard:return:<id>`, back to SUP), extract
 * their passwords once, and read their sales report.
 */
export class SalesService {
  constructor(private readonly deps: OnecardDeps) {}

  private now(): Date {
    return this.deps.clock.now();
  }
  private merchantOf(actor: Actor): Promise<MerchantRow> {
    return merchantOfActor(this.deps.db, actor);
  }

  /** Purchasing's rule of who may buy from whom, on a brand column; a card product has no per-goods whitelist. */
  buyableBy(purchaserId: number): (brander: Expression<unknown>) => RawBuilder<boolean> {
    const day = platformDay(this.now());
    return (brander) => mayBuyCondition(purchaserId, day, brander, 0);
  }

  private async mayBuyFrom(tx: Tx, purchaserId: number, branderId: number): Promise<boolean> {
    return sales.holds(tx, this.buyableBy(purchaserId)(sql.lit(branderId)));
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
      ...pageWindow(q),
    });
    return { list: rows.map(presentProduct), total, page: q.page, pageSize: q.pageSize };
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
      const first = await sales.saleByKey(tx, me.id, req.requestKey);
      if (first) return first.id;
      if (!product.on_sale) throw conflict("onecard.productOff");
      if (!(await this.mayBuyFrom(tx, me.id, product.brander_id))) throw conflict("docking.notDocked", "productId");
      if (amount >= ONECARD_LIMITS.realNamePurchase && me.real_name_state !== "verified") {
        throw new AppError(CODE.CONFLICT, "onecard.realNameRequired", {
          amount: ONECARD_LIMITS.realNamePurchase / 100,
        });
      }
      const saleNo = await sales.insertSale(tx, {
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
      });
      if (saleNo === undefined) {
        const again = await sales.saleByKeyOrThrow(tx, me.id, req.requestKey);
        return again.id;
      }
      const sale = { id: saleNo };
      const taken = await sales.takeCards(tx, {
        productId: product.id,
        quantity: req.quantity,
        ownerId: me.id,
        saleId: sale.id,
        salePrice: product.sale_price,
      });
      if (taken.length < req.quantity) {
        const left = await sales.stockLeft(tx, product.id);
        throw new AppError(CODE.CONFLICT, "onecard.stockShort", { left: left + taken.length });
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
    const { offset, limit } = pageWindow(q);
    const { rows, total } = await sales.salePage(this.deps.db, me.id, offset, limit, q.id);
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
      total,
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
      ...pageWindow(q),
    });
    return { list: rows.map((r) => presentCard(r, false, this.deps.keys)), total, page: q.page, pageSize: q.pageSize };
  }

  /** A purchaser looks one of its cards up by number (sale/oneCardQuery). */
  async lookup(actor: Actor, cardNo: string): Promise<OcCard> {
    const page = await this.cards(actor, { page: 1, pageSize: 20, cardNo });
    const card = page.list[0];
    if (!card) throw new AppError(CODE.NOT_FOUND, "onecard.cardUnknown");
    return card;
  }

  /* ---------- purchaser: return, extract, report ---------- */

  /** Returns unactivated cards: their prices go back from the escrow to SUP; the cards are void for good. */
  async returnCards(actor: Actor, req: { cardIds: string[]; reason: string; requestKey: string }) {
    const me = await this.merchantOf(actor);
    const ids = [...new Set(req.cardIds.map(Number))].sort((a, b) => a - b);
    const now = this.now();
    const id = await withTx(this.deps.db, async (tx) => {
      const first = await sales.returnByKey(tx, me.id, req.requestKey);
      if (first) return first.id;
      const cards = await repo.lockCards(tx, ids);
      if (cards.length !== ids.length || cards.some((c) => c.owner_id !== me.id)) {
        throw new AppError(CODE.FORBIDDEN, "onecard.notYours");
      }
      if (cards.some((c) => c.state !== "sold")) throw conflict("onecard.returnActivated");
      const amount = cards.reduce((s, c) => s + (c.sale_price ?? 0), 0);
      const retId = await sales.insertReturn(tx, {
        purchaser_id: me.id,
        count: ids.length,
        amount,
        currency: me.currency,
        reason: req.reason,
        request_key: req.requestKey,
        created_by: actor.userId,
        created_at: now,
      });
      const ret = { id: retId };
      await sales.markReturned(tx, ids, ret.id);
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
    const r = await sales.returnById(this.deps.db, id);
    return presentReturn(r);
  }

  /**
   * What returning these cards would do, shown before the purchaser confirms it (issue 37): the cards and
   * the prices paid for them, which come back from the escrow to SUP. The same checks as `returnCards`,
   * read without locks; nothing changes.
   */
  async returnPreview(actor: Actor, req: { cardIds: string[] }) {
    const me = await this.merchantOf(actor);
    const ids = [...new Set(req.cardIds.map(Number))];
    const cards = await cardsToPreview(this.deps.db, ids);
    if (cards.length !== ids.length || cards.some((c) => c.owner_id !== me.id)) {
      throw new AppError(CODE.FORBIDDEN, "onecard.notYours");
    }
    if (cards.some((c) => c.state !== "sold")) throw conflict("onecard.returnActivated");
    const amount = cards.reduce((s, c) => s + (c.sale_price ?? 0), 0);
    return { count: ids.length, amount: money(amount, me.currency) };
  }

  async returns(actor: Actor, q: { page: number; pageSize: number }) {
    const me = await this.merchantOf(actor);
    const { offset, limit } = pageWindow(q);
    const { rows, total } = await sales.returnPage(this.deps.db, me.id, offset, limit);
    return { list: rows.map(presentReturn), total, page: q.page, pageSize: q.pageSize };
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
      await sales.markExtracted(tx, ids, now);
      const ex = {
        id: await sales.insertExtraction(tx, {
          purchaser_id: me.id,
          card_ids: ids,
          created_by: actor.userId,
          created_at: now,
        }),
      };
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
    const { offset, limit } = pageWindow(q);
    const { rows, total } = await sales.extractionPage(this.deps.db, me.id, offset, limit);
    return {
      list: rows.map((r) => ({
        id: String(r.id),
        count: r.card_ids.length,
        userEmail: r.email,
        createdAt: new Date(r.created_at).toISOString(),
      })),
      total,
      page: q.page,
      pageSize: q.pageSize,
    };
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
    const rows = await sales.reportRows(this.deps.db, me.id, unit, from, to);
    const out = await sales.outstanding(this.deps.db, me.id);
    const c = me.currency;
    return {
      rows: rows.map((r) => ({
        period: r.period,
        soldCount: Number(r.sold_count),
        soldAmount: money(Number(r.sold_amount), c),
        activatedCount: Number(r.activated_count),
        activatedValue: money(Number(r.activated_value), c),
        returnedCount: Number(r.returned_count),
        returnedAmount: money(Number(r.returned_amount), c),
        redeemed: money(Number(r.redeemed), c),
      })),
      outstanding: money(Number(out?.outstanding ?? 0), c),
      heldCards: Number(out?.n ?? 0),
    };
  }
}
