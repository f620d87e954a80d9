import { sql, type Insertable, type RawBuilder } from "kysely";
import { paginate } from "../../db/paginate";
import type { Executor } from "../../db/tx";
import type { OnecardReturnsTable, OnecardSalesTable } from "./tables";

/** SQL of card sales: purchasers' purchases, returns, extractions and their report. Every read names the purchaser. */

/** Whether a condition on constants holds (purchasing's may-buy rule, evaluated for one brand). */
export async function holds(tx: Executor, condition: RawBuilder<boolean>): Promise<boolean> {
  const row = await sql<{
    ok: boolean | null;
  }>`SELECT ${condition} AS ok`.execute(tx);
  return row.rows[0]?.ok === true;
}

export function saleByKey(tx: Executor, purchaserId: number, requestKey: string) {
  return tx
    .selectFrom("onecard_sales")
    .select("id")
    .where("purchaser_id", "=", purchaserId)
    .where("request_key", "=", requestKey)
    .executeTakeFirst();
}

export function saleByKeyOrThrow(tx: Executor, purchaserId: number, requestKey: string) {
  return tx
    .selectFrom("onecard_sales")
    .select("id")
    .where("purchaser_id", "=", purchaserId)
    .where("request_key", "=", requestKey)
    .executeTakeFirstOrThrow();
}

/** A new sale's id, or undefined when the purchaser's request key made one already. */
export async function insertSale(tx: Executor, row: Insertable<OnecardSalesTable>): Promise<number | undefined> {
  const sale = await tx
    .insertInto("onecard_sales")
    .values(row)
    .onConflict((oc) => oc.columns(["purchaser_id", "request_key"]).doNothing())
    .returning("id")
    .executeTakeFirst();
  return sale?.id;
}

/** Takes up to `quantity` of the product's cards in stock for a sale (SKIP LOCKED: parallel sales take others). */
export async function takeCards(
  tx: Executor,
  t: { productId: number; quantity: number; ownerId: number; saleId: number; salePrice: number },
): Promise<{ id: number }[]> {
  const taken = await sql<{ id: number }>`
        WITH pick AS MATERIALIZED (
          SELECT id FROM onecard_cards WHERE product_id = ${t.productId} AND state = 'issued' ORDER BY id LIMIT ${t.quantity} FOR UPDATE SKIP LOCKED
        )
        UPDATE onecard_cards c SET state = 'sold', owner_id = ${t.ownerId}, sale_id = ${t.saleId}, sale_price = ${t.salePrice}
        FROM pick WHERE c.id = pick.id AND c.state = 'issued'
        RETURNING c.id`.execute(tx);
  return taken.rows;
}

/** Cards of the product still in stock. */
export async function stockLeft(tx: Executor, productId: number): Promise<number> {
  const left = await tx
    .selectFrom("onecard_cards")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("product_id", "=", productId)
    .where("state", "=", "issued")
    .executeTakeFirstOrThrow();
  return Number(left.n);
}

export async function salePage(db: Executor, purchaserId: number, offset: number, limit: number, id?: number) {
  let base = db
    .selectFrom("onecard_sales as s")
    .innerJoin("onecard_products as p", "p.id", "s.product_id")
    .innerJoin("merchants as m", "m.id", "s.brander_id")
    .where("s.purchaser_id", "=", purchaserId);
  if (id !== undefined) base = base.where("s.id", "=", id);
  return paginate(
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
      .orderBy("s.id", "desc"),
    base,
    { offset, limit },
  );
}

export function returnByKey(tx: Executor, purchaserId: number, requestKey: string) {
  return tx
    .selectFrom("onecard_returns")
    .select("id")
    .where("purchaser_id", "=", purchaserId)
    .where("request_key", "=", requestKey)
    .executeTakeFirst();
}

export async function insertReturn(tx: Executor, row: Insertable<OnecardReturnsTable>): Promise<number> {
  const ret = await tx.insertInto("onecard_returns").values(row).returning("id").executeTakeFirstOrThrow();
  return ret.id;
}

