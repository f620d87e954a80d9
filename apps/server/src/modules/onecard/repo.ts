import { sql, type Expression, type RawBuilder } from "kysely";
import { copyField, copyFromText } from "../../db/copy";
import { paginate } from "../../db/paginate";
import type { Executor } from "../../db/tx";
import type { OnecardCardState } from "./tables";

/** SQL of the onecard module. Every read of merchant rows names the merchant (brand or purchaser) it is for. */

export type Currency = "CNY" | "USD" | "HKD";

export function productOfBrand(db: Executor, id: number, branderId: number) {
  return db
    .selectFrom("onecard_products")
    .selectAll()
    .where("id", "=", id)
    .where("brander_id", "=", branderId)
    .executeTakeFirst();
}
export function productById(db: Executor, id: number) {
  return db.selectFrom("onecard_products").selectAll().where("id", "=", id).executeTakeFirst();
}
export type ProductRow = NonNullable<Awaited<ReturnType<typeof productById>>>;

/** Products with their issued and in-stock counts; a brand's own (branderId) or every brand's on sale. */
export async function productPage(
  db: Executor,
  f: {
    branderId?: number;
    buyable?: (brander: Expression<unknown>) => RawBuilder<boolean>;
    onSaleOnly?: boolean;
    onSale?: boolean | undefined;
    currency?: Currency;
    kind?: string | undefined;
    keyword?: string | undefined;
    offset: number;
    limit: number;
  },
) {
  let q = db.selectFrom("onecard_products as p").innerJoin("merchants as m", "m.id", "p.brander_id");
  if (f.branderId !== undefined) q = q.where("p.brander_id", "=", f.branderId);
  if (f.buyable) q = q.where(f.buyable(sql.ref("p.brander_id")));
  if (f.onSaleOnly) q = q.where("p.on_sale", "=", true);
  if (f.onSale !== undefined) q = q.where("p.on_sale", "=", f.onSale);
  if (f.currency) q = q.where("p.currency", "=", f.currency);
  if (f.kind) q = q.where("p.kind", "=", f.kind as "face_value");
  if (f.keyword) q = q.where("p.name", "ilike", `%${f.keyword.replace(/[%_\\]/g, "\\$&")}%`);
  return paginate(
    q
      .selectAll("p")
      .select("m.name as brander_name")
      .select((eb) => [
        eb
          .selectFrom("onecard_cards as c")
          .whereRef("c.product_id", "=", "p.id")
          .where("c.state", "=", "issued")
          .select((e) => e.fn.countAll<string>().as("n"))
          .as("stock"),
        eb
          .selectFrom("onecard_cards as c")
          .whereRef("c.product_id", "=", "p.id")
          .select((e) => e.fn.countAll<string>().as("n"))
          .as("issued"),
      ])
      .orderBy("p.id", "desc"),
    q,
    f,
  );
}

export async function batchPage(db: Executor, branderId: number, offset: number, limit: number, productId?: number) {
  let q = db
    .selectFrom("onecard_batches as b")
    .innerJoin("onecard_products as p", "p.id", "b.product_id")
    .where("b.brander_id", "=", branderId);
  if (productId !== undefined) q = q.where("b.product_id", "=", productId);
  return paginate(
    q
      .select(["b.id", "b.product_id", "b.count", "b.created_at", "p.name as product_name"])
      .select((eb) =>
        eb
          .selectFrom("onecard_cards as c")
          .whereRef("c.batch_id", "=", "b.id")
          .where("c.state", "<>", "issued")
          .select((e) => e.fn.countAll<string>().as("n"))
          .as("sold"),
      )
      .orderBy("b.id", "desc"),
    q,
    { offset, limit },
  );
}

