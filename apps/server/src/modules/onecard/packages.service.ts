import { CODE, type Lang, type OcGift, type OcPackage, type Page } from "@tessera/contracts";
import { withTx, type Db } from "../../db/tx";
import type { Actor } from "../../platform/auth/actor";
import type { Clock } from "../../platform/clock";
import { AppError } from "../../platform/http/errors";
import { merchantOfActor } from "../merchants";
import type { BagService } from "./bag.service";
import * as packages from "./packages.repo";
import { pageWindow } from "../../db/paginate";

/**
 * Gift packages (GiftPackage): a purchaser names a set of its card products and counts ("Spring box: two
 * 100-yuan coffee cards and one 50-yuan tea card") and sends it to many recipients at once, one gift per
 * mobile number (an SMS tells them) or per link. Each gift takes the purchaser's activated cards not yet
 * given, all recipients or none; a replayed request key returns the first sending. Claims and expiry are
 * the gifts' own (GiftReceiveRecord lists them, by package too).
 */
export class GiftPackages {
  constructor(private readonly deps: { db: Db; clock: Clock; bag: BagService }) {}

  async create(
    actor: Actor,
    req: { name: string; message: string; items: { productId: string; count: number }[] },
  ): Promise<OcPackage> {
    const me = await merchantOfActor(this.deps.db, actor);
    const items = mergeItems(req.items);
    const products = await packages.productCurrencies(
      this.deps.db,
      items.map((i) => i.productId),
    );
    if (products.length !== items.length || products.some((p) => p.currency !== me.currency)) {
      throw new AppError(CODE.NOT_FOUND, "onecard.productNotFound");
    }
    const row = {
      id: await packages.insertPackage(this.deps.db, {
        purchaser_id: me.id,
        name: req.name,
        message: req.message,
        items: JSON.stringify(items),
        created_by: actor.userId,
        created_at: this.deps.clock.now(),
      }),
    };
    return this.one(me.id, row.id);
  }

  async archive(actor: Actor, id: number): Promise<void> {
    const me = await merchantOfActor(this.deps.db, actor);
    const done = await packages.archivePackage(this.deps.db, id, me.id);
    if (!done) throw new AppError(CODE.NOT_FOUND, "onecard.packageNotFound");
  }

  async list(actor: Actor, q: { page: number; pageSize: number }): Promise<Page<OcPackage>> {
    const me = await merchantOfActor(this.deps.db, actor);
    const { offset, limit } = pageWindow(q);
    const { rows, total } = await packages.packagePage(this.deps.db, me.id, offset, limit);
    return {
      list: await Promise.all(rows.map((r) => this.one(me.id, r.id))),
      total,
      page: q.page,
      pageSize: q.pageSize,
    };
  }

  private async one(purchaserId: number, id: number): Promise<OcPackage> {
    const db = this.deps.db;
    const p = await packages.packageOf(db, id, purchaserId);
    if (!p) throw new AppError(CODE.NOT_FOUND, "onecard.packageNotFound");
    const products = await packages.productsOf(
      db,
      p.items.map((i) => i.productId),
    );
    const free = await packages.freeCounts(
      db,
      purchaserId,
      p.items.map((i) => i.productId),
      this.deps.clock.now(),
    );
    const gifts = await packages.giftCounts(db, id);
    const items = p.items.map((i) => {
      const product = products.find((x) => x.id === i.productId);
      return {
        productId: String(i.productId),
        productName: product?.name ?? "",
        count: i.count,
        faceValue: { amount: product?.face_value ?? 0, currency: product?.currency ?? "CNY" },
      };
    });
    return {
      id: String(p.id),
      name: p.name,
      message: p.message,
      items,
      value: {
        amount: items.reduce((sum, i) => sum + i.faceValue.amount * i.count, 0),
        currency: items[0]?.faceValue.currency ?? "CNY",
      },
      available: Math.min(...p.items.map((i) => Math.floor((free.get(i.productId) ?? 0) / i.count))),
      sent: Number(gifts.sent),
      claimed: Number(gifts.claimed),
      createdAt: new Date(p.created_at).toISOString(),
    };
  }

  /** Sends the package: one gift per phone and per link, from activated cards not yet given; all or nothing. */
  async send(
    actor: Actor,
    id: number,
    req: { phones: string[]; links: number; requestKey: string },
    lang: Lang,
  ): Promise<{ gifts: OcGift[] }> {
    const me = await merchantOfActor(this.deps.db, actor);
    const recipients: (string | null)[] = [...req.phones, ...Array.from({ length: req.links }, () => null)];
    const keys = recipients.map((_, i) => `${req.requestKey}:${i}`);
    const { giftIds, fresh } = await withTx(this.deps.db, async (tx) => {
      const earlier = await packages.giftsByKeys(tx, me.id, keys);
      if (earlier.length > 0) return { giftIds: earlier.map((g) => g.id), fresh: false };
      const p = await packages.livePackageOf(tx, id, me.id);
      if (!p) throw new AppError(CODE.NOT_FOUND, "onecard.packageNotFound");
      // Each product's cards for every recipient, taken under lock (SKIP LOCKED: a parallel sending takes others).
      const picked = new Map<number, { id: number; balance: number }[]>();
      for (const item of p.items) {
        const need = item.count * recipients.length;
        const cards = await packages.pickFreeCards(tx, me.id, item.productId, need, this.deps.clock.now());
        if (cards.length < need) {
          const product = await packages.productName(tx, item.productId);
          throw new AppError(CODE.CONFLICT, "onecard.packageShort", {
            product: product?.name ?? "",
            need,
            have: cards.length,
          });
        }
        picked.set(
          item.productId,
          cards.map((c) => ({ id: Number(c.id), balance: Number(c.balance) })),
        );
      }
      const ids: number[] = [];
      for (const [i, phone] of recipients.entries()) {
        const cards = p.items.flatMap((item) =>
          (picked.get(item.productId) ?? []).slice(i * item.count, (i + 1) * item.count),
        );
        ids.push(
          await this.deps.bag.giveCards(tx, actor, me, {
            cards,
            phone,
            message: p.message,
            requestKey: keys[i] ?? "",
            packageId: p.id,
          }),
        );
      }
      return { giftIds: ids, fresh: true };
    });
    if (fresh) {
      const perGift = (await this.one(me.id, id)).items.reduce((sum, i) => sum + i.count, 0);
      // All or nothing: a phone that cannot be told takes back the whole sending (link gifts too).
      const sent = giftIds.map((giftId, i) => ({ id: giftId, phone: recipients[i] ?? null }));
      await this.deps.bag.tellRecipients(actor, me, sent, perGift, lang);
    }
    const gifts = await this.deps.bag.gifts(actor, { page: 1, pageSize: 1000, ids: giftIds });
    return { gifts: gifts.list };
  }
}

/** The same product named twice counts once, with the counts added. */
function mergeItems(items: { productId: string; count: number }[]): { productId: number; count: number }[] {
  const merged = new Map<number, number>();
  for (const i of items) merged.set(Number(i.productId), (merged.get(Number(i.productId)) ?? 0) + i.count);
  return [...merged].map(([productId, count]) => ({ productId, count }));
}
