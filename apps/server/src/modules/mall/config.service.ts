import {
  MALL_SMS_PACKAGES,
  type GiftBag,
  type GiftBagReq,
  type MallSettings,
  type MallSettingsReq,
  type Merchandise,
  type Page,
  type SelfGoods,
  type SelfGoodsReq,
  type SmsSummary,
} from "@tessera/contracts";
import { withTx } from "../../db/tx";
import type { Actor } from "../../platform/auth/actor";
import { tenantOf } from "../../platform/auth/guard";
import { audit } from "../../platform/audit";
import { conflict, invalid } from "../../platform/http/errors";
import { post } from "../ledger";
import { getMerchant } from "../merchants";
import { buyerStock } from "../supply";
import * as config from "./config.repo";
import * as repo from "./repo";
import { CARD_TYPES, buyer, deliveryOf, highPrice, iso, money, notFound, type MallDeps } from "./shared";
import type { StorefrontService } from "./storefront.service";
import { pageWindow } from "../../db/paginate";

/**
 * The merchant's mall configuration in the back-office: the goods it sells (its own goods from the
 * catalogue, the gift bags made of them), the private code and brand show, and the SMS packages the
 * customers' login codes are counted against.
 */
export class ConfigService {
  constructor(
    private readonly deps: MallDeps,
    private readonly store: StorefrontService,
  ) {}
  private now(): Date {
    return this.deps.clock.now();
  }

  /* ---------- SelfSupport ---------- */

  async candidates(actor: Actor, q: { page: number; pageSize: number; keyword?: string | undefined }) {
    const me = await buyer(this.deps.db, tenantOf(actor));
    const [cards, direct] = await Promise.all(
      (["card", "direct"] as const).map((type) =>
        this.deps.catalog.offers(
          { id: me.id, version: me.version },
          { page: 1, pageSize: 1000, type, keyword: q.keyword, sort: "recommend" },
        ),
      ),
    );
    const all = [...(cards?.list ?? []), ...(direct?.list ?? [])].filter((g) => g.currency === me.currency);
    const inMall = new Set((await config.selfGoodsIds(this.deps.db, me.id)).map((r) => r.goods_id));
    const { offset, limit } = pageWindow(q);
    const list = all.slice(offset, offset + limit).map((g) => ({
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
    const me = await buyer(this.deps.db, tenantOf(actor));
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
      const row = await config.insertSelfGoods(tx, me.id, {
        goods_id: g.id,
        name: req.name ?? g.name,
        price: req.price,
        currency: g.currency,
        on_sale: req.onSale,
        sort: req.sort,
        updated_at: this.now(),
      });
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
    const current = await config.selfGoodsRef(this.deps.db, merchantId, id);
    if (!current) throw notFound("mall.goodsNotFound");
    const g =
      req.price === undefined ? undefined : (await this.deps.catalog.goods([current.goods_id])).get(current.goods_id);
    const high = req.price !== undefined && g ? highPrice(req.price, g, req.confirmHighPrice === true) : null;
    await withTx(this.deps.db, async (tx) => {
      const r = await config.updateSelfGoods(tx, merchantId, id, {
        ...(req.price !== undefined && { price: req.price }),
        ...(req.name !== undefined && { name: req.name }),
        ...(req.onSale !== undefined && { on_sale: req.onSale }),
        ...(req.sort !== undefined && { sort: req.sort }),
        updated_at: this.now(),
      });
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
    const { rows, total } = await config.selfGoodsPage(this.deps.db, merchantId, q);
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
      total,
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
    const selves = await config.selfGoodsCurrencies(this.deps.db, merchantId, selfIds);
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
        bid = await config.insertBag(tx, merchantId, values);
      } else {
        const cur = await config.lockBag(tx, merchantId, id);
        if (!cur) throw notFound("mall.bagNotFound");
        if (req.stock < cur.sold) throw invalid("mall.stockInvalid", "stock");
        await config.updateBagClearItems(tx, id, values);
        bid = id;
      }
      const merged = new Map<number, number>();
      for (const i of req.items) {
        merged.set(Number(i.selfGoodsId), (merged.get(Number(i.selfGoodsId)) ?? 0) + i.quantity);
      }
      await config.insertBagItems(
        tx,
        bid,
        [...merged].map(([selfGoodsId, quantity]) => ({ selfGoodsId, quantity })),
      );
      await audit(tx, {
        actorUserId: actor.userId,
        action: id === null ? "mall.bag.add" : "mall.bag.update",
        subjectType: "mall_gift_bag",
        subjectId: bid,
        detail: { price: req.price, stock: req.stock },
      });
      return bid;
    });
    const [bag] = await this.store.bagList(merchantId, { ids: [bagId] });
    if (!bag) throw notFound("mall.bagNotFound");
    return bag;
  }

  async bags(actor: Actor, q: { page: number; pageSize: number }): Promise<Page<GiftBag>> {
    const merchantId = tenantOf(actor);
    const total = await config.countBags(this.deps.db, merchantId);
    return {
      list: await this.store.bagList(merchantId, pageWindow(q)),
      total,
      page: q.page,
      pageSize: q.pageSize,
    };
  }

  /* ---------- settings: PrivateCodeMall, BrandShow ---------- */

  async settings(actor: Actor): Promise<MallSettings> {
    const s = await repo.settingsRow(this.deps.db, tenantOf(actor));
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
      await config.upsertSettings(tx, merchantId, values);
      await audit(tx, {
        actorUserId: actor.userId,
        action: "mall.settings",
        subjectType: "merchant",
        subjectId: merchantId,
        detail: { private: req.privateCode !== null },
      });
    });
    this.store.forgetSettings(merchantId);
    return this.settings(actor);
  }

  /* ---------- SMS packages and records ---------- */

  async smsSummary(actor: Actor): Promise<SmsSummary> {
    const me = await buyer(this.deps.db, tenantOf(actor));
    const now = this.now();
    const rows = await config.smsPackages(this.deps.db, me.id);
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
    const me = await buyer(this.deps.db, tenantOf(actor));
    const offer = MALL_SMS_PACKAGES.find((p) => p.code === req.code);
    if (!offer) throw invalid("mall.smsPackageUnknown", "code");
    const now = this.now();
    await withTx(this.deps.db, async (tx) => {
      const row = await config.insertSmsPackage(tx, me.id, {
        code: offer.code,
        count: offer.count,
        remaining: offer.count,
        price: offer.price,
        currency: me.currency,
        request_key: req.requestKey,
        bought_at: now,
        expires_at: new Date(now.getTime() + offer.days * 86_400_000),
      });
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
    const { rows, total } = await config.smsRecordsPage(this.deps.db, tenantOf(actor), q);
    return {
      list: rows.map((r) => ({
        id: String(r.id),
        appId: r.app_id,
        phone: r.phone,
        scene: r.scene,
        state: r.state,
        createdAt: iso(r.created_at),
      })),
      total,
      page: q.page,
      pageSize: q.pageSize,
    };
  }
}