export const cardColumns = [
  "c.id",
  "c.batch_id",
  "c.serial",
  "c.product_id",
  "c.brander_id",
  "c.no_masked",
  "c.sealed",
  "c.pwd_hash",
  "c.state",
  "c.face_value",
  "c.currency",
  "c.balance",
  "c.held",
  "c.owner_id",
  "c.sale_id",
  "c.sale_price",
  "c.customer_id",
  "c.gift_id",
  "c.activated_at",
  "c.expires_at",
  "c.extracted_at",
  "c.wrong_attempts",
  "c.locked_until",
] as const;

export function cardByHash(db: Executor, noHash: string) {
  return db.selectFrom("onecard_cards as c").select(cardColumns).where("c.no_hash", "=", noHash).executeTakeFirst();
}
export type CardRowDb = NonNullable<Awaited<ReturnType<typeof cardByHash>>>;

export function lockCard(tx: Executor, id: number) {
  return tx.selectFrom("onecard_cards as c").select(cardColumns).where("c.id", "=", id).forUpdate().executeTakeFirst();
}

/** The cards of ids, locked in id order (concurrent batches lock in the same order: no deadlock). */
export function lockCards(tx: Executor, ids: number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return tx
    .selectFrom("onecard_cards as c")
    .select(cardColumns)
    .where("c.id", "in", ids)
    .orderBy("c.id")
    .forUpdate()
    .execute();
}

export async function cardIdsOfSale(db: Executor, saleId: number, ownerId: number): Promise<number[]> {
  const rows = await db
    .selectFrom("onecard_cards")
    .select("id")
    .where("sale_id", "=", saleId)
    .where("owner_id", "=", ownerId)
    .orderBy("id")
    .execute();
  return rows.map((r) => r.id);
}
export async function cardIdsOfRange(db: Executor, batchId: number, from: number, to: number): Promise<number[]> {
  const rows = await db
    .selectFrom("onecard_cards")
    .select("id")
    .where("batch_id", "=", batchId)
    .where("serial", ">=", from)
    .where("serial", "<=", to)
    .orderBy("id")
    .execute();
  return rows.map((r) => r.id);
}

export async function cardPage(
  db: Executor,
  f: {
    ownerId?: number;
    customerId?: number;
    branderId?: number;
    batchId?: number;
    state?: OnecardCardState | undefined;
    saleId?: number | undefined;
    productId?: number | undefined;
    noHash?: string | undefined;
    offset: number;
    limit: number;
  },
) {
  let q = db
    .selectFrom("onecard_cards as c")
    .innerJoin("onecard_products as p", "p.id", "c.product_id")
    .innerJoin("merchants as m", "m.id", "c.brander_id");
  if (f.ownerId !== undefined) q = q.where("c.owner_id", "=", f.ownerId);
  if (f.customerId !== undefined) q = q.where("c.customer_id", "=", f.customerId);
  if (f.branderId !== undefined) q = q.where("c.brander_id", "=", f.branderId);
  if (f.batchId !== undefined) q = q.where("c.batch_id", "=", f.batchId);
  if (f.state) q = q.where("c.state", "=", f.state);
  if (f.saleId) q = q.where("c.sale_id", "=", f.saleId);
  if (f.productId) q = q.where("c.product_id", "=", f.productId);
  if (f.noHash) q = q.where("c.no_hash", "=", f.noHash);
  return paginate(
    q
      .select(cardColumns)
      .select(["p.name as product_name", "p.kind", "p.recharge_allowed", "m.name as brander_name"])
      .orderBy("c.id", "desc"),
    q,
    f,
  );
}
export type CardListRow = Awaited<ReturnType<typeof cardPage>>["rows"][number];

export async function addMove(
  tx: Executor,
  m: {
    cardId: number;
    kind: "activate" | "load" | "hold" | "capture" | "release" | "redeem" | "refund" | "adjust" | "expire" | "return";
    amount: number;
    balanceAfter: number;
    requestKey: string | null;
    note?: string;
    now: Date;
  },
): Promise<void> {
  await tx
    .insertInto("onecard_moves")
    .values({
      card_id: m.cardId,
      kind: m.kind,
      amount: m.amount,
      balance_after: m.balanceAfter,
      request_key: m.requestKey,
      note: m.note ?? "",
      created_at: m.now,
    })
    .execute();
}

