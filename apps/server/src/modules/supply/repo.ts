import type { CardQuery } from "@tessera/contracts";
import { sql, type Expression, type RawBuilder, type SqlBool } from "kysely";
import { copyField, copyFromText } from "../../db/copy";
import { pageWindow, paginate } from "../../db/paginate";
import { isUniqueViolation, type Executor } from "../../db/tx";

/** SQL of the supply module. Supplier queries take the supplier's merchant id; buyer queries the buyer's. */

export interface NewCard {
  rowNo: number;
  numberHash: string;
  numberMask: string;
  sealed: string;
  expiresOn: string | null;
}

/**
 * Inserts a chunk of cards with one statement (the rows as one JSON parameter, expanded server-side).
 * A number already stored for the goods is skipped; returns the row numbers that landed.
 */
export async function insertCards(
  tx: Executor,
  head: { merchantId: number; goodsId: number; batchId: number },
  cards: NewCard[],
): Promise<Set<number>> {
  if (cards.length === 0) return new Set();
  // One JSON parameter: cheaper to send and parse than five parallel arrays on the embedded engine.
  const rows = JSON.stringify(cards.map((c) => [c.rowNo, c.numberHash, c.numberMask, c.sealed, c.expiresOn]));
  const result = await sql<{ row_no: number }>`
    INSERT INTO supply_cards (merchant_id, goods_id, batch_id, row_no, number_hash, number_mask, sealed, expires_on)
    SELECT ${head.merchantId}::bigint, ${head.goodsId}::bigint, ${head.batchId}::bigint,
           (r->>0)::int, r->>1, r->>2, r->>3, (r->>4)::date
    FROM json_array_elements(${rows}::json) AS r
    ON CONFLICT (goods_id, number_hash) DO NOTHING
    RETURNING row_no`.execute(tx);
  return new Set(result.rows.map((r) => r.row_no));
}

/**
 * The embedded database's fast path: COPY the chunk straight into the table, all or nothing. Returns
 * false, having changed nothing, when a number is already stored for the goods (the unique index
 * refuses the COPY); the caller then lands the chunk with insertCards, which sorts out the duplicates.
 * A savepoint keeps the surrounding transaction usable after the refusal.
 *
 * The rows' three references (merchant, goods, batch) are checked once for the chunk instead of once per
 * row: the goods of that merchant and the batch of that goods are locked against deletion until commit,
 * then the per-row foreign-key triggers are switched off for the COPY alone, as a restore does (they cost
 * more than the rest of the insert together on the embedded engine). Returns false as well, so the checked
 * path reports the problem, if a parent is missing.
 */
export async function copyCards(
  tx: Executor,
  head: { merchantId: number; goodsId: number; batchId: number },
  cards: NewCard[],
): Promise<boolean> {
  const parents = await sql<{ n: number }>`
    SELECT (SELECT count(*) FROM (SELECT 1 FROM catalog_goods WHERE id = ${head.goodsId} AND merchant_id = ${head.merchantId} FOR KEY SHARE) g)
         + (SELECT count(*) FROM (SELECT 1 FROM supply_card_batches WHERE id = ${head.batchId} AND goods_id = ${head.goodsId} FOR KEY SHARE) b) AS n`.execute(
    tx,
  );
  if (Number(parents.rows[0]?.n) !== 2) return false;
  await sql`SAVEPOINT copy_cards`.execute(tx);
  try {
    await sql`SET LOCAL session_replication_role = replica`.execute(tx);
    // The text is written directly (no row arrays): a million-code import makes a million of these lines.
    const lead = `${head.merchantId}\t${head.goodsId}\t${head.batchId}\t`;
    let text = "";
    for (const c of cards) {
      text += `${lead}${c.rowNo}\t${copyField(c.numberHash)}\t${copyField(c.numberMask)}\t${copyField(c.sealed)}\t${copyField(c.expiresOn)}\n`;
    }
    await copyFromText(
      tx,
      "supply_cards",
      ["merchant_id", "goods_id", "batch_id", "row_no", "number_hash", "number_mask", "sealed", "expires_on"],
      text,
    );
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    // Also undoes the SET LOCAL above.
    await sql`ROLLBACK TO SAVEPOINT copy_cards`.execute(tx);
    return false;
  }
  await sql`SET LOCAL session_replication_role = origin`.execute(tx);
  await sql`RELEASE SAVEPOINT copy_cards`.execute(tx);
  return true;
}

