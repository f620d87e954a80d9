import { CODE, type Lang, type OcGift, type OcPackage, type Page } from "@tessera/contracts";
import { sql } from "kysely";
import { withTx, type Db, type Executor } from "../../db/tx";
import type { Actor } from "../../platform/auth/actor";
import type { Clock } from "../../platform/clock";
import { AppError } from "../../platform/http/errors";
import { merchantOfActor } from "../merchants";
import type { BagService } from "./bag.service";

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
    const products = await this.deps.db
      .selectFrom("onecard_products")
      .select(["id", "currency"])
      .where(
        "id",
        "in",
        items.map((i) => i.productId),
      )
      .execute();
    if (products.length !== items.length || products.some((p) => p.currency !== me.currency)) {
      throw new AppError(CODE.NOT_FOUND, "onecard.productNotFound");
    }
    const row = await this.deps.db
      .insertInto("onecard_gift_packages")
      .values({
        purchaser_id: me.id,
        name: req.name,
        message: req.message,
        items: JSON.stringify(items),
        created_by: actor.userId,
        created_at: this.deps.clock.now(),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return this.one(me.id, row.id);
  }

  async archive(actor: Actor, id: number): Promise<void> {
    const me = await merchantOfActor(this.deps.db, actor);
    const done = await this.deps.db
      .updateTable("onecard_gift_packages")
      .set({ archived: true })
      .where("id", "=", id)
      .where("purchaser_id", "=", me.id)
      .executeTakeFirst();
    if (Number(done.numUpdatedRows) === 0) throw new AppError(CODE.NOT_FOUND, "onecard.packageNotFound");
  }

  async list(actor: Actor, q: { page: number; pageSize: number }): Promise<Page<OcPackage>> {
    const me = await merchantOfActor(this.deps.db, actor);
    const base = this.deps.db
      .selectFrom("onecard_gift_packages")
      .where("purchaser_id", "=", me.id)
      .where("archived", "=", false);
    const [rows, count] = await Promise.all([
      base
        .select("id")
        .orderBy("id", "desc")
        .offset((q.page - 1) * q.pageSize)
        .limit(q.pageSize)
        .execute(),
      base.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
    ]);
    return {
      list: await Promise.all(rows.map((r) => this.one(me.id, r.id))),
      total: Number(count.n),
      page: q.page,
      pageSize: q.pageSize,
    };
  }

  private async one(purchaserId: number, id: number): Promise<OcPackage> {
    const db = this.deps.db;
    const p = await db
      .selectFrom("onecard_gift_packages")
      .selectAll()
      .where("id", "=", id)
      .where("purchaser_id", "=", purchaserId)
      .executeTakeFirst();
    if (!p) throw new AppError(CODE.NOT_FOUND, "onecard.packageNotFound");
    const products = await db
      .selectFrom("onecard_products")
      .select(["id", "name", "face_value", "currency"])
      .where(
        "id",
        "in",
        p.items.map((i) => i.productId),
      )
      .execute();
    const free = await freeCounts(
      db,
      purchaserId,
      p.items.map((i) => i.productId),
      this.deps.clock.now(),
    );
    const gifts = await db
      .selectFrom("onecard_gifts")
      .select((eb) => [eb.fn.countAll<string>().as("sent"), eb.fn.count<string>("claimed_at").as("claimed")])
      .where("package_id", "=", id)
      .executeTakeFirstOrThrow();
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
      const earlier = await tx
        .selectFrom("onecard_gifts")
        .select("id")
        .where("purchaser_id", "=", me.id)
        .where("request_key", "in", keys)
        .execute();
      if (earlier.length > 0) return { giftIds: earlier.map((g) => g.id), fresh: false };
      const p = await tx
        .selectFrom("onecard_gift_packages")
        .selectAll()
        .where("id", "=", id)
        .where("purchaser_id", "=", me.id)
        .where("archived", "=", false)
        .executeTakeFirst();
      if (!p) throw new AppError(CODE.NOT_FOUND, "onecard.packageNotFound");
      // Each product's cards for every recipient, taken under lock (SKIP LOCKED: a parallel sending takes others).
      const picked = new Map<number, { id: number; balance: number }[]>();
      for (const item of p.items) {
        const need = item.count * recipients.length;
        const cards = await sql<{ id: number; balance: number }>`
          SELECT id, balance FROM onecard_cards
          WHERE owner_id = ${me.id} AND product_id = ${item.productId} AND state = 'activated' AND customer_id IS NULL AND gift_id IS NULL
            AND (expires_at IS NULL OR expires_at > ${this.deps.clock.now()})
          ORDER BY id LIMIT ${need} FOR UPDATE SKIP LOCKED`.execute(tx);
        if (cards.rows.length < need) {
          const product = await tx
            .selectFrom("onecard_products")
            .select("name")
            .where("id", "=", item.productId)
            .executeTakeFirst();
          throw new AppError(CODE.CONFLICT, "onecard.packageShort", {
            product: product?.name ?? "",
            need,
            have: cards.rows.length,
          });
        }
        picked.set(
          item.productId,
          cards.rows.map((c) => ({ id: Number(c.id), balance: Number(c.balance) })),
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
      for (const phone of req.phones) await this.deps.bag.tellRecipient(me, phone, perGift, lang);
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

/** Activated cards of each product the purchaser holds and has not given. */
async function freeCounts(
  db: Executor,
  purchaserId: number,
  productIds: number[],
  now: Date,
): Promise<Map<number, number>> {
  if (productIds.length === 0) return new Map();
  const rows = await db
    .selectFrom("onecard_cards")
    .select(["product_id", (eb) => eb.fn.countAll<string>().as("n")])
    .where("owner_id", "=", purchaserId)
    .where("product_id", "in", productIds)
    .where("state", "=", "activated")
    .where("customer_id", "is", null)
    .where("gift_id", "is", null)
    .where((eb) => eb.or([eb("expires_at", "is", null), eb("expires_at", ">", now)]))
    .groupBy("product_id")
    .execute();
  return new Map(rows.map((r) => [r.product_id, Number(r.n)]));
}