/**
 * A card locked for a debit, with whether a move of this request key exists already: one round trip
 * where the lock and the replay check took two (redemption is the hot path: issue 26's bench).
 */
export function lockCardForMove(tx: Executor, id: number, requestKey: string) {
  return tx
    .selectFrom("onecard_cards as c")
    .select(cardColumns)
    .select((eb) =>
      eb
        .exists(
          eb
            .selectFrom("onecard_moves as m")
            .select("m.id")
            .whereRef("m.card_id", "=", "c.id")
            .where("m.request_key", "=", requestKey),
        )
        .as("replayed"),
    )
    .where("c.id", "=", id)
    .forUpdate("c")
    .executeTakeFirst();
}

/** A card's new balance and the move that explains it, in one statement. */
export async function moveBalance(
  tx: Executor,
  m: {
    cardId: number;
    kind: "redeem" | "capture";
    amount: number;
    balanceAfter: number;
    requestKey: string;
    note: string;
    now: Date;
  },
): Promise<void> {
  await tx
    .with("moved", (db) => db.updateTable("onecard_cards").set({ balance: m.balanceAfter }).where("id", "=", m.cardId))
    .insertInto("onecard_moves")
    .values({
      card_id: m.cardId,
      kind: m.kind,
      amount: m.amount,
      balance_after: m.balanceAfter,
      request_key: m.requestKey,
      note: m.note,
      created_at: m.now,
    })
    .execute();
}

export function moveByKey(db: Executor, cardId: number, requestKey: string) {
  return db
    .selectFrom("onecard_moves")
    .selectAll()
    .where("card_id", "=", cardId)
    .where("request_key", "=", requestKey)
    .executeTakeFirst();
}

export async function movePage(db: Executor, customerId: number, offset: number, limit: number) {
  const q = db
    .selectFrom("onecard_moves as v")
    .innerJoin("onecard_cards as c", "c.id", "v.card_id")
    .where("c.customer_id", "=", customerId);
  return paginate(
    q
      // A store redemption's note is "store <id>" (writeoff.service): the customer reads the store's name.
      .leftJoin("stores as s", (j) =>
        j.onRef("s.brander_id", "=", "c.brander_id").on(sql<boolean>`v.note = 'store ' || s.id::text`),
      )
      .select(["v.id", "v.kind", "v.amount", "v.balance_after", "v.note", "v.created_at", "c.sealed", "c.currency"])
      .select("s.name as store_name")
      .orderBy("v.id", "desc"),
    q,
    { offset, limit },
  );
}

/** Counts a wrong password in its own statement (it sticks though the request fails); locks at the limit. */
export async function countWrongPassword(
  db: Executor,
  cardId: number,
  limit: number,
  lockUntil: Date,
): Promise<{ locked: boolean }> {
  const row = await sql<{ locked: boolean }>`
    UPDATE onecard_cards SET
      wrong_attempts = CASE WHEN wrong_attempts + 1 >= ${limit} THEN 0 ELSE wrong_attempts + 1 END,
      locked_until = CASE WHEN wrong_attempts + 1 >= ${limit} THEN ${lockUntil}::timestamptz ELSE locked_until END
    WHERE id = ${cardId}
    RETURNING (locked_until IS NOT NULL AND locked_until = ${lockUntil}::timestamptz) AS locked`.execute(db);
  return { locked: row.rows[0]?.locked ?? false };
}

/** Until when this client may not try the card's password again, or null. */
export async function clientLock(db: Executor, cardId: number, client: string): Promise<Date | null> {
  const row = await db
    .selectFrom("onecard_card_failures")
    .select("locked_until")
    .where("card_id", "=", cardId)
    .where("client", "=", client)
    .executeTakeFirst();
  return row?.locked_until ? new Date(row.locked_until) : null;
}