export async function markReturned(tx: Executor, ids: number[], returnId: number): Promise<void> {
  await tx
    .updateTable("onecard_cards")
    .set({ state: "returned", return_id: returnId })
    .where("id", "in", ids)
    .execute();
}

export function returnById(db: Executor, id: number) {
  return db.selectFrom("onecard_returns").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
}

export async function returnPage(db: Executor, purchaserId: number, offset: number, limit: number) {
  const base = db.selectFrom("onecard_returns").where("purchaser_id", "=", purchaserId);
  return paginate(base.selectAll().orderBy("id", "desc"), base, { offset, limit });
}

export async function markExtracted(tx: Executor, ids: number[], now: Date): Promise<void> {
  await tx.updateTable("onecard_cards").set({ extracted_at: now }).where("id", "in", ids).execute();
}

export async function insertExtraction(
  tx: Executor,
  row: { purchaser_id: number; card_ids: number[]; created_by: number; created_at: Date },
): Promise<number> {
  const ex = await tx.insertInto("onecard_extractions").values(row).returning("id").executeTakeFirstOrThrow();
  return ex.id;
}

export async function extractionPage(db: Executor, purchaserId: number, offset: number, limit: number) {
  const base = db
    .selectFrom("onecard_extractions as e")
    .innerJoin("users as u", "u.id", "e.created_by")
    .where("e.purchaser_id", "=", purchaserId);
  return paginate(base.select(["e.id", "e.card_ids", "e.created_at", "u.email"]).orderBy("e.id", "desc"), base, {
    offset,
    limit,
  });
}

/** A purchaser's sales, activations, returns and redemptions per period (platform days, UTC+8). */
export async function reportRows(
  db: Executor,
  purchaserId: number,
  unit: "day" | "week" | "month",
  from: string,
  to: string,
) {
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
        SELECT date_trunc(${unit}, s.created_at AT TIME ZONE 'Asia/Shanghai') AS p, s.quantity AS sc,
          s.quantity * s.unit_price AS sa, 0 AS ac, 0::bigint AS av, 0 AS rc, 0::bigint AS ra, 0::bigint AS rd
          FROM onecard_sales s WHERE s.purchaser_id = ${purchaserId}
        UNION ALL
        SELECT date_trunc(${unit}, c.activated_at AT TIME ZONE 'Asia/Shanghai'), 0, 0, 1, c.face_value, 0, 0, 0
          FROM onecard_cards c WHERE c.owner_id = ${purchaserId} AND c.activated_at IS NOT NULL
        UNION ALL
        SELECT date_trunc(${unit}, r.created_at AT TIME ZONE 'Asia/Shanghai'), 0, 0, 0, 0, r.count, r.amount, 0
          FROM onecard_returns r WHERE r.purchaser_id = ${purchaserId}
        UNION ALL
        SELECT date_trunc(${unit}, v.created_at AT TIME ZONE 'Asia/Shanghai'), 0, 0, 0, 0, 0, 0, -v.amount
          FROM onecard_moves v JOIN onecard_cards c ON c.id = v.card_id WHERE c.owner_id = ${purchaserId} AND v.kind IN ('redeem', 'capture', 'refund')
      )
      SELECT to_char(p, 'YYYY-MM-DD') AS period, SUM(sc)::text AS sold_count, SUM(sa)::text AS sold_amount, SUM(ac)::text AS activated_count,
             SUM(av)::text AS activated_value, SUM(rc)::text AS returned_count, SUM(ra)::text AS returned_amount, SUM(rd)::text AS redeemed
      FROM ev WHERE p >= ${from}::date AND p < ${to}::date + 1 GROUP BY p ORDER BY p DESC LIMIT 1000`.execute(db);
  return rows.rows;
}

/** What the purchaser's activated cards still hold, and how many hold anything. */
export async function outstanding(db: Executor, purchaserId: number) {
  const out = await sql<{ outstanding: string; n: string }>`
      SELECT COALESCE(SUM(balance), 0)::text AS outstanding, COUNT(*) FILTER (WHERE balance > 0)::text AS n
      FROM onecard_cards WHERE owner_id = ${purchaserId} AND state = 'activated'`.execute(db);
  return out.rows[0];
}
