import { sql, type Insertable, type Updateable } from "kysely";
import type { InvoiceState, InvoiceType } from "@tessera/contracts";
import { paginate } from "../../db/paginate";
import type { Executor } from "../../db/tx";
import type { InvoiceSettingsTable, InvoicesTable, InvoiceTitlesTable } from "./tables";

/** SQL of the invoices module. Every merchant-facing read names the merchant it is for. */

export interface RateRow {
  invoice_type: InvoiceType;
  rate_bp: number;
  valid_from: string;
  valid_to: string | null;
}

export async function rates(db: Executor): Promise<RateRow[]> {
  const r = await sql<RateRow>`SELECT invoice_type, rate_bp, valid_from::text AS valid_from, valid_to::text AS valid_to
      FROM invoice_rates ORDER BY invoice_type, valid_from`.execute(db);
  return r.rows;
}

/** The rate of a type on a day, or undefined when none applies. */
export async function rateOn(db: Executor, type: InvoiceType, day: string): Promise<number | undefined> {
  const r = await sql<{ rate_bp: number }>`
    SELECT rate_bp FROM invoice_rates
    WHERE invoice_type = ${type} AND valid_from <= ${day}::date AND (valid_to IS NULL OR valid_to >= ${day}::date)
    ORDER BY valid_from DESC LIMIT 1`.execute(db);
  return r.rows[0]?.rate_bp;
}

/** Locks the merchant's account of a type (made on first use): requests for it queue here. */
export async function lockAccount(tx: Executor, merchantId: number, type: InvoiceType): Promise<void> {
  await tx
    .insertInto("invoice_accounts")
    .values({ merchant_id: merchantId, invoice_type: type })
    .onConflict((oc) => oc.doNothing())
    .execute();
  await tx
    .selectFrom("invoice_accounts")
    .select("merchant_id")
    .where("merchant_id", "=", merchantId)
    .where("invoice_type", "=", type)
    .forUpdate()
    .execute();
}

/** Per type: amounts requested (pending) and issued (issued or delivered, not reversed). */
export async function outstanding(
  db: Executor,
  merchantId: number,
): Promise<Map<InvoiceType, { pending: number; invoiced: number }>> {
  const r = await sql<{ invoice_type: InvoiceType; pending: string; invoiced: string }>`
    SELECT invoice_type,
           COALESCE(SUM(amount) FILTER (WHERE state = 'requested'), 0)::text AS pending,
           COALESCE(SUM(amount) FILTER (WHERE state IN ('issued', 'delivered')), 0)::text AS invoiced
    FROM invoices WHERE merchant_id = ${merchantId} GROUP BY invoice_type`.execute(db);
  return new Map(r.rows.map((x) => [x.invoice_type, { pending: Number(x.pending), invoiced: Number(x.invoiced) }]));
}

export type NewInvoice = Insertable<InvoicesTable>;

export async function insertInvoice(tx: Executor, row: NewInvoice): Promise<number | null> {
  const r = await tx
    .insertInto("invoices")
    .values(row)
    .onConflict((oc) => oc.columns(["merchant_id", "request_key"]).doNothing())
    .returning("id")
    .executeTakeFirst();
  return r?.id ?? null;
}

export function findByRequestKey(db: Executor, merchantId: number, requestKey: string) {
  return db
    .selectFrom("invoices")
    .selectAll()
    .where("merchant_id", "=", merchantId)
    .where("request_key", "=", requestKey)
    .executeTakeFirst();
}

export function findInvoice(db: Executor, id: number) {
  return db.selectFrom("invoices").selectAll().where("id", "=", id).executeTakeFirst();
}

export function lockInvoice(tx: Executor, id: number) {
  return tx.selectFrom("invoices").selectAll().where("id", "=", id).forUpdate().executeTakeFirst();
}
export type InvoiceRow = NonNullable<Awaited<ReturnType<typeof findInvoice>>>;

export async function updateInvoice(
  tx: Executor,
  id: number,
  changes: Updateable<InvoicesTable> & { updated_at: Date },
): Promise<void> {
  await tx.updateTable("invoices").set(changes).where("id", "=", id).execute();
}

/** Marks an issued invoice delivered (only from issued: a reversal in between wins). */
export async function markDelivered(db: Executor, id: number, now: Date): Promise<boolean> {
  const r = await db
    .updateTable("invoices")
    .set({ state: "delivered", delivered_at: now, updated_at: now })
    .where("id", "=", id)
    .where("state", "=", "issued")
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function invoicePage(
  db: Executor,
  f: {
    merchantId?: number | undefined;
    state?: InvoiceState | undefined;
    invoiceType?: InvoiceType | undefined;
    from?: Date | undefined;
    to?: Date | undefined;
    offset: number;
    limit: number;
  },
) {
  let q = db.selectFrom("invoices");
  if (f.merchantId !== undefined) q = q.where("merchant_id", "=", f.merchantId);
  if (f.state) q = q.where("state", "=", f.state);
  if (f.invoiceType) q = q.where("invoice_type", "=", f.invoiceType);
  if (f.from) q = q.where("created_at", ">=", f.from);
  if (f.to) q = q.where("created_at", "<", f.to);
  return paginate(q.selectAll().orderBy("id", "desc"), q, f);
}

// Titles and settings.

export function titles(db: Executor, merchantId: number) {
  return db
    .selectFrom("invoice_titles")
    .selectAll()
    .where("merchant_id", "=", merchantId)
    .orderBy("is_default", "desc")
    .orderBy("id")
    .execute();
}
export type TitleRow = Awaited<ReturnType<typeof titles>>[number];

export async function countTitles(db: Executor, merchantId: number): Promise<number> {
  const r = await db
    .selectFrom("invoice_titles")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("merchant_id", "=", merchantId)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function clearDefault(tx: Executor, merchantId: number): Promise<void> {
  await tx
    .updateTable("invoice_titles")
    .set({ is_default: false })
    .where("merchant_id", "=", merchantId)
    .where("is_default", "=", true)
    .execute();
}

export function settings(db: Executor, merchantId: number) {
  return db.selectFrom("invoice_settings").selectAll().where("merchant_id", "=", merchantId).executeTakeFirst();
}

/* ---------- titles and e-signature settings (the service's writes) ---------- */

export type TitleValues = Omit<Insertable<InvoiceTitlesTable>, "merchant_id" | "created_at" | "id">;

export async function insertTitle(tx: Executor, merchantId: number, values: TitleValues, now: Date): Promise<number> {
  const r = await tx
    .insertInto("invoice_titles")
    .values({ merchant_id: merchantId, ...values, created_at: now })
    .returning("id")
    .executeTakeFirstOrThrow();
  return r.id;
}

/** Changes one of the merchant's titles; false when it has no such title. */
export async function updateTitle(tx: Executor, merchantId: number, id: number, values: TitleValues): Promise<boolean> {
  const r = await tx
    .updateTable("invoice_titles")
    .set(values)
    .where("id", "=", id)
    .where("merchant_id", "=", merchantId)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function deleteTitle(db: Executor, merchantId: number, id: number): Promise<boolean> {
  const r = await db
    .deleteFrom("invoice_titles")
    .where("id", "=", id)
    .where("merchant_id", "=", merchantId)
    .executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

export async function saveSettings(
  db: Executor,
  merchantId: number,
  values: Omit<Insertable<InvoiceSettingsTable>, "merchant_id">,
): Promise<void> {
  await db
    .insertInto("invoice_settings")
    .values({ merchant_id: merchantId, ...values })
    .onConflict((oc) => oc.column("merchant_id").doUpdateSet(values))
    .execute();
}
