import { createHash } from "node:crypto";
import {
  CARD_BUSINESS_TYPES,
  CODE,
  MALL_HIGH_PRICE_FACTOR,
  MALL_SMS_PACKAGES,
  SELECTION_BUSINESS_TYPES,
  type BusinessType,
  type CheckoutReq,
  type GiftBag,
  type GiftBagReq,
  type Lang,
  type MallBagCode,
  type MallOrder,
  type MallSettings,
  type MallSettingsReq,
  type MallTesters,
  type Merchandise,
  type MerchandiseQuery,
  type OrderReq,
  type Page,
  type PurchaseOrder,
  type SelfGoods,
  type SelfGoodsReq,
  type SendCodeReply,
  type SmsSummary,
  type Storefront,
  type StoreGoods,
  isMessageKey,
  renderMessage,
} from "@tessera/contracts";
import { sql } from "kysely";
import { isUniqueViolation, withTx, type Db, type Tx } from "../../db/tx";
import type { Actor } from "../../platform/auth/actor";
import { tenantOf } from "../../platform/auth/guard";
import { audit } from "../../platform/audit";
import type { Clock } from "../../platform/clock";
import { AppError, conflict, invalid } from "../../platform/http/errors";
import { post, postingPart } from "../ledger";
import type { MallAppearance } from "../miniprogram";
import { getMerchant } from "../merchants";
import { takeBackHandedOnCodes } from "../purchasing";
import { cardOwner, creditCard, customerCards, customerIdByPhone, phonesOf, type Customer } from "../onecard";
import { buyerStock, buyerStockUpTo, sealedCodes, takeBuyerCodes, type CardKeys } from "../supply";
import { moneyText } from "../../platform/money-text";
import { moneyAccounts, type PaymentsAdapter } from "../../platform/payments";
import * as repo from "./repo";

/** What the miniprogram module offers: the published (or experience) mall config of an app id. */
export type { MallAppearance };
export type MallAppearanceSource = (appId: string, version: "beta" | "release") => Promise<MallAppearance | null>;

/** The mall a customer call is for (headers `v`, app id, seller id; the private code when the mall has one). */
export interface MallContext {
  appearance: MallAppearance;
  privateCode: string | undefined;
  /** The experience version asked for by a non-tester with nothing released: only the login is served. */
  testersOnly?: boolean;
}

/** What a storefront call is for: the beta mall's login and storefront answer non-testers, nothing else does. */
export type MallCallPurpose = "storefront" | "login" | "shop";

export interface MallDeps {
  db: Db;
  clock: Clock;
  keys: CardKeys;
  appearance: MallAppearanceSource;
  catalog: {
    offers(
      buyer: { id: number; version: "domestic" | "international" },
      q: MerchandiseQuery,
    ): Promise<Page<Merchandise>>;
    goods(ids: number[]): Promise<Map<number, Merchandise>>;
  };
  purchasing: {
    place(merchantId: number, req: OrderReq): Promise<PurchaseOrder>;
    find(merchantId: number, orderNo: string): Promise<PurchaseOrder | undefined>;
  };
  /** Debits a one-card card under its lock, once per request key. */
  debitCard(tx: Tx, cardId: number, amount: number, requestKey: string, note: string): Promise<unknown>;
  /** Sends the customer-login code (accounts' SMS codes). */
  sendLoginCode(phone: string, lang: Lang): Promise<SendCodeReply>;
  /** The phone of the customer a token belongs to (null: no such live session). */
  customerPhone(token: string): Promise<string | null>;
  payments: PaymentsAdapter;
  log: { warn(obj: object, msg: string): void };
}

const CARD_TYPES = new Set<BusinessType>(CARD_BUSINESS_TYPES);
const DIRECT_TYPES = new Set<BusinessType>(SELECTION_BUSINESS_TYPES.direct);
const deliveryOf = (t: BusinessType): "code" | "topup" | undefined =>
  CARD_TYPES.has(t) ? "code" : DIRECT_TYPES.has(t) ? "topup" : undefined;
const money = (amount: number, currency: string) => ({ amount, currency: currency as "CNY" | "USD" | "HKD" });
const iso = (d: Date | string) => new Date(d).toISOString();
const maskNumber = (s: string) =>
  s.length <= 8 ? `${s.slice(0, 2)}****` : `${s.slice(0, 4)}${"*".repeat(Math.max(4, s.length - 8))}${s.slice(-4)}`;
const notFound = (key: "mall.goodsNotFound" | "mall.bagNotFound" | "mall.orderNotFound" | "mall.unknown") =>
  new AppError(CODE.NOT_FOUND, key);
/** Thrown inside the order's transaction when another order took the codes meanwhile: roll back and buy again. */
class Shortage extends Error {}

/**
 * How long a customer call may use what it read of rarely changing rows (a mall's released appearance,
 * its private code and brand show, a catalogue goods' name and kind) before reading them again: every
 * storefront call needs them, and 200 customers ask many times a second. A release shows within this
 * time; the merchant's own settings change clears its entry at once (in this process).
 */
const SHORT_CACHE_MS = 3_000;

/** Values by key for a few seconds, the load itself shared by concurrent callers; misses (`keep` false) and failures are not kept. */
class ShortCache<K, V> {
  private readonly entries = new Map<K, { until: number; value: Promise<V> }>();
  constructor(
    private readonly ms: number,
    private readonly max = 10_000,
  ) {}
  get(key: K, load: () => Promise<V>, keep: (v: V) => boolean = () => true): Promise<V> {
    const now = performance.now();
    const hit = this.entries.get(key);
    if (hit && hit.until > now) return hit.value;
    if (this.entries.size >= this.max) this.entries.clear();
    const value = load();
    this.entries.set(key, { until: now + this.ms, value });
    const drop = () => {
      if (this.entries.get(key)?.value === value) this.entries.delete(key);
    };
    value.then((v) => (keep(v) ? undefined : drop()), drop);
    return value;
  }
  delete(key: K): void {
    this.entries.delete(key);
  }
}

/** A delivered code's sealed credentials, masked number and expiry day (supply's buyer stock). */
type SealedCode = Awaited<ReturnType<typeof sealedCodes>>[number];
type OrderRow = {
  id: number;
  order_no: string;
  app_id: string;
  customer_id: number;
  state: MallOrder["state"];
  pay_method: MallOrder["payMethod"];
  amount: number;
  currency: string;
  lines: { kind: "goods" | "bag"; refId: number; name: string; quantity: number; unitPrice: number }[];
  top_up_account: string | null;
  fail_reason: string | null;
  refund_reason: string | null;
  created_at: Date | string;
  refunded_at: Date | string | null;
};
type DeliveryRow = {
  id: number;
  order_id: number;
  name: string;
  kind: "code" | "topup";
  state: "processing" | "success" | "failed";
  card_id: number | null;
  account: string | null;
  expires_at: Date | string | null;
};

interface Unit {
  selfId: number;
  goodsId: number;
  name: string;
  delivery: "code" | "topup";
  count: number;
  expiresDays: number | null;
}

/**
 * A price far above what the goods is worth (its face value, or its cost when it has none) is a typo or
 * an attempt to inflate sales: it needs the merchant's explicit confirmation. Returns the reference the
 * price was compared with when it is high and confirmed (to be logged), null when it is not high.
 */
function highPrice(price: number, g: Merchandise, confirmed: boolean): number | null {
  const reference = g.faceValue > 0 ? g.faceValue : g.price;
  if (reference <= 0 || price <= reference * MALL_HIGH_PRICE_FACTOR) return null;
  if (!confirmed) {
    throw new AppError(
      CODE.CONFLICT,
      "mall.priceFarAbove",
      { price: moneyText(price, g.currency), reference: moneyText(reference, g.currency) },
      "confirmHighPrice",
    );
  }
  return reference;
}

export class MallService {
  private readonly released = new ShortCache<string, MallAppearance | null>(SHORT_CACHE_MS);
  private readonly storeSettings = new ShortCache<number, Awaited<ReturnType<MallService["settingsRow"]>>>(
    SHORT_CACHE_MS,
  );
  private readonly goodsSeen = new ShortCache<number, Merchandise | undefined>(SHORT_CACHE_MS);
  constructor(private readonly deps: MallDeps) {}
  private now(): Date {
    return this.deps.clock.now();
  }

  /* ---------- the mall a call is for ---------- */