/** Which batch (and row) first stored each of these numbers for the goods. */
export async function firstHolders(
  tx: Executor,
  goodsId: number,
  hashes: string[],
): Promise<Map<string, { batchId: number; rowNo: number }>> {
  if (hashes.length === 0) return new Map();
  const rows = await tx
    .selectFrom("supply_cards")
    .select(["number_hash", "batch_id", "row_no"])
    .where("goods_id", "=", goodsId)
    .where("number_hash", "in", hashes)
    .execute();
  return new Map(rows.map((r) => [r.number_hash, { batchId: r.batch_id, rowNo: r.row_no }]));
}

export async function insertRejects(
  tx: Executor,
  batchId: number,
  rejects: { rowNo: number; reason: string; numberMask: string }[],
): Promise<void> {
  if (rejects.length === 0) return;
  await sql`
    INSERT INTO supply_card_rejects (batch_id, row_no, reason, number_mask)
    SELECT ${batchId}::bigint, r, w, m FROM unnest(${rejects.map((x) => x.rowNo)}::int[],
      ${rejects.map((x) => x.reason)}::text[], ${rejects.map((x) => x.numberMask)}::text[]) AS t(r, w, m)
    ON CONFLICT DO NOTHING`.execute(tx);
}

/* ---------- batches ---------- */