/** Counts one wrong password of this client on the card; the `limit`-th locks the card for this client only. */
export async function countClientWrongPassword(
  db: Executor,
  cardId: number,
  client: string,
  limit: number,
  lockUntil: Date,
  now: Date,
): Promise<{ locked: boolean }> {
  const row = await sql<{ locked: boolean }>`
    INSERT INTO onecard_card_failures AS f (card_id, client, wrong_attempts, locked_until, updated_at)
    VALUES (${cardId}, ${client}, CASE WHEN 1 >= ${limit} THEN 0 ELSE 1 END, CASE WHEN 1 >= ${limit} THEN ${lockUntil}::timestamptz END, ${now})
    ON CONFLICT (card_id, client) DO UPDATE SET
      wrong_attempts = CASE WHEN f.wrong_attempts + 1 >= ${limit} THEN 0 ELSE f.wrong_attempts + 1 END,
      locked_until = CASE WHEN f.wrong_attempts + 1 >= ${limit} THEN ${lockUntil}::timestamptz ELSE f.locked_until END,
      updated_at = ${now}
    RETURNING (locked_until IS NOT NULL AND locked_until = ${lockUntil}::timestamptz) AS locked`.execute(db);
  return { locked: row.rows[0]?.locked ?? false };
}

/** A right password clears this client's count; a reset clears every client's (client omitted). */
export async function clearWrongPasswords(db: Executor, cardId: number, client?: string): Promise<void> {
  let q = db.deleteFrom("onecard_card_failures").where("card_id", "=", cardId);
  if (client !== undefined) q = q.where("client", "=", client);
  await q.execute();
}

/** The module's own sum rules; each line names a broken one. Ledger rules are checked by the ledger. */
export async function invariantProblems(db: Executor): Promise<string[]> {
  const problems: string[] = [];
  const drift = await sql<{ id: number; balance: number; total: string }>`
    SELECT c.id, c.balance, COALESCE(SUM(v.amount), 0)::text AS total
    FROM onecard_cards c LEFT JOIN onecard_moves v ON v.card_id = c.id
    GROUP BY c.id HAVING c.balance <> COALESCE(SUM(v.amount), 0)`.execute(db);
  for (const r of drift.rows) problems.push(`card ${r.id} holds ${r.balance} but its moves sum to ${r.total}`);
  const held = await sql<{ id: number }>`
    SELECT c.id FROM onecard_cards c
    WHERE c.held <> COALESCE((SELECT SUM(h.amount) FROM onecard_holds h WHERE h.card_id = c.id AND h.state = 'held'), 0)`.execute(
    db,
  );
  for (const r of held.rows) problems.push(`card ${r.id}: held differs from its open holds`);
  const sales = await sql<{ id: number }>`
    SELECT s.id FROM onecard_sales s
    WHERE s.quantity <> (SELECT COUNT(*) FROM onecard_cards c WHERE c.sale_id = s.id)`.execute(db);
  for (const r of sales.rows) problems.push(`sale ${r.id}: its quantity differs from its cards`);
  const money = await sql<{ sold: string; parts: string }>`
    SELECT (SELECT COALESCE(SUM(quantity * unit_price), 0) FROM onecard_sales)::text AS sold,
           ((SELECT COALESCE(SUM(sale_price), 0) FROM onecard_cards WHERE state = 'sold')
            + (SELECT COALESCE(SUM(amount), 0) FROM onecard_activations)
            + (SELECT COALESCE(SUM(amount), 0) FROM onecard_returns))::text AS parts`.execute(db);
  const m = money.rows[0];
  if (m && m.sold !== m.parts) {
    problems.push(`card sales ${m.sold} differ from unactivated + activated + returned ${m.parts}`);
  }
  const orphan = await sql<{
    id: number;
  }>`SELECT id FROM onecard_cards WHERE (state = 'issued') <> (sale_id IS NULL)`.execute(db);
  for (const r of orphan.rows) problems.push(`card ${r.id}: sale and state disagree`);
  return problems;
}

