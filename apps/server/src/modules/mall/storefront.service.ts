import {
  CODE,
  type GiftBag,
  type Lang,
  type MallTesters,
  type Merchandise,
  type Page,
  type SendCodeReply,
  type Storefront,
  type StoreGoods,
} from "@tessera/contracts";
import { withTx } from "../../db/tx";
import type { Actor } from "../../platform/auth/actor";
import { tenantOf } from "../../platform/auth/guard";
import { audit } from "../../platform/audit";
import { AppError, conflict } from "../../platform/http/errors";
import { customerCards, customerCardsElsewhere, type Customer } from "../onecard";
import * as repo from "./repo";
import {
  SHORT_CACHE_MS,
  ShortCache,
  deliveryOf,
  iso,
  maskNumber,
  money,
  notFound,
  type MallAppearance,
  type MallCallPurpose,
  type MallContext,
  type MallDeps,
} from "./shared";
import * as store from "./storefront.repo";
import { pageWindow } from "../../db/paginate";

/**
 * What the customer browses: the mall a call is for (its released or experience version, the testers who
 * may open the latter), the storefront, its goods and gift bags, the customer's usable cards and the login
 * code. Keeps for a few seconds what every storefront call reads; checkout and the back-office use it too.
 */
export class StorefrontService {
  private readonly released = new ShortCache<string, MallAppearance | null>(SHORT_CACHE_MS);
  private readonly storeSettings = new ShortCache<number, Awaited<ReturnType<typeof repo.settingsRow>>>(SHORT_CACHE_MS);
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
  releasedAppearance(appId: string): Promise<MallAppearance | null> {
    return this.released.get(
      appId,
      () => this.deps.appearance(appId, "release"),
      (a) => a !== null,
    );
  }

  /** The settings as the storefront's calls see them (kept a few seconds; the merchant's save clears them). */
  private storeSettingsRow(merchantId: number) {
    return this.storeSettings.get(merchantId, () => repo.settingsRow(this.deps.db, merchantId));
  }

  /** The merchant saved the settings: the storefront reads them again at once (in this process). */
  forgetSettings(merchantId: number): void {
    this.storeSettings.delete(merchantId);
  }

  /** Catalogue goods by id for the storefront and checkout (name, brand, kind, face value), kept a few seconds each. */
  async goodsOf(ids: number[]): Promise<Map<number, Merchandise>> {
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

  /** The merchant's gift bags as the back-office and the storefront show them (`goodsOf`: how catalogue goods are read). */
  async bagList(
    merchantId: number,
    q: { ids?: number[]; offset?: number; limit?: number; onSale?: boolean },
    goodsOf: (ids: number[]) => Promise<Map<number, Merchandise>> = (ids) => this.deps.catalog.goods(ids),
  ): Promise<GiftBag[]> {
    const rows = await repo.giftBags(this.deps.db, merchantId, q);
    if (rows.length === 0) return [];
    const items = await repo.giftBagItemsWithGoods(
      this.deps.db,
      rows.map((r) => r.id),
    );
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

  /** The customer's login code, counted against the mall's SMS packages: none left, none sent. */
  async sendLoginCode(m: MallContext, phone: string, lang: Lang): Promise<SendCodeReply> {
    await this.unlocked(m);
    const merchantId = m.appearance.merchantId;
    const now = this.now();
    const rec = await withTx(this.deps.db, async (tx) => {
      const pkg = await repo.takeSms(tx, merchantId, now);
      if (pkg === undefined) throw conflict("mall.smsExhausted");
      return await store.insertLoginSms(tx, merchantId, { appId: m.appearance.appId, phone, packageId: pkg, now });
    });
    try {
      return await this.deps.sendLoginCode(phone, lang);
    } catch (err) {
      // Not sent (too frequent, the gateway refused): the SMS is not counted.
      await withTx(this.deps.db, async (tx) => {
        await store.returnSms(tx, rec.package_id, rec.id);
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
          topUpAccountType: "none",
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
      const rows = await store.goodsOnSale(this.deps.db, merchantId, q.keyword);
      const goods = await this.goodsOf(rows.map((r) => r.goods_id));
      for (const r of rows) {
        const g = goods.get(r.goods_id);
        out.push({
          id: String(r.id),
          kind: "goods",
          name: r.name,
          brandName: g?.brandName ?? "",
          delivery: (g && deliveryOf(g.businessType)) ?? "code",
          topUpAccountType: g?.topUpAccountType ?? "none",
          price: money(r.price, r.currency),
          faceValue: money(g?.faceValue ?? 0, r.currency),
          available: true,
          description: "",
          items: [],
          validDays: null,
        });
      }
    }
    const { offset, limit } = pageWindow(q);
    return {
      list: out.slice(offset, offset + limit),
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

  /** The customer's cards that this mall cannot take, by brand: where they do pay. */
  async cardsElsewhere(m: MallContext, customer: Customer) {
    await this.unlocked(m);
    const rows = await customerCardsElsewhere(this.deps.db, customer.id, m.appearance.merchantId);
    return rows.map((r) => ({
      brandName: r.name,
      cards: Number(r.cards),
      balance: money(Number(r.balance), r.currency),
    }));
  }
}