export async function insertBatch(
  tx: Executor,
  b: { merchantId: number; goodsId: number; fileName: string; createdBy: number },
): Promise<number> {
  const row = await tx
    .insertInto("supply_card_batches")
    .values({ merchant_id: b.merchantId, goods_id: b.goodsId, file_name: b.fileName, created_by: b.createdBy })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function addToBatch(
  tx: Executor,
  batchId: number,
  d: { rows: number; imported: number; rejected: number },
): Promise<void> {
  await tx
    .updateTable("supply_card_batches")
    .set((eb) => ({
      total_rows: eb("total_rows", "+", d.rows),
      imported: eb("imported", "+", d.imported),
      rejected: eb("rejected", "+", d.rejected),
      heartbeat_at: sql<Date>`now()`,
    }))
    .where("id", "=", batchId)
    .execute();
}

/** The importer of a batch is alive (it is reading a slow upload). */
export async function beatBatch(db: Executor, batchId: number): Promise<void> {
  await db
    .updateTable("supply_card_batches")
    .set({ heartbeat_at: sql<Date>`now()` })
    .where("id", "=", batchId)
    .where("status", "=", "importing")
    .execute();
}

/**
 * Closes importing batches whose importer is gone (its heartbeat older than `staleSeconds` by the
 * database's clock, or than `before`), as failed with their counts and the reason to show; returns them.
 */
export async function closeInterruptedBatches(
  db: Executor,
  f: { staleSeconds: number; before: Date | null; at: Date },
): Promise<{ id: number; merchant_id: number; total_rows: number; imported: number; rejected: number }[]> {
  const { rows } = await sql<{
    id: number;
    merchant_id: number;
    total_rows: number;
    imported: number;
    rejected: number;
  }>`
    UPDATE supply_card_batches
       SET status = 'failed', finished_at = ${f.at},
           fail_reason = jsonb_build_object('key', 'supply.importInterrupted', 'params',
             jsonb_build_object('totalRows', total_rows, 'imported', imported, 'rejected', rejected))
     WHERE status = 'importing'
       AND (heartbeat_at < now() - make_interval(secs => ${f.staleSeconds})
            OR heartbeat_at < ${f.before}::timestamptz)
    RETURNING id, merchant_id, total_rows, imported, rejected`.execute(db);
  return rows;
}

export async function finishBatch(tx: Executor, batchId: number, status: "done" | "failed", at: Date): Promise<void> {
  await tx.updateTable("supply_card_batches").set({ status, finished_at: at }).where("id", "=", batchId).execute();
}

function batchBase(db: Executor, merchantId: number) {
  return db.selectFrom("supply_card_batches as b").selectAll("b").where("b.merchant_id", "=", merchantId);
}
export type BatchRow = Awaited<ReturnType<typeof findBatch>> & object;

export function findBatch(db: Executor, merchantId: number, batchId: number) {
  return batchBase(db, merchantId).where("b.id", "=", batchId).executeTakeFirst();
}

export async function listBatches(
  db: Executor,
  merchantId: number,
  q: { page: number; pageSize: number; goodsId?: number; status?: string },
) {
  let query = batchBase(db, merchantId);
  if (q.goodsId) query = query.where("b.goods_id", "=", q.goodsId);
  if (q.status) query = query.where("b.status", "=", q.status as "done");
  return paginate(query.orderBy("b.id", "desc"), query.clearSelect(), pageWindow(q));
}

export function rejectsPage(db: Executor, batchId: number, afterRow: number, limit: number) {
  return db
    .selectFrom("supply_card_rejects")
    .select(["row_no", "reason", "number_mask"])
    .where("batch_id", "=", batchId)
    .where("row_no", ">", afterRow)
    .orderBy("row_no")
    .limit(limit)
    .execute();
}

/** Imports per day and goods (sup/purchaseCard/reports). Days are UTC dates. */
export async function importReport(
  db: Executor,
  merchantId: number,
  q: { page: number; pageSize: number; from?: string; to?: string; goodsId?: number },
) {
  let query = db.selectFrom("supply_card_batches as b").where("b.merchant_id", "=", merchantId);
  if (q.from) {
    query = query.where(sql<string>`(b.created_at AT TIME ZONE 'UTC')::date`, ">=", sql<string>`${q.from}::date`);
  }
  if (q.to) query = query.where(sql<string>`(b.created_at AT TIME ZONE 'UTC')::date`, "<=", sql<string>`${q.to}::date`);
  if (q.goodsId) query = query.where("b.goods_id", "=", q.goodsId);
  const grouped = query
    .select([
      sql<string>`to_char((b.created_at AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD')`.as("day"),
      "b.goods_id",
      sql<number>`count(*)::int`.as("batches"),
      sql<number>`sum(b.imported)::int`.as("imported"),
      sql<number>`sum(b.rejected)::int`.as("rejected"),
    ])
    .groupBy([sql`1`, "b.goods_id"]);
  return paginate(
    grouped.orderBy(sql`1`, "desc").orderBy("b.goods_id", "desc"),
    db.selectFrom(grouped.as("x")),
    pageWindow(q),
  );
}

/* ---------- cards ---------- */

const cardColumns = [
  "c.id",
  "c.goods_id",
  "c.batch_id",
  "c.number_mask",
  "c.state",
  "c.order_id",
  "c.created_at",
  "c.sold_at",
  sql<string | null>`to_char(c.expires_on, 'YYYY-MM-DD')`.as("expires_on"),
] as const;

export async function listCards(
  db: Executor,
  merchantId: number,
  goodsId: number,
  q: CardQuery,
  numberHash: string | null,
) {
  let query = db
    .selectFrom("supply_cards as c")
    .where("c.merchant_id", "=", merchantId)
    .where("c.goods_id", "=", goodsId);
  if (q.state) query = query.where("c.state", "=", q.state);
  if (q.batchId) query = query.where("c.batch_id", "=", q.batchId);
  if (numberHash) query = query.where("c.number_hash", "=", numberHash);
  return paginate(query.select(cardColumns).orderBy("c.id", "desc"), query, pageWindow(q));
}
export type CardRow = Awaited<ReturnType<typeof listCards>>["rows"][number];

export async function listBoughtCards(
  db: Executor,
  buyerMerchantId: number,
  q: { page: number; pageSize: number; orderId?: string; goodsId?: number },
) {
  let query = db
    .selectFrom("supply_cards as c")
    .where("c.buyer_merchant_id", "=", buyerMerchantId)
    .where("c.state", "=", "sold");
  if (q.orderId) query = query.where("c.order_id", "=", q.orderId);
  if (q.goodsId) query = query.where("c.goods_id", "=", q.goodsId);
  return paginate(query.select(cardColumns).orderBy("c.id", "desc"), query, pageWindow(q));
}

/**
 * Takes up to `quantity` available, unexpired codes of a goods for one order in one statement: the
 * oldest ones that no concurrent order holds (SKIP LOCKED), marked sold. Returns their ids; fewer than
 * asked means stock ran short, and the caller's transaction must roll back. `today` is the platform day:
 * a code expiring today is still sold. The scan runs on supply_cards_available_idx; the expiry job moves
 * passed codes out of it each day, so the expiry condition (checked on the row that FOR UPDATE reads
 * anyway) skips at most the codes that expired since the job's last run.
 */
export async function takeAvailable(
  tx: Executor,
  goodsId: number,
  quantity: number,
  today: string,
  sale: { orderId: string; buyerMerchantId: number; at: Date },
): Promise<number[]> {
  const rows = await sql<{ id: number }>`
    WITH picked AS (
      SELECT id FROM supply_cards
      WHERE goods_id = ${goodsId} AND state = 'available' AND (expires_on IS NULL OR expires_on >= ${today}::date)
      ORDER BY id
      LIMIT ${quantity}
      FOR UPDATE SKIP LOCKED)
    UPDATE supply_cards c SET state = 'sold', order_id = ${sale.orderId}, buyer_merchant_id = ${sale.buyerMerchantId}, sold_at = ${sale.at}
    FROM picked WHERE c.id = picked.id
    RETURNING c.id`.execute(tx);
  return rows.rows.map((r) => Number(r.id));
}

/**
 * takeAvailable as CTEs of a caller's statement: `${name}` holds the ids of the codes taken, only when
 * `onlyIf` (a query) returns a row; `${name}_picked` is the SKIP LOCKED pick. The quantity is written
 * into the text (a checked integer): the statement is prepared, and with LIMIT as a parameter its generic
 * plan would expect a tenth of the goods' codes and hash-join them, so PostgreSQL would plan every
 * order anew instead (a statement per quantity is a handful of statements).
 */
export function takeAvailableCtes(
  name: string,
  goodsId: number,
  quantity: number,
  today: string,
  sale: { orderId: string; buyerMerchantId: number; at: Date },
  onlyIf: RawBuilder<unknown>,
): RawBuilder<unknown> {
  const ref = sql.raw(name);
  const picked = sql.raw(`${name}_picked`);
  return sql`${picked} AS (
      SELECT id FROM supply_cards
      WHERE goods_id = ${goodsId}::bigint AND state = 'available' AND (expires_on IS NULL OR expires_on >= ${today}::date) AND EXISTS (${onlyIf})
      ORDER BY id
      LIMIT ${sql.lit(quantity)}
      FOR UPDATE SKIP LOCKED),
    ${ref} AS (
      UPDATE supply_cards c SET state = 'sold', order_id = ${sale.orderId},
        buyer_merchant_id = ${sale.buyerMerchantId}::bigint, sold_at = ${sale.at}::timestamptz
      WHERE c.id = ANY(ARRAY(SELECT id FROM ${picked}))
      RETURNING c.id)`;
}

/** Locks a supplier's available codes of a goods for voiding; returns the ids it could take. */
export async function lockAvailable(
  tx: Executor,
  merchantId: number,
  goodsId: number,
  ids: number[],
): Promise<number[]> {
  const rows = await tx
    .selectFrom("supply_cards")
    .select("id")
    .where("merchant_id", "=", merchantId)
    .where("goods_id", "=", goodsId)
    .where("id", "in", ids)
    .where("state", "=", "available")
    .forUpdate()
    .execute();
  return rows.map((r) => r.id);
}

/**
 * Available codes whose expiry day is before `today` (YYYY-MM-DD, platform day), at most `limit`, from
 * supply_cards_expiry_idx; rows an order holds are skipped (an order never takes such a code anyway).
 */
export async function lockExpired(
  tx: Executor,
  today: string,
  limit: number,
): Promise<{ id: number; goodsId: number }[]> {
  const rows = await sql<{ id: number; goods_id: number }>`
    SELECT id, goods_id FROM supply_cards
    WHERE state = 'available' AND expires_on IS NOT NULL AND expires_on < ${today}::date
    ORDER BY expires_on, goods_id
    LIMIT ${limit}
    FOR UPDATE SKIP LOCKED`.execute(tx);
  return rows.rows.map((r) => ({ id: Number(r.id), goodsId: Number(r.goods_id) }));
}

export async function markExpired(tx: Executor, ids: number[], at: Date): Promise<void> {
  await tx
    .updateTable("supply_cards")
    .set({ state: "expired", expired_at: at })
    .where("id", "in", ids)
    .where("state", "=", "available")
    .execute();
}

export async function markVoid(tx: Executor, ids: number[], at: Date): Promise<void> {
  await tx.updateTable("supply_cards").set({ state: "void", voided_at: at }).where("id", "in", ids).execute();
}

/** A buyer's own sold codes, sealed, for revealing. */
export function boughtSealed(tx: Executor, buyerMerchantId: number, ids: number[]) {
  return tx
    .selectFrom("supply_cards as c")
    .select([
      "c.id",
      "c.goods_id",
      "c.sealed",
      "c.order_id",
      sql<string | null>`to_char(c.expires_on, 'YYYY-MM-DD')`.as("expires_on"),
    ])
    .where("c.buyer_merchant_id", "=", buyerMerchantId)
    .where("c.state", "=", "sold")
    .where("c.id", "in", ids)
    .orderBy("c.id")
    .execute();
}

/** How many codes of a goods are available (for checking the stock counter). */
export async function countAvailable(db: Executor, goodsId: number): Promise<number> {
  const r = await db
    .selectFrom("supply_cards")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("goods_id", "=", goodsId)
    .where("state", "=", "available")
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** The goods a purchaser bought codes of, with how many, most recent first. */
export async function boughtGoods(
  db: Executor,
  buyerMerchantId: number,
  q: {
    page: number;
    pageSize: number;
    from?: Date | undefined;
    until?: Date | undefined;
    matching?: Expression<SqlBool> | undefined;
  },
) {
  let base = db.selectFrom("supply_cards").where("buyer_merchant_id", "=", buyerMerchantId).where("state", "=", "sold");
  if (q.from) base = base.where("sold_at", ">=", q.from);
  if (q.until) base = base.where("sold_at", "<", q.until);
  if (q.matching) base = base.where(q.matching);
  const { offset, limit } = pageWindow(q);
  const rows = await base
    .select(["goods_id", sql<number>`count(*)::int`.as("bought"), sql<Date>`max(sold_at)`.as("last_bought_at")])
    .groupBy("goods_id")
    .orderBy(sql`max(sold_at)`, "desc")
    .orderBy("goods_id", "desc")
    .limit(limit)
    .offset(offset)
    .execute();
  const total = await base.select(sql<number>`count(DISTINCT goods_id)::int`.as("n")).executeTakeFirstOrThrow();
  return { rows, total: Number(total.n) };
}
