import type { Insertable } from "kysely";
import type { Executor, Tx } from "../../db/tx";
import type { MallTables } from "./tables";

/**
 * The mall's SQL, on its own tables only. What it needs of other modules' rows comes through their
 * index.ts: the merchant (merchants), the customer's cards and phone (onecard), the codes the merchant
 * bought (supply's buyer stock: taking codes for a delivery marks them handed on there).
 */

export async function touchMember(db: Executor, merchantId: number, customerId: number, now: Date): Promise<void> {
  await db
    .insertInto("mall_members")
    .values({ merchant_id: merchantId, customer_id: customerId, first_seen_at: now, last_seen_at: now })
    .onConflict((oc) => oc.columns(["merchant_id", "customer_id"]).doUpdateSet({ last_seen_at: now }))
    .execute();
}

/**
 * One SMS of the merchant's packages, the soonest to expire first; undefined when none remain. Each
 * candidate is taken with a conditional update (waiting for a concurrent send's lock, never skipping
 * it), so parallel sends share one package until it is empty.
 */
export async function takeSms(tx: Tx, merchantId: number, now: Date): Promise<number | undefined> {
  const live = await tx
    .selectFrom("mall_sms_packages")
    .select("id")
    .where("merchant_id", "=", merchantId)
    .where("remaining", ">", 0)
    .where("expires_at", ">", now)
    .orderBy("expires_at")
    .orderBy("id")
    .limit(20)
    .execute();
  for (const p of live) {
    const r = await tx
      .updateTable("mall_sms_packages")
      .set((eb) => ({ remaining: eb("remaining", "-", 1) }))
      .where("id", "=", p.id)
      .where("remaining", ">", 0)
      .returning("id")
      .executeTakeFirst();
    if (r) return r.id;
  }
  return undefined;
}

/** A delivery row as a checkout writes it. */
export type NewDelivery = Insertable<MallTables["mall_deliveries"]>;

/**
 * A checkout's deliveries in one statement with what goes with them: the customer seen in this mall
 * (mall_members) and, when the answer shows the codes in full, the audit row of that reveal (as the
 * order's page writes it). Returns the deliveries in id order.
 */
export async function insertDeliveries(
  tx: Tx,
  rows: NewDelivery[],
  member: { merchantId: number; customerId: number; now: Date },
  reveal: { orderId: number; customerId: number } | null,
) {
  const withMember = tx.with("member", (db) =>
    db
      .insertInto("mall_members")
      .values({
        merchant_id: member.merchantId,
        customer_id: member.customerId,
        first_seen_at: member.now,
        last_seen_at: member.now,
      })
      .onConflict((oc) => oc.columns(["merchant_id", "customer_id"]).doUpdateSet({ last_seen_at: member.now })),
  );
  const cols = ["id", "order_id", "name", "kind", "state", "card_id", "account", "expires_at"] as const;
  const inserted = reveal
    ? await withMember
        .with("revealed", (db) =>
          db.insertInto("audit_log").values({
            actor_user_id: null,
            action: "mall.codes.reveal",
            subject_type: "mall_order",
            subject_id: String(reveal.orderId),
            detail: JSON.stringify({ customerId: reveal.customerId }),
          }),
        )
        .insertInto("mall_deliveries")
        .values(rows)
        .returning(cols)
        .execute()
    : await withMember.insertInto("mall_deliveries").values(rows).returning(cols).execute();
  return inserted.sort((a, b) => a.id - b.id);
}

/* ---------- what the storefront and the back-office both read ---------- */

/** The merchant's mall settings row (private code, brand show), or undefined. */
export async function settingsRow(db: Executor, merchantId: number) {
  return db.selectFrom("mall_settings").selectAll().where("merchant_id", "=", merchantId).executeTakeFirst();
}

/** The merchant's gift bags, newest first: by ids, or a page; on sale only when asked. */
export async function giftBags(
  db: Executor,
  merchantId: number,
  q: { ids?: number[]; offset?: number; limit?: number; onSale?: boolean },
) {
  let base = db.selectFrom("mall_gift_bags").selectAll().where("merchant_id", "=", merchantId);
  if (q.ids) base = base.where("id", "in", q.ids.length ? q.ids : [0]);
  if (q.onSale) base = base.where("on_sale", "=", true);
  return base
    .orderBy("id", "desc")
    .offset(q.offset ?? 0)
    .limit(q.limit ?? 1000)
    .execute();
}

/** The items of these gift bags with their own goods' name, price and catalogue goods. */
export async function giftBagItemsWithGoods(db: Executor, bagIds: number[]) {
  return db
    .selectFrom("mall_gift_bag_items as i")
    .innerJoin("mall_self_goods as s", "s.id", "i.self_goods_id")
    .select(["i.bag_id", "i.self_goods_id", "i.quantity", "s.name", "s.price", "s.goods_id"])
    .where("i.bag_id", "in", bagIds)
    .orderBy("i.self_goods_id")
    .execute();
}

/* ---------- testers (the experience version's audience) ---------- */

export async function isTester(db: Executor, merchantId: number, phone: string): Promise<boolean> {
  return Boolean(
    await db
      .selectFrom("mall_testers")
      .select("phone")
      .where("merchant_id", "=", merchantId)
      .where("phone", "=", phone)
      .executeTakeFirst(),
  );
}

export async function testers(db: Executor, merchantId: number): Promise<string[]> {
  return (
    await db
      .selectFrom("mall_testers")
      .select("phone")
      .where("merchant_id", "=", merchantId)
      .orderBy("created_at")
      .orderBy("phone")
      .execute()
  ).map((r) => r.phone);
}

/** Replaces the merchant's testers with these phones (in the caller's transaction). */
export async function replaceTesters(tx: Tx, merchantId: number, phones: string[]): Promise<void> {
  await tx.deleteFrom("mall_testers").where("merchant_id", "=", merchantId).execute();
  if (phones.length > 0) {
    await tx
      .insertInto("mall_testers")
      .values(phones.map((phone) => ({ merchant_id: merchantId, phone })))
      .execute();
  }
}

/** What a mall sells and how many login SMS it has left (the home's setup checklist, the release warning). */
export async function mallStock(db: Executor, merchantId: number, now: Date): Promise<{ onSale: number; sms: number }> {
  const [goods, bags, sms] = await Promise.all([
    db
      .selectFrom("mall_self_goods")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("merchant_id", "=", merchantId)
      .where("on_sale", "=", true)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("mall_gift_bags")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("merchant_id", "=", merchantId)
      .where("on_sale", "=", true)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("mall_sms_packages")
      .select((eb) => eb.fn.sum<number>("remaining").as("n"))
      .where("merchant_id", "=", merchantId)
      .where("expires_at", ">", now)
      .executeTakeFirstOrThrow(),
  ]);
  return { onSale: Number(goods.n) + Number(bags.n), sms: Number(sms.n ?? 0) };
}