/** A card of a batch being issued: its id (taken from the sequence), serial, hashes and sealed credentials. */
export interface NewCard {
  id: number;
  serial: number;
  noHash: string;
  noMasked: string;
  sealed: string;
  pwdHash: string;
}
export interface BatchHead {
  batchId: number;
  productId: number;
  branderId: number;
  faceValue: number;
  currency: Currency;
}

/** A PostgreSQL server: the chunk as one INSERT from column arrays (a VALUES list of 5,000 rows would be 50,000 parameters). */
export async function insertCards(tx: Executor, head: BatchHead, cards: NewCard[]): Promise<void> {
  await sql`
    INSERT INTO onecard_cards (id, batch_id, serial, product_id, brander_id, no_hash, no_masked, sealed, pwd_hash, face_value, currency)
    SELECT id, ${head.batchId}, serial, ${head.productId}, ${head.branderId}, no_hash, no_masked, sealed, pwd_hash, ${head.faceValue}, ${head.currency}
    FROM unnest(${cards.map((c) => String(c.id))}::bigint[], ${cards.map((c) => c.serial)}::int[], ${cards.map((c) => c.noHash)}::text[],
                ${cards.map((c) => c.noMasked)}::text[], ${cards.map((c) => c.sealed)}::text[], ${cards.map((c) => c.pwdHash)}::text[])
      AS t(id, serial, no_hash, no_masked, sealed, pwd_hash)`.execute(tx);
}

/**
 * The embedded database: COPY the chunk, as the card-secret import does (supply's copyCards). The batch,
 * product and brand rows are checked and locked once for the chunk, then the per-row foreign-key
 * triggers are off for the COPY alone; a batch's numbers are new by construction (batch id and serial).
 */
export async function copyCards(tx: Executor, head: BatchHead, cards: NewCard[]): Promise<void> {
  const parents = await sql<{ n: number }>`
    SELECT (SELECT count(*) FROM (SELECT 1 FROM onecard_batches WHERE id = ${head.batchId}
      AND product_id = ${head.productId} AND brander_id = ${head.branderId} FOR KEY SHARE) b)
         + (SELECT count(*) FROM (SELECT 1 FROM onecard_products WHERE id = ${head.productId}
           AND brander_id = ${head.branderId} FOR KEY SHARE) p) AS n`.execute(tx);
  if (Number(parents.rows[0]?.n) !== 2) throw new Error("onecard copyCards: the batch or product is gone");
  await sql`SET LOCAL session_replication_role = replica`.execute(tx);
  const lead = `${head.batchId}\t${head.productId}\t${head.branderId}\t`;
  const tail = `\t${head.faceValue}\t${head.currency}\n`;
  let text = "";
  for (const c of cards) {
    text += `${c.id}\t${lead}${c.serial}\t${copyField(c.noHash)}\t${copyField(c.noMasked)}\t${copyField(c.sealed)}\t${copyField(c.pwdHash)}${tail}`;
  }
  await copyFromText(
    tx,
    "onecard_cards",
    [
      "id",
      "batch_id",
      "product_id",
      "brander_id",
      "serial",
      "no_hash",
      "no_masked",
      "sealed",
      "pwd_hash",
      "face_value",
      "currency",
    ],
    text,
  );
  await sql`SET LOCAL session_replication_role = origin`.execute(tx);
}

/** A card's new balance (the caller writes the move that explains it). */
export async function setBalance(tx: Executor, cardId: number, balance: number): Promise<void> {
  await tx.updateTable("onecard_cards").set({ balance }).where("id", "=", cardId).execute();
}

/** How far a brand has set up its cards (the home's setup checklist): products defined, cards issued. */
export async function cardSetup(db: Executor, branderId: number): Promise<{ products: number; batches: number }> {
  const [p, b] = await Promise.all([
    db
      .selectFrom("onecard_products")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("brander_id", "=", branderId)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("onecard_batches")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("brander_id", "=", branderId)
      .executeTakeFirstOrThrow(),
  ]);
  return { products: Number(p.n), batches: Number(b.n) };
}