  /** `sellerOptional`: the storefront call, which tells the page its seller id. */
  async resolve(
    h: {
      v: string | undefined;
      appId: string | undefined;
      sellerId: string | undefined;
      version: string | undefined;
      privateCode: string | undefined;
      customerToken?: string | undefined;
    },
    sellerOptional = false,
    purpose: MallCallPurpose = "shop",
  ): Promise<MallContext> {
    if (h.v !== "1" || !h.appId || (!h.sellerId && !sellerOptional) || h.appId.length > 64) {
      throw new AppError(CODE.INVALID_PARAMETER, "mall.headersMissing");
    }
    const { appearance, testersOnly } =
      h.version === "beta"
        ? await this.betaFor(h.appId, h.customerToken, purpose)
        : { appearance: await this.releasedAppearance(h.appId), testersOnly: false };
    if (!appearance || (h.sellerId !== undefined && String(appearance.merchantId) !== h.sellerId)) {
      throw notFound("mall.unknown");
    }
    return { appearance, privateCode: h.privateCode, testersOnly };
  }

  /**
   * The experience version is for the merchant's named testers, as a mini-program's experience version is
   * for its experience members: a mall that never passed review must not sell to the public. Anyone else
   * gets the released version, or, with none released, the login only (a tester signs in to see it).
   */
  private async betaFor(
    appId: string,
    customerToken: string | undefined,
    purpose: MallCallPurpose,
  ): Promise<{ appearance: MallAppearance | null; testersOnly: boolean }> {
    const beta = await this.deps.appearance(appId, "beta");
    if (!beta) return { appearance: null, testersOnly: false };
    const phone = customerToken ? await this.deps.customerPhone(customerToken) : null;
    if (phone !== null && (await repo.isTester(this.deps.db, beta.merchantId, phone))) {
      return { appearance: beta, testersOnly: false };
    }
    const released = await this.releasedAppearance(appId);
    if (released) return { appearance: released, testersOnly: false };
    if (purpose === "shop") throw new AppError(CODE.FORBIDDEN, "mall.testersOnly");
    return { appearance: beta, testersOnly: true };
  }

  /** The phones that may open the experience version of the merchant's mall. */
  async testers(actor: Actor): Promise<MallTesters> {
    return { phones: await repo.testers(this.deps.db, tenantOf(actor)) };
  }

  async saveTesters(actor: Actor, phones: string[]): Promise<MallTesters> {
    const merchantId = tenantOf(actor);
    const unique = [...new Set(phones)];
    await withTx(this.deps.db, async (tx) => {
      await repo.replaceTesters(tx, merchantId, unique);
      await audit(tx, {
        actorUserId: actor.userId,
        action: "mall.testers.save",
        subjectType: "merchant",
        subjectId: merchantId,
        detail: { count: unique.length },
      });
    });
    return this.testers(actor);
  }

  /** The released appearance of an app id, kept a few seconds (an app id not released yet is asked again each time). */
  private releasedAppearance(appId: string): Promise<MallAppearance | null> {
    return this.released.get(
      appId,
      () => this.deps.appearance(appId, "release"),
      (a) => a !== null,
    );
  }

  private async settingsRow(merchantId: number) {
    return this.deps.db
      .selectFrom("mall_settings")
      .selectAll()
      .where("merchant_id", "=", merchantId)
      .executeTakeFirst();
  }

  /** The settings as the storefront's calls see them (kept a few seconds; the merchant's save clears them). */
  private storeSettingsRow(merchantId: number) {
    return this.storeSettings.get(merchantId, () => this.settingsRow(merchantId));
  }

  /** Catalogue goods by id for the storefront and checkout (name, brand, kind, face value), kept a few seconds each. */
  private async goodsOf(ids: number[]): Promise<Map<number, Merchandise>> {
    const wanted = [...new Set(ids)];
    // The goods not kept (or kept no more) are read in one call, shared by every id it reads.
    let batch: Promise<Map<number, Merchandise>> | undefined;
    const missing: number[] = [];
    const got = wanted.map((id) =>
      this.goodsSeen.get(id, () => {
        missing.push(id);
        batch ??= Promise.resolve().then(() => this.deps.catalog.goods(missing));
        return batch.then((m) => m.get(id));
      }),
    );
    const out = new Map<number, Merchandise>();
    for (const [i, g] of (await Promise.all(got)).entries()) {
      const id = wanted[i];
      if (g && id !== undefined) out.set(id, g);
    }
    return out;
  }

  /** Customer calls other than the storefront itself need the private code of a private mall. */
  async unlocked(m: MallContext): Promise<void> {
    const s = await this.storeSettingsRow(m.appearance.merchantId);
    if (s?.private_code && s.private_code !== m.privateCode) {
      throw new AppError(CODE.FORBIDDEN, "mall.privateCodeWrong");
    }
  }

  async storefront(m: MallContext): Promise<Storefront> {
    const a = m.appearance;
    const s = await this.storeSettingsRow(a.merchantId);
    return {
      appId: a.appId,
      name: a.name,
      platform: a.platform,
      template: a.template,
      theme: a.theme,
      navMenus: a.navMenus,
      bottomMenus: a.bottomMenus,
      customerService: a.customerService,
      sellerId: String(a.merchantId),
      testersOnly: m.testersOnly === true,
      locked: Boolean(s?.private_code) && s?.private_code !== m.privateCode,
      brand: { title: s?.brand_title ?? "", intro: s?.brand_intro ?? "", image: s?.brand_image ?? "" },
      allowTopupAccountChange: a.allowTopupAccountChange,
      payOnPlatform: a.payOnPlatform,
    };
  }

  /* ---------- SelfSupport ---------- */

  private async buyer(merchantId: number) {
    const m = await getMerchant(this.deps.db, merchantId);
    if (!m) throw new AppError(CODE.FORBIDDEN, "auth.forbidden");
    return m;
  }

  async candidates(actor: Actor, q: { page: number; pageSize: number; keyword?: string | undefined }) {
    const me = await this.buyer(tenantOf(actor));
    const [cards, direct] = await Promise.all(
      (["card", "direct"] as const).map((type) =>
        this.deps.catalog.offers(
          { id: me.id, version: me.version },
          { page: 1, pageSize: 1000, type, keyword: q.keyword, sort: "recommend" },
        ),
      ),
    );
    const all = [...(cards?.list ?? []), ...(direct?.list ?? [])].filter((g) => g.currency === me.currency);
    const inMall = new Set(
      (
        await this.deps.db.selectFrom("mall_self_goods").select("goods_id").where("merchant_id", "=", me.id).execute()
      ).map((r) => r.goods_id),
    );
    const list = all.slice((q.page - 1) * q.pageSize, q.page * q.pageSize).map((g) => ({
      goodsId: String(g.id),
      name: g.name,
      brandName: g.brandName,
      businessType: g.businessType,
      faceValue: money(g.faceValue, g.currency),
      cost: money(g.price, g.currency),
      inMall: inMall.has(g.id),
    }));
    return { list, total: all.length, page: q.page, pageSize: q.pageSize };
  }

  async addSelf(actor: Actor, req: SelfGoodsReq): Promise<SelfGoods> {
    const me = await this.buyer(tenantOf(actor));
    const g = (await this.deps.catalog.goods([Number(req.goodsId)])).get(Number(req.goodsId));
    if (!g || !deliveryOf(g.businessType)) throw invalid("mall.goodsNotFound", "goodsId");
    const offered = await this.deps.catalog.offers(
      { id: me.id, version: me.version },
      {
        page: 1,
        pageSize: 1000,
        type: CARD_TYPES.has(g.businessType) ? "card" : "direct",
        keyword: g.name,
        sort: "recommend",
      },
    );
    if (!offered.list.some((o) => o.id === g.id) || g.currency !== me.currency) {
      throw conflict("mall.goodsNotBuyable", "goodsId");
    }
    const high = highPrice(req.price, g, req.confirmHighPrice);
    const id = await withTx(this.deps.db, async (tx) => {
      const row = await tx
        .insertInto("mall_self_goods")
        .values({
          merchant_id: me.id,
          goods_id: g.id,
          name: req.name ?? g.name,
          price: req.price,
          currency: g.currency,
          on_sale: req.onSale,
          sort: req.sort,
          updated_at: this.now(),
        })
        .onConflict((oc) => oc.columns(["merchant_id", "goods_id"]).doNothing())
        .returning("id")
        .executeTakeFirst();
      if (!row) throw conflict("mall.alreadyInMall", "goodsId");
      await audit(tx, {
        actorUserId: actor.userId,
        action: "mall.self.add",
        subjectType: "mall_self_goods",
        subjectId: row.id,
        detail: { goodsId: g.id, price: req.price },
      });
      if (high) {
        await audit(tx, {
          actorUserId: actor.userId,
          action: "mall.self.highPrice",
          subjectType: "mall_self_goods",
          subjectId: row.id,
          detail: { goodsId: g.id, price: req.price, reference: high },
        });
      }
      return row.id;
    });
    return this.selfOne(me.id, id);
  }

  async updateSelf(
    actor: Actor,
    id: number,
    req: {
      price?: number | undefined;
      name?: string | undefined;
      onSale?: boolean | undefined;
      sort?: number | undefined;
      confirmHighPrice?: boolean | undefined;
    },
  ): Promise<SelfGoods> {
    const merchantId = tenantOf(actor);
    const current = await this.deps.db
      .selectFrom("mall_self_goods")
      .select(["goods_id"])
      .where("id", "=", id)
      .where("merchant_id", "=", merchantId)
      .executeTakeFirst();
    if (!current) throw notFound("mall.goodsNotFound");
    const g =
      req.price === undefined ? undefined : (await this.deps.catalog.goods([current.goods_id])).get(current.goods_id);
    const high = req.price !== undefined && g ? highPrice(req.price, g, req.confirmHighPrice === true) : null;
    await withTx(this.deps.db, async (tx) => {
      const r = await tx
        .updateTable("mall_self_goods")
        .set({
          ...(req.price !== undefined && { price: req.price }),
          ...(req.name !== undefined && { name: req.name }),
          ...(req.onSale !== undefined && { on_sale: req.onSale }),
          ...(req.sort !== undefined && { sort: req.sort }),
          updated_at: this.now(),
        })
        .where("id", "=", id)
        .where("merchant_id", "=", merchantId)
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) === 0) throw notFound("mall.goodsNotFound");
      if (high) {
        await audit(tx, {
          actorUserId: actor.userId,
          action: "mall.self.highPrice",
          subjectType: "mall_self_goods",
          subjectId: id,
          detail: { goodsId: current.goods_id, price: req.price, reference: high },
        });
      }
    });
    return this.selfOne(merchantId, id);
  }

  private async selfOne(merchantId: number, id: number): Promise<SelfGoods> {
    const [one] = (await this.selfList(merchantId, { page: 1, pageSize: 1, id })).list;
    if (!one) throw notFound("mall.goodsNotFound");
    return one;
  }

  selfGoods(
    actor: Actor,
    q: { page: number; pageSize: number; keyword?: string | undefined; onSale?: "true" | "false" | undefined },
  ): Promise<Page<SelfGoods>> {
    return this.selfList(tenantOf(actor), q);
  }

  private async selfList(
    merchantId: number,
    q: {
      page: number;
      pageSize: number;
      keyword?: string | undefined;
      onSale?: "true" | "false" | undefined;
      id?: number;
    },
  ): Promise<Page<SelfGoods>> {
    let base = this.deps.db.selectFrom("mall_self_goods").where("merchant_id", "=", merchantId);
    if (q.id !== undefined) base = base.where("id", "=", q.id);
    if (q.onSale) base = base.where("on_sale", "=", q.onSale === "true");
    if (q.keyword) base = base.where("name", "ilike", `%${q.keyword.replace(/[%_\\]/g, (c) => `\\${c}`)}%`);
    const [rows, count] = await Promise.all([
      base
        .selectAll()
        .orderBy("sort")
        .orderBy("id", "desc")
        .offset((q.page - 1) * q.pageSize)
        .limit(q.pageSize)
        .execute(),
      base.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
    ]);
    const goods = await this.deps.catalog.goods(rows.map((r) => r.goods_id));
    const stock = await buyerStock(
      this.deps.db,
      merchantId,
      rows.map((r) => r.goods_id),
    );
    const me = await getMerchant(this.deps.db, merchantId);
    const prices = me ? await this.costs(me, [...goods.values()]) : new Map<number, number>();
    return {
      list: rows.map((r) => {
        const g = goods.get(r.goods_id);
        return {
          id: String(r.id),
          goodsId: String(r.goods_id),
          name: r.name,
          brandName: g?.brandName ?? "",
          businessType: g?.businessType ?? "",
          delivery: (g && deliveryOf(g.businessType)) ?? "code",
          faceValue: money(g?.faceValue ?? 0, r.currency),
          price: money(r.price, r.currency),
          cost: money(prices.get(r.goods_id) ?? g?.price ?? 0, r.currency),
          ownStock: stock.get(r.goods_id) ?? 0,
          onSale: r.on_sale,
          sort: r.sort,
          createdAt: iso(r.created_at),
        };
      }),
      total: Number(count.n),
      page: q.page,
      pageSize: q.pageSize,
    };
  }

  /** The merchant's own purchase prices (an approved purchase application's price first). */
  private async costs(
    me: { id: number; version: "domestic" | "international" },
    goods: Merchandise[],
  ): Promise<Map<number, number>> {
    const out = new Map<number, number>();
    for (const g of goods) {
      const type = CARD_TYPES.has(g.businessType) ? "card" : "direct";
      const page = await this.deps.catalog.offers(me, {
        page: 1,
        pageSize: 20,
        type,
        keyword: g.name,
        sort: "recommend",
      });
      const o = page.list.find((x) => x.id === g.id);
      if (o) out.set(g.id, o.price);
    }
    return out;
  }

  /* ---------- EquityGiftBag ---------- */

  async saveBag(actor: Actor, id: number | null, req: GiftBagReq): Promise<GiftBag> {
    const merchantId = tenantOf(actor);
    const selfIds = req.items.map((i) => Number(i.selfGoodsId));
    const selves = await this.deps.db
      .selectFrom("mall_self_goods")
      .select(["id", "currency"])
      .where("merchant_id", "=", merchantId)
      .where("id", "in", selfIds)
      .execute();
    if (selves.length !== new Set(selfIds).size) throw invalid("mall.goodsNotFound", "items");
    const currency = selves[0]?.currency;
    if (!currency || selves.some((s) => s.currency !== currency)) throw invalid("mall.currencyMismatch", "items");
    const bagId = await withTx(this.deps.db, async (tx) => {
      const values = {
        name: req.name,
        description: req.description,
        price: req.price,
        currency,
        stock: req.stock,
        valid_days: req.validDays,
        on_sale: req.onSale,
        updated_at: this.now(),
      };
      let bid: number;
      if (id === null) {
        bid = (
          await tx
            .insertInto("mall_gift_bags")
            .values({ merchant_id: merchantId, ...values })
            .returning("id")
            .executeTakeFirstOrThrow()
        ).id;
      } else {
        const cur = await tx
          .selectFrom("mall_gift_bags")
          .select(["id", "sold"])
          .where("id", "=", id)
          .where("merchant_id", "=", merchantId)
          .forUpdate()
          .executeTakeFirst();
        if (!cur) throw notFound("mall.bagNotFound");
        if (req.stock < cur.sold) throw invalid("mall.stockInvalid", "stock");
        await tx.updateTable("mall_gift_bags").set(values).where("id", "=", id).execute();
        await tx.deleteFrom("mall_gift_bag_items").where("bag_id", "=", id).execute();
        bid = id;
      }
      const merged = new Map<number, number>();
      for (const i of req.items) {
        merged.set(Number(i.selfGoodsId), (merged.get(Number(i.selfGoodsId)) ?? 0) + i.quantity);
      }
      await tx
        .insertInto("mall_gift_bag_items")
        .values([...merged].map(([sid, quantity]) => ({ bag_id: bid, self_goods_id: sid, quantity })))
        .execute();
      await audit(tx, {
        actorUserId: actor.userId,
        action: id === null ? "mall.bag.add" : "mall.bag.update",
        subjectType: "mall_gift_bag",
        subjectId: bid,
        detail: { price: req.price, stock: req.stock },
      });
      return bid;
    });
    const [bag] = await this.bagList(merchantId, { ids: [bagId] });
    if (!bag) throw notFound("mall.bagNotFound");
    return bag;
  }

  async bags(actor: Actor, q: { page: number; pageSize: number }): Promise<Page<GiftBag>> {
    const merchantId = tenantOf(actor);
    const total = await this.deps.db
      .selectFrom("mall_gift_bags")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("merchant_id", "=", merchantId)
      .executeTakeFirstOrThrow();
    return {
      list: await this.bagList(merchantId, { offset: (q.page - 1) * q.pageSize, limit: q.pageSize }),
      total: Number(total.n),
      page: q.page,
      pageSize: q.pageSize,
    };
  }

  private async bagList(
    merchantId: number,
    q: { ids?: number[]; offset?: number; limit?: number; onSale?: boolean },
    goodsOf: (ids: number[]) => Promise<Map<number, Merchandise>> = (ids) => this.deps.catalog.goods(ids),
  ): Promise<GiftBag[]> {
    let base = this.deps.db.selectFrom("mall_gift_bags").selectAll().where("merchant_id", "=", merchantId);
    if (q.ids) base = base.where("id", "in", q.ids.length ? q.ids : [0]);
    if (q.onSale) base = base.where("on_sale", "=", true);
    const rows = await base
      .orderBy("id", "desc")
      .offset(q.offset ?? 0)
      .limit(q.limit ?? 1000)
      .execute();
    if (rows.length === 0) return [];
    const items = await this.deps.db
      .selectFrom("mall_gift_bag_items as i")
      .innerJoin("mall_self_goods as s", "s.id", "i.self_goods_id")
      .select(["i.bag_id", "i.self_goods_id", "i.quantity", "s.name", "s.price", "s.goods_id"])
      .where(
        "i.bag_id",
        "in",
        rows.map((r) => r.id),
      )
      .orderBy("i.self_goods_id")
      .execute();
    const goods = await goodsOf([...new Set(items.map((i) => i.goods_id))]);
    return rows.map((r) => {
      const mine = items.filter((i) => i.bag_id === r.id);
      return {
        id: String(r.id),
        name: r.name,
        description: r.description,
        price: money(r.price, r.currency),
        worth: money(
          mine.reduce((a, i) => a + i.price * i.quantity, 0),
          r.currency,
        ),
        stock: r.stock,
        sold: r.sold,
        validDays: r.valid_days,
        onSale: r.on_sale,
        items: mine.map((i) => {
          const g = goods.get(i.goods_id);
          return {
            selfGoodsId: String(i.self_goods_id),
            name: i.name,
            quantity: i.quantity,
            delivery: (g && deliveryOf(g.businessType)) ?? "code",
          };
        }),
        createdAt: iso(r.created_at),
      };
    });
  }

  /* ---------- settings: PrivateCodeMall, BrandShow ---------- */

  async settings(actor: Actor): Promise<MallSettings> {
    const s = await this.settingsRow(tenantOf(actor));
    return {
      privateCode: s?.private_code ?? null,
      brandTitle: s?.brand_title ?? "",
      brandIntro: s?.brand_intro ?? "",
      brandImage: s?.brand_image ?? "",
    };
  }

  async saveSettings(actor: Actor, req: MallSettingsReq): Promise<MallSettings> {
    const merchantId = tenantOf(actor);
    const values = {
      private_code: req.privateCode,
      brand_title: req.brandTitle,
      brand_intro: req.brandIntro,
      brand_image: req.brandImage,
      updated_at: this.now(),
    };
    await withTx(this.deps.db, async (tx) => {
      await tx
        .insertInto("mall_settings")
        .values({ merchant_id: merchantId, ...values })
        .onConflict((oc) => oc.column("merchant_id").doUpdateSet(values))
        .execute();
      await audit(tx, {
        actorUserId: actor.userId,
        action: "mall.settings",
        subjectType: "merchant",
        subjectId: merchantId,
        detail: { private: req.privateCode !== null },
      });
    });
    this.storeSettings.delete(merchantId);
    return this.settings(actor);
  }

  /* ---------- SMS packages and records ---------- */

  async smsSummary(actor: Actor): Promise<SmsSummary> {
    const me = await this.buyer(tenantOf(actor));
    const now = this.now();
    const rows = await this.deps.db
      .selectFrom("mall_sms_packages")
      .selectAll()
      .where("merchant_id", "=", me.id)
      .orderBy("id", "desc")
      .limit(200)
      .execute();
    const live = (r: (typeof rows)[number]) => new Date(r.expires_at) > now;
    return {
      remaining: rows.filter(live).reduce((a, r) => a + r.remaining, 0),
      packages: rows.map((r) => ({
        id: String(r.id),
        code: r.code,
        count: r.count,
        remaining: r.remaining,
        price: money(r.price, r.currency),
        boughtAt: iso(r.bought_at),
        expiresAt: iso(r.expires_at),
        expired: !live(r),
      })),
      offers: MALL_SMS_PACKAGES.map((p) => ({
        code: p.code,
        count: p.count,
        price: money(p.price, me.currency),
        days: p.days,
      })),
    };
  }

  /** Buys an SMS package from the merchant's SUP (to the platform's fees); the same request key buys once. */
  async buySms(actor: Actor, req: { code: string; requestKey: string }): Promise<SmsSummary> {
    const me = await this.buyer(tenantOf(actor));
    const offer = MALL_SMS_PACKAGES.find((p) => p.code === req.code);
    if (!offer) throw invalid("mall.smsPackageUnknown", "code");
    const now = this.now();
    await withTx(this.deps.db, async (tx) => {
      const row = await tx
        .insertInto("mall_sms_packages")
        .values({
          merchant_id: me.id,
          code: offer.code,
          count: offer.count,
          remaining: offer.count,
          price: offer.price,
          currency: me.currency,
          request_key: req.requestKey,
          bought_at: now,
          expires_at: new Date(now.getTime() + offer.days * 86_400_000),
        })
        .onConflict((oc) => oc.columns(["merchant_id", "request_key"]).doNothing())
        .returning("id")
        .executeTakeFirst();
      if (!row) return;
      await post(tx, {
        idempotencyKey: `mall:sms:${row.id}`,
        kind: "purchase",
        currency: me.currency,
        reason: `SMS ${offer.count}`,
        subject: { type: "mall_sms_package", id: row.id },
        createdBy: actor.userId,
        postings: [
          { account: { merchantId: me.id, kind: "sup" }, amount: -offer.price },
          { account: { platform: "fees" }, amount: offer.price },
        ],
      });
    });
    return this.smsSummary(actor);
  }

  async smsRecords(actor: Actor, q: { page: number; pageSize: number; phone?: string | undefined }) {
    let base = this.deps.db.selectFrom("mall_sms_records").where("merchant_id", "=", tenantOf(actor));
    if (q.phone) base = base.where("phone", "=", q.phone);
    const [rows, count] = await Promise.all([
      base
        .selectAll()
        .orderBy("id", "desc")
        .offset((q.page - 1) * q.pageSize)
        .limit(q.pageSize)
        .execute(),
      base.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
    ]);
    return {
      list: rows.map((r) => ({
        id: String(r.id),
        appId: r.app_id,
        phone: r.phone,
        scene: r.scene,
        state: r.state,
        createdAt: iso(r.created_at),
      })),
      total: Number(count.n),
      page: q.page,
      pageSize: q.pageSize,
    };
  }

  /** The customer's login code, counted against the mall's SMS packages: none left, none sent. */
  async sendLoginCode(m: MallContext, phone: string, lang: Lang): Promise<SendCodeReply> {
    await this.unlocked(m);
    const merchantId = m.appearance.merchantId;
    const now = this.now();
    const rec = await withTx(this.deps.db, async (tx) => {
      const pkg = await repo.takeSms(tx, merchantId, now);
      if (pkg === undefined) throw conflict("mall.smsExhausted");
      return await tx
        .insertInto("mall_sms_records")
        .values({
          merchant_id: merchantId,
          app_id: m.appearance.appId,
          phone,
          scene: "customerLogin",
          package_id: pkg,
          state: "sent",
          created_at: now,
        })
        .returning(["id", "package_id"])
        .executeTakeFirstOrThrow();
    });
    try {
      return await this.deps.sendLoginCode(phone, lang);
    } catch (err) {
      // Not sent (too frequent, the gateway refused): the SMS is not counted.
      await withTx(this.deps.db, async (tx) => {
        await tx
          .updateTable("mall_sms_packages")
          .set((eb) => ({ remaining: eb("remaining", "+", 1) }))
          .where("id", "=", rec.package_id)
          .execute();
        await tx.updateTable("mall_sms_records").set({ state: "failed" }).where("id", "=", rec.id).execute();
      });
      throw err;
    }
  }

  /* ---------- the storefront's goods ---------- */

  async storeGoods(
    m: MallContext,
    q: { page: number; pageSize: number; kind?: "goods" | "bag" | undefined; keyword?: string | undefined },
  ): Promise<Page<StoreGoods>> {
    await this.unlocked(m);
    const merchantId = m.appearance.merchantId;
    const out: StoreGoods[] = [];
    if (q.kind !== "goods") {
      for (const b of await this.bagList(merchantId, { onSale: true }, (ids) => this.goodsOf(ids))) {
        if (q.keyword && !b.name.toLowerCase().includes(q.keyword.toLowerCase())) continue;
        const kinds = new Set(b.items.map((i) => i.delivery));
        out.push({
          id: b.id,
          kind: "bag",
          name: b.name,
          brandName: "",
          delivery: kinds.size > 1 ? "mixed" : (b.items[0]?.delivery ?? "code"),
          price: b.price,
          faceValue: b.worth,
          available: b.stock > b.sold,
          description: b.description,
          items: b.items.map((i) => ({ name: i.name, quantity: i.quantity })),
          validDays: b.validDays,
        });
      }
    }
    if (q.kind !== "bag") {
      // What the customer sees of the goods on sale: no purchase cost, no own stock (the back-office's list has them).
      let base = this.deps.db
        .selectFrom("mall_self_goods")
        .select(["id", "goods_id", "name", "price", "currency"])
        .where("merchant_id", "=", merchantId)
        .where("on_sale", "=", true);
      if (q.keyword) base = base.where("name", "ilike", `%${q.keyword.replace(/[%_\\]/g, (c) => `\\${c}`)}%`);
      const rows = await base.orderBy("sort").orderBy("id", "desc").limit(1000).execute();
      const goods = await this.goodsOf(rows.map((r) => r.goods_id));
      for (const r of rows) {
        const g = goods.get(r.goods_id);
        out.push({
          id: String(r.id),
          kind: "goods",
          name: r.name,
          brandName: g?.brandName ?? "",
          delivery: (g && deliveryOf(g.businessType)) ?? "code",
          price: money(r.price, r.currency),
          faceValue: money(g?.faceValue ?? 0, r.currency),
          available: true,
          description: "",
          items: [],
          validDays: null,
        });
      }
    }
    return {
      list: out.slice((q.page - 1) * q.pageSize, q.page * q.pageSize),
      total: out.length,
      page: q.page,
      pageSize: q.pageSize,
    };
  }

  async storeItem(m: MallContext, kind: "goods" | "bag", id: string): Promise<StoreGoods> {
    const page = await this.storeGoods(m, { page: 1, pageSize: 1000, kind });
    const one = page.list.find((g) => g.id === id);
    if (!one) throw notFound(kind === "bag" ? "mall.bagNotFound" : "mall.goodsNotFound");
    return one;
  }

  /** The customer's cards usable in this mall: its brand's activated cards in the customer's card bag. */
  async storeCards(m: MallContext, customer: Customer) {
    await this.unlocked(m);
    await repo.touchMember(this.deps.db, m.appearance.merchantId, customer.id, this.now());
    const cards = await customerCards(this.deps.db, customer.id, m.appearance.merchantId);
    return cards.map((c) => ({
      id: String(c.id),
      cardNo: maskNumber(this.deps.keys.unseal(c.sealed).number),
      balance: money(c.balance - c.held, c.currency),
    }));
  }

  /* ---------- checkout ---------- */

  private async units(merchantId: number, lines: CheckoutReq["lines"], now: Date) {
    const selfIds = new Set<number>();
    const bagIds = new Set<number>();
    for (const l of lines) (l.kind === "goods" ? selfIds : bagIds).add(Number(l.id));
    const bags = bagIds.size
      ? await this.deps.db
          .selectFrom("mall_gift_bags")
          .selectAll()
          .where("merchant_id", "=", merchantId)
          .where("id", "in", [...bagIds])
          .where("on_sale", "=", true)
          .execute()
      : [];
    if (bags.length !== bagIds.size) throw notFound("mall.bagNotFound");
    const bagItems = bags.length
      ? await this.deps.db
          .selectFrom("mall_gift_bag_items")
          .selectAll()
          .where(
            "bag_id",
            "in",
            bags.map((b) => b.id),
          )
          .execute()
      : [];
    for (const i of bagItems) selfIds.add(i.self_goods_id);
    const selves = selfIds.size
      ? await this.deps.db
          .selectFrom("mall_self_goods")
          .selectAll()
          .where("merchant_id", "=", merchantId)
          .where("id", "in", [...selfIds])
          .execute()
      : [];
    const selfById = new Map(selves.map((s) => [s.id, s]));
    const goods = await this.goodsOf(selves.map((s) => s.goods_id));
    const units: Unit[] = [];
    const orderLines: { kind: "goods" | "bag"; refId: number; name: string; quantity: number; unitPrice: number }[] =
      [];
    const currencies = new Set<"CNY" | "USD" | "HKD">();
    const addUnit = (selfId: number, count: number, expiresDays: number | null) => {
      const s = selfById.get(selfId);
      const g = s && goods.get(s.goods_id);
      const delivery = g && deliveryOf(g.businessType);
      if (!s || !g || !delivery) throw notFound("mall.goodsNotFound");
      units.push({ selfId, goodsId: s.goods_id, name: s.name, delivery, count, expiresDays });
    };
    for (const l of lines) {
      if (l.kind === "goods") {
        const s = selfById.get(Number(l.id));
        if (!s || !s.on_sale) throw conflict("mall.goodsOffSale", "lines");
        addUnit(s.id, l.quantity, null);
        orderLines.push({ kind: "goods", refId: s.id, name: s.name, quantity: l.quantity, unitPrice: s.price });
        currencies.add(s.currency);
      } else {
        const b = bags.find((x) => x.id === Number(l.id));
        if (!b) throw notFound("mall.bagNotFound");
        for (const i of bagItems.filter((x) => x.bag_id === b.id)) {
          addUnit(i.self_goods_id, i.quantity * l.quantity, b.valid_days);
        }
        orderLines.push({ kind: "bag", refId: b.id, name: b.name, quantity: l.quantity, unitPrice: b.price });
        currencies.add(b.currency);
      }
    }
    if (currencies.size !== 1) throw invalid("mall.currencyMismatch", "lines");
    const amount = orderLines.reduce((a, l) => a + l.unitPrice * l.quantity, 0);
    void now;
    return { units, orderLines, amount, currency: [...currencies][0] ?? "CNY" };
  }

  /**
   * Pays an order and delivers it. Codes come from the merchant's own stock; what it lacks is bought from
   * the supplier first ("smart purchase", purchasing's order path, numbered from the request key so a retry
   * buys once); then one transaction takes the payment, the gift packs' stock and the codes (locked,
   * skipped by others, unique per code). Top-ups are ordered from the supplier after the payment, to the
   * account the customer named. The same request key returns the first order.
   */
  async checkout(m: MallContext, customer: Customer, req: CheckoutReq, lang: Lang): Promise<MallOrder> {
    await this.unlocked(m);
    const a = m.appearance;
    const merchantId = a.merchantId;
    const first = await this.deps.db
      .selectFrom("mall_orders")
      .select("id")
      .where("customer_id", "=", customer.id)
      .where("request_key", "=", req.requestKey)
      .executeTakeFirst();
    if (first) return this.customerOrder(m, customer, first.id, lang);
    const now = this.now();
    const { units, orderLines, amount, currency } = await this.units(merchantId, req.lines, now);
    const needsAccount = units.some((u) => u.delivery === "topup");
    if (needsAccount && !req.topUpAccount) throw invalid("mall.topUpAccountEmpty", "topUpAccount");
    if (req.payMethod === "card") {
      if (!req.cardId) throw invalid("mall.cardRequired", "cardId");
      const card = await cardOwner(this.deps.db, Number(req.cardId));
      if (!card || card.customer_id !== customer.id || card.brander_id !== merchantId || card.currency !== currency) {
        throw conflict("mall.cardNotUsable", "cardId");
      }
      if (card.balance - card.held < amount) throw conflict("onecard.insufficient", "cardId");
    }
    const codeNeeds = new Map<number, number>();
    for (const u of units) {
      if (u.delivery === "code") codeNeeds.set(u.goodsId, (codeNeeds.get(u.goodsId) ?? 0) + u.count);
    }
    const tag = createHash("sha256").update(`${customer.id}:${req.requestKey}`).digest("hex").slice(0, 16);
    // The purchase orders placed for this checkout, by goods: their codes are this order's first.
    const boughtFor = new Map<number, string[]>();
    for (let attempt = 1; ; attempt++) {
      // First from the stock the merchant holds; once other orders took what it counted (a retry), every
      // code this order needs is bought for it (what is left over stays in the merchant's stock).
      const stock =
        attempt === 1 ? await buyerStockUpTo(this.deps.db, merchantId, codeNeeds) : new Map<number, number>();
      for (const [goodsId, need] of codeNeeds) {
        const short = need - (stock.get(goodsId) ?? 0);
        if (short > 0) {
          const po = await this.deps.purchasing.place(merchantId, {
            goodsId: String(goodsId),
            quantity: short,
            orderNo: `MALL${tag}A${attempt}G${goodsId}`,
          });
          boughtFor.set(goodsId, [...(boughtFor.get(goodsId) ?? []), po.id]);
        }
      }
      const placed = await withTx(
        this.deps.db,
        async (
          tx,
        ): Promise<{ first: number } | { order: OrderRow; deliveries: DeliveryRow[]; codes: SealedCode[] }> => {
          // The order as it ends (delivered, or delivering while its top-ups are ordered); the same request
          // key sent twice at once: the second waits for the first here and answers with it.
          const o = await tx
            .insertInto("mall_orders")
            .values({
              order_no: `M${tag.toUpperCase()}${now.getTime().toString(36).toUpperCase()}`,
              merchant_id: merchantId,
              app_id: a.appId,
              customer_id: customer.id,
              state: needsAccount ? "delivering" : "delivered",
              pay_method: req.payMethod,
              card_id: req.payMethod === "card" ? Number(req.cardId) : null,
              amount,
              currency,
              lines: JSON.stringify(orderLines),
              top_up_account: needsAccount ? (req.topUpAccount ?? null) : null,
              request_key: req.requestKey,
              created_at: now,
              delivered_at: needsAccount ? null : now,
            })
            .onConflict((oc) => oc.columns(["customer_id", "request_key"]).doNothing())
            .returningAll()
            .executeTakeFirst();
          if (!o) {
            const again = await tx
              .selectFrom("mall_orders")
              .select("id")
              .where("customer_id", "=", customer.id)
              .where("request_key", "=", req.requestKey)
              .executeTakeFirstOrThrow();
            return { first: again.id };
          }
          for (const l of orderLines.filter((x) => x.kind === "bag").sort((x, y) => x.refId - y.refId)) {
            const r = await tx
              .updateTable("mall_gift_bags")
              .set((eb) => ({ sold: eb("sold", "+", l.quantity) }))
              .where("id", "=", l.refId)
              .where(sql<boolean>`sold + ${l.quantity} <= stock`)
              .executeTakeFirst();
            if (Number(r.numUpdatedRows) === 0) {
              throw new AppError(CODE.CONFLICT, "mall.bagSoldOut", { name: l.name }, "lines");
            }
          }
          const byGoods = new Map<number, SealedCode[]>();
          const codes: SealedCode[] = [];
          for (const [goodsId, need] of [...codeNeeds].sort((x, y) => x[0] - y[0])) {
            const taken = await takeBuyerCodes(tx, merchantId, goodsId, need, now, boughtFor.get(goodsId));
            if (taken.length < need) throw new Shortage("codes taken meanwhile");
            byGoods.set(goodsId, [...taken]);
            codes.push(...taken);
          }
          const rows = [];
          for (const u of units) {
            const expires = u.expiresDays === null ? null : new Date(now.getTime() + u.expiresDays * 86_400_000);
            for (let i = 0; i < u.count; i++) {
              if (u.delivery === "code") {
                const code = byGoods.get(u.goodsId)?.shift();
                rows.push({
                  order_id: o.id,
                  goods_id: u.goodsId,
                  name: u.name,
                  kind: "code" as const,
                  state: "success" as const,
                  card_id: code?.id ?? null,
                  purchase_no: null,
                  account: null,
                  expires_at: expires,
                  created_at: now,
                });
              } else {
                rows.push({
                  order_id: o.id,
                  goods_id: u.goodsId,
                  name: u.name,
                  kind: "topup" as const,
                  state: "processing" as const,
                  card_id: null,
                  purchase_no: null,
                  account: req.topUpAccount ?? null,
                  expires_at: expires,
                  created_at: now,
                });
              }
            }
          }
          // With them the customer seen in this mall and, when the answer shows the codes in full to their
          // buyer (an order delivered now), the reveal on record as the order's page writes it.
          const deliveries = await repo.insertDeliveries(
            tx,
            rows,
            { merchantId, customerId: customer.id, now },
            !needsAccount && codes.length > 0 ? { orderId: o.id, customerId: customer.id } : null,
          );
          // The payment last: its ledger rows (bank clearing, the merchant's income) are the hot ones, held until commit.
          const description = orderLines.map((l) => l.name).join(", ");
          if (req.payMethod === "card") {
            await this.deps.debitCard(tx, Number(req.cardId), amount, `mall:${o.id}`, description.slice(0, 100));
          } else {
            // Money is credited only on the payments seam's confirmation; test money goes to the sandbox accounts.
            const paid = await this.deps.payments.create(
              tx,
              {
                merchantId,
                subject: { type: "mall_order", id: o.id },
                paymentNo: o.order_no,
                amount,
                currency,
                description,
                payer: customer.phone,
                appId: a.appId,
              },
              now,
            );
            if (paid.state !== "paid") throw conflict("payments.notEnabled");
            if (paid.sandbox) {
              await tx.updateTable("mall_orders").set({ sandbox: true }).where("id", "=", o.id).execute();
            }
            await this.income(tx, {
              id: o.id,
              orderNo: o.order_no,
              merchantId,
              amount,
              currency,
              description,
              sandbox: paid.sandbox,
            });
          }
          return { order: o, deliveries, codes };
        },
      ).catch(async (err: unknown) => {
        if (err instanceof Shortage) return err;
        // The same request sent twice at once, both past the key's check before either wrote (the order
        // number, made from the key, collided): the one that committed answers.
        if (isUniqueViolation(err)) {
          const first = await this.deps.db
            .selectFrom("mall_orders")
            .select("id")
            .where("customer_id", "=", customer.id)
            .where("request_key", "=", req.requestKey)
            .executeTakeFirst();
          if (first) return { first: first.id };
        }
        throw err;
      });
      if (placed instanceof Shortage) {
        // Another order took the codes bought for this one meanwhile: buy the shortfall again.
        if (attempt < 3) continue;
        throw conflict("mall.soldOut", "lines");
      }
      if ("first" in placed) return this.customerOrder(m, customer, placed.first, lang);
      if (needsAccount) {
        await this.topUps(placed.order.id);
        return this.customerOrder(m, customer, placed.order.id, lang);
      }
      // Delivered in the transaction: the answer is what it wrote, not read again.
      const [order] = this.shape(
        [placed.order],
        placed.deliveries,
        placed.codes,
        new Map([[customer.id, customer.phone]]),
        true,
        lang,
      );
      if (!order) throw notFound("mall.orderNotFound");
      return order;
    }
  }

  /**
   * A wallet payment's ledger movement (bank clearing to the merchant's income) in one statement, the
   * balance rows locked only from it to the commit. An account not used yet is created first and the
   * statement run again; a refused move (a balance that may not go negative) rolls the order back.
   */
  private async income(
    tx: Tx,
    p: {
      id: number;
      orderNo: string;
      merchantId: number;
      amount: number;
      currency: string;
      description: string;
      sandbox: boolean;
    },
  ): Promise<void> {
    const money = moneyAccounts(p.sandbox);
    const part = postingPart({
      idempotencyKey: `mall:pay:${p.id}`,
      kind: "mall_sale",
      currency: p.currency as "CNY" | "USD" | "HKD",
      reason: `${p.orderNo} ${p.description}`.slice(0, 200),
      subject: { type: "mall_order", id: p.id },
      postings: [
        { account: money.clearing, amount: -p.amount },
        { account: money.income(p.merchantId), amount: p.amount },
      ],
    });
    for (let attempt = 1; ; attempt++) {
      const r = await sql<{
        result: unknown;
      }>`WITH ${part.ctes(sql`SELECT 1`)} SELECT ${part.result} AS result`.execute(tx);
      const outcome = part.outcome(r.rows[0]?.result);
      if (typeof outcome !== "string") return;
      if (outcome === "notWritten" && attempt === 1) {
        await part.prepare(tx);
        continue;
      }
      throw new Error(`mall: the payment's ledger movement was not written (${outcome})`);
    }
  }

  /** Orders the top-ups of an order from the supplier (one purchase per unit, numbered by delivery). */
  private async topUps(orderId: number): Promise<void> {
    const o = await this.deps.db
      .selectFrom("mall_orders")
      .select(["id", "merchant_id"])
      .where("id", "=", orderId)
      .executeTakeFirstOrThrow();
    const open = await this.deps.db
      .selectFrom("mall_deliveries")
      .selectAll()
      .where("order_id", "=", orderId)
      .where("kind", "=", "topup")
      .where("state", "=", "processing")
      .orderBy("id")
      .execute();
    for (const d of open) {
      const orderNo = d.purchase_no ?? `MALLD${d.id}`;
      if (d.purchase_no === null) {
        await this.deps.db
          .updateTable("mall_deliveries")
          .set({ purchase_no: orderNo })
          .where("id", "=", d.id)
          .execute();
      }
      let state: "processing" | "success" | "failed";
      let reason: string | null;
      try {
        const po =
          (await this.deps.purchasing.find(o.merchant_id, orderNo)) ??
          (await this.deps.purchasing.place(o.merchant_id, {
            goodsId: String(d.goods_id),
            quantity: 1,
            topUpAccount: d.account ?? "",
            orderNo,
          }));
        state = po.state === "success" ? "success" : po.state === "failure" ? "failed" : "processing";
        reason = po.failReason;
      } catch (err) {
        if (!(err instanceof AppError) || err.code === CODE.INTERNAL) {
          this.deps.log.warn({ err, deliveryId: d.id }, "mall top-up not placed; the follow-up job tries again");
          continue;
        }
        state = "failed";
        reason = err.messageKey;
      }
      if (state !== "processing") {
        await this.deps.db
          .updateTable("mall_deliveries")
          .set({ state })
          .where("id", "=", d.id)
          .where("state", "=", "processing")
          .execute();
      }
      if (state === "failed") {
        await this.deps.db.updateTable("mall_orders").set({ fail_reason: reason }).where("id", "=", orderId).execute();
      }
    }
    const left = await this.deps.db
      .selectFrom("mall_deliveries")
      .select(["state"])
      .where("order_id", "=", orderId)
      .execute();
    const now = this.now();
    if (left.some((d) => d.state === "failed")) {
      await this.deps.db
        .updateTable("mall_orders")
        .set({ state: "failed" })
        .where("id", "=", orderId)
        .where("state", "=", "delivering")
        .execute();
    } else if (left.every((d) => d.state === "success")) {
      await this.deps.db
        .updateTable("mall_orders")
        .set({ state: "delivered", delivered_at: now })
        .where("id", "=", orderId)
        .where("state", "=", "delivering")
        .execute();
    }
  }

  /** The follow-up job: top-ups still processing. */
  async followUp(limit = 100): Promise<number> {
    const open = await this.deps.db
      .selectFrom("mall_orders")
      .select("id")
      .where("state", "=", "delivering")
      .orderBy("id")
      .limit(limit)
      .execute();
    for (const o of open) await this.topUps(o.id);
    return open.length;
  }

  /* ---------- orders ---------- */

  private async present(rows: OrderRow[], reveal: boolean, lang: Lang): Promise<MallOrder[]> {
    if (rows.length === 0) return [];
    const deliveries = await this.deps.db
      .selectFrom("mall_deliveries")
      .selectAll()
      .where(
        "order_id",
        "in",
        rows.map((r) => r.id),
      )
      .orderBy("id")
      .execute();
    const codes = await sealedCodes(
      this.deps.db,
      deliveries.flatMap((d) => (d.card_id === null ? [] : [d.card_id])),
    );
    const phones = new Map(
      (
        await phonesOf(
          this.deps.db,
          rows.map((r) => r.customer_id),
        )
      ).map((p) => [p.id, p.phone]),
    );
    return this.shape(rows, deliveries, codes, phones, reveal, lang);
  }

  /** Orders as the API shows them, from their rows, their deliveries (in id order), the codes delivered and the customers' phones. */
  private shape(
    rows: OrderRow[],
    deliveries: DeliveryRow[],
    sealed: SealedCode[],
    phones: Map<number, string>,
    reveal: boolean,
    lang: Lang,
  ): MallOrder[] {
    const codes = new Map(sealed.map((c) => [c.id, c]));
    return rows.map((r) => ({
      id: String(r.id),
      orderNo: r.order_no,
      appId: r.app_id,
      customerPhone: reveal
        ? (phones.get(r.customer_id) ?? "")
        : (phones.get(r.customer_id) ?? "").replace(/^(\d{3})\d{4}(\d{4})$/, "$1****$2"),
      state: r.state,
      payMethod: r.pay_method,
      amount: money(r.amount, r.currency),
      lines: r.lines.map((l) => ({
        kind: l.kind,
        refId: String(l.refId),
        name: l.name,
        quantity: l.quantity,
        unitPrice: money(l.unitPrice, r.currency),
      })),
      deliveries: deliveries
        .filter((d) => d.order_id === r.id)
        .map((d) => {
          const c = d.card_id === null ? undefined : codes.get(d.card_id);
          const open = c && reveal ? this.deps.keys.unseal(c.sealed) : undefined;
          return {
            id: String(d.id),
            name: d.name,
            kind: d.kind,
            state: d.state,
            cardNumber: c ? (open?.number ?? c.number_mask) : null,
            cardSecret: c ? (open?.secret ?? "******") : null,
            account: d.account,
            expiresAt: d.expires_at ? iso(d.expires_at) : c?.expires_on ? `${c.expires_on}T15:59:59.000Z` : null,
            smartPurchase: false,
          };
        }),
      topUpAccount: r.top_up_account,
      failReason:
        r.fail_reason === null
          ? null
          : r.fail_reason.startsWith("mall.") || r.fail_reason.includes(".")
            ? renderKey(r.fail_reason, lang)
            : r.fail_reason,
      refundReason: r.refund_reason,
      createdAt: iso(r.created_at),
      refundedAt: r.refunded_at ? iso(r.refunded_at) : null,
    }));
  }

  /** The customer's own order in this mall, codes in full (one audit row per reveal). */
  async customerOrder(m: MallContext, customer: Customer, id: number, lang: Lang): Promise<MallOrder> {
    const find = () =>
      this.deps.db
        .selectFrom("mall_orders")
        .selectAll()
        .where("id", "=", id)
        .where("customer_id", "=", customer.id)
        .where("merchant_id", "=", m.appearance.merchantId)
        .executeTakeFirst();
    let row = await find();
    if (!row) throw notFound("mall.orderNotFound");
    if (row.state === "delivering") {
      await this.topUps(row.id);
      row = (await find()) ?? row;
    }
    const [o] = await this.present([row], true, lang);
    if (!o) throw notFound("mall.orderNotFound");
    if (o.deliveries.some((d) => d.cardSecret !== null)) {
      await audit(this.deps.db, {
        actorUserId: null,
        action: "mall.codes.reveal",
        subjectType: "mall_order",
        subjectId: row.id,
        detail: { customerId: customer.id },
      });
    }
    return o;
  }

  /** The card bag's mall codes: every code delivered to the customer, in any mall, not refunded (masked). */
  async customerCodes(customer: Customer): Promise<MallBagCode[]> {
    const rows = await this.deps.db
      .selectFrom("mall_deliveries as d")
      .innerJoin("mall_orders as o", "o.id", "d.order_id")
      .select(["d.id", "d.order_id", "d.name", "d.card_id", "d.expires_at", "o.order_no", "o.app_id", "o.created_at"])
      .where("o.customer_id", "=", customer.id)
      .where("o.state", "!=", "refunded")
      .where("d.kind", "=", "code")
      .where("d.state", "=", "success")
      .orderBy("d.id", "desc")
      .limit(500)
      .execute();
    const codes = new Map(
      (
        await sealedCodes(
          this.deps.db,
          rows.flatMap((r) => (r.card_id === null ? [] : [r.card_id])),
        )
      ).map((c) => [c.id, c]),
    );
    const names = new Map<string, string>();
    for (const appId of new Set(rows.map((r) => r.app_id))) {
      names.set(
        appId,
        ((await this.releasedAppearance(appId)) ?? (await this.deps.appearance(appId, "beta")))?.name ?? appId,
      );
    }
    return rows.map((r) => {
      const c = r.card_id === null ? undefined : codes.get(r.card_id);
      return {
        deliveryId: String(r.id),
        orderId: String(r.order_id),
        orderNo: r.order_no,
        appId: r.app_id,
        mallName: names.get(r.app_id) ?? r.app_id,
        name: r.name,
        cardNumber: c?.number_mask ?? "",
        expiresAt: r.expires_at ? iso(r.expires_at) : c?.expires_on ? `${c.expires_on}T15:59:59.000Z` : null,
        boughtAt: iso(r.created_at),
      };
    });
  }

  async customerOrders(
    m: MallContext,
    customer: Customer,
    q: { page: number; pageSize: number },
    lang: Lang,
  ): Promise<Page<MallOrder>> {
    await this.unlocked(m);
    const base = this.deps.db
      .selectFrom("mall_orders")
      .where("customer_id", "=", customer.id)
      .where("merchant_id", "=", m.appearance.merchantId);
    const [rows, count] = await Promise.all([
      base
        .selectAll()
        .orderBy("id", "desc")
        .offset((q.page - 1) * q.pageSize)
        .limit(q.pageSize)
        .execute(),
      base.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
    ]);
    // The list masks the codes; the order's page reveals them.
    return { list: await this.present(rows, false, lang), total: Number(count.n), page: q.page, pageSize: q.pageSize };
  }

  /** EquityOrder: the merchant's mall orders (codes masked). */
  async orders(
    actor: Actor,
    q: {
      page: number;
      pageSize: number;
      state?: MallOrder["state"] | undefined;
      orderNo?: string | undefined;
      phone?: string | undefined;
    },
    lang: Lang,
  ): Promise<Page<MallOrder>> {
    const merchantId = tenantOf(actor);
    let base = this.deps.db.selectFrom("mall_orders").where("merchant_id", "=", merchantId);
    if (q.state) base = base.where("state", "=", q.state);
    if (q.orderNo) base = base.where("order_no", "=", q.orderNo);
    if (q.phone) base = base.where("customer_id", "=", (await customerIdByPhone(this.deps.db, q.phone)) ?? 0);
    const [rows, count] = await Promise.all([
      base
        .selectAll()
        .orderBy("id", "desc")
        .offset((q.page - 1) * q.pageSize)
        .limit(q.pageSize)
        .execute(),
      base.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
    ]);
    return { list: await this.present(rows, false, lang), total: Number(count.n), page: q.page, pageSize: q.pageSize };
  }

  /**
   * Refunds an order in full, once: a wallet-paid one from the merchant's income back to the customer's
   * payment (ledger), a card-paid one back onto the card it was paid with (onecard's credit, reversing the
   * order's debit). A second request finds the order refunded and changes nothing.
   */
  async refund(actor: Actor, id: number, reason: string, lang: Lang, requestKey?: string): Promise<MallOrder> {
    const merchantId = tenantOf(actor);
    const now = this.now();
    await withTx(this.deps.db, async (tx) => {
      const o = await tx
        .selectFrom("mall_orders")
        .selectAll()
        .where("id", "=", id)
        .where("merchant_id", "=", merchantId)
        .forUpdate()
        .executeTakeFirst();
      if (!o) throw notFound("mall.orderNotFound");
      if (o.state === "refunded" && requestKey !== undefined && o.refund_key === requestKey) return;
      if (o.state === "refunded" || o.state === "delivering") throw conflict("mall.orderState");
      // The codes the refund pays back are taken back in its transaction (issue 37): voided under the lock a
      // store redemption takes, so a refunded code is never served; escrowed vouchers' money returns to the
      // merchant. A code already redeemed was served: its order is not refunded.
      const delivered = await tx
        .selectFrom("mall_deliveries")
        .select("card_id")
        .where("order_id", "=", o.id)
        .where("kind", "=", "code")
        .execute();
      const cardIds = delivered.flatMap((d) => (d.card_id === null ? [] : [Number(d.card_id)]));
      const takenBack = await takeBackHandedOnCodes(
        tx,
        { purchaserId: merchantId, cardIds, reason: `${o.order_no} ${reason}`, actorUserId: actor.userId },
        now,
      );
      if (takenBack.redeemed.length > 0) throw conflict("mall.codeRedeemed");
      if (o.pay_method === "card") {
        if (o.card_id === null) throw conflict("mall.orderState");
        await creditCard(
          tx,
          {
            cardId: o.card_id,
            amount: o.amount,
            requestKey: `mall:refund:${o.id}`,
            debitKey: `mall:${o.id}`,
            note: `${o.order_no} ${reason}`.slice(0, 100),
          },
          now,
        );
      } else {
        const money = moneyAccounts(o.sandbox);
        const back = await this.deps.payments.refund(
          tx,
          { paymentNo: o.order_no, refundNo: `${o.order_no}R`, amount: o.amount },
          now,
        );
        if (back.state === "failed" && o.sandbox) throw conflict("payments.refundFailed");
        await post(tx, {
          idempotencyKey: `mall:refund:${o.id}`,
          kind: "refund",
          currency: o.currency,
          reason: `${o.order_no} ${reason}`.slice(0, 200),
          subject: { type: "mall_order", id: o.id },
          createdBy: actor.userId,
          postings: [
            { account: money.income(merchantId), amount: -o.amount },
            { account: money.clearing, amount: o.amount },
          ],
        });
      }
      await tx
        .updateTable("mall_orders")
        .set({ state: "refunded", refund_reason: reason, refund_key: requestKey ?? null, refunded_at: now })
        .where("id", "=", o.id)
        .execute();
      await audit(tx, {
        actorUserId: actor.userId,
        action: "mall.order.refund",
        subjectType: "mall_order",
        subjectId: o.id,
        detail: { amount: o.amount, reason, payMethod: o.pay_method },
      });
    });
    const row = await this.deps.db.selectFrom("mall_orders").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    const [o] = await this.present([row], false, lang);
    if (!o) throw notFound("mall.orderNotFound");
    return o;
  }

  /** MallMember / ShopMember: customers who came to the merchant's mall, with their orders. */
  async members(actor: Actor, q: { page: number; pageSize: number; phone?: string | undefined }) {
    const merchantId = tenantOf(actor);
    let base = this.deps.db.selectFrom("mall_members as m").where("m.merchant_id", "=", merchantId);
    if (q.phone) base = base.where("m.customer_id", "=", (await customerIdByPhone(this.deps.db, q.phone)) ?? 0);
    const [rows, count] = await Promise.all([
      base
        .select(["m.customer_id", "m.first_seen_at", "m.last_seen_at"])
        .select((eb) => [
          eb
            .selectFrom("mall_orders as o")
            .select((e) => e.fn.countAll<string>().as("n"))
            .whereRef("o.customer_id", "=", "m.customer_id")
            .where("o.merchant_id", "=", merchantId)
            .as("orders"),
          eb
            .selectFrom("mall_orders as o")
            .select((e) => e.fn.coalesce(e.fn.sum<string>("o.amount"), sql<string>`0`).as("s"))
            .whereRef("o.customer_id", "=", "m.customer_id")
            .where("o.merchant_id", "=", merchantId)
            .where("o.state", "!=", "refunded")
            .as("spent"),
        ])
        .orderBy("m.last_seen_at", "desc")
        .orderBy("m.customer_id", "desc")
        .offset((q.page - 1) * q.pageSize)
        .limit(q.pageSize)
        .execute(),
      base.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
    ]);
    const me = await this.buyer(merchantId);
    const phones = new Map(
      (
        await phonesOf(
          this.deps.db,
          rows.map((r) => r.customer_id),
        )
      ).map((p) => [p.id, p.phone]),
    );
    return {
      list: rows.map((r) => ({
        customerId: String(r.customer_id),
        phone: phones.get(r.customer_id) ?? "",
        orders: Number(r.orders ?? 0),
        spent: money(Number(r.spent ?? 0), me.currency),
        firstSeenAt: iso(r.first_seen_at),
        lastSeenAt: iso(r.last_seen_at),
      })),
      total: Number(count.n),
      page: q.page,
      pageSize: q.pageSize,
    };
  }
}

function renderKey(key: string, lang: Lang): string {
  return isMessageKey(key) ? renderMessage(key, lang, {}) : key;
}
