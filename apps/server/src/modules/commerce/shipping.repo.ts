import { sql } from "kysely";
import { paginate } from "../../db/paginate";
import type { Executor } from "../../db/tx";
import { anyId } from "./repo";

/** SQL of shipping: courier companies, shipments, tracking events and the local courier simulator. */

export function companies(db: Executor, name?: string) {
  let q = db.selectFrom("commerce_express_companies").selectAll().orderBy("sort").orderBy("code");
  if (name) q = q.where("name", "like", `%${name.replace(/[\\%_]/g, "\\$&")}%`);
  return q.execute();
}

/** Couriers' names by code (中通快递 for zhongtong), for replies that show a courier. */
export async function companyNames(db: Executor, codes: string[]): Promise<Map<string, string>> {
  if (codes.length === 0) return new Map();
  const rows = await db
    .selectFrom("commerce_express_companies")
    .select(["code", "name"])
    .where("code", "in", [...new Set(codes)])
    .execute();
  return new Map(rows.map((r) => [r.code, r.name]));
}
export function companyOf(db: Executor, code: string) {
  return db.selectFrom("commerce_express_companies").selectAll().where("code", "=", code).executeTakeFirst();
}

export async function insertShipment(
  tx: Executor,
  s: {
    orderId: number;
    brandId: number;
    purchaserId: number;
    aftersaleId: number | null;
    companyCode: string;
    waybillNo: string;
    courier: "local" | "kuaidi100" | "manual";
    now: Date;
  },
): Promise<number> {
  const row = await tx
    .insertInto("commerce_shipments")
    .values({
      order_id: s.orderId,
      brand_id: s.brandId,
      purchaser_id: s.purchaserId,
      aftersale_id: s.aftersaleId,
      company_code: s.companyCode,
      waybill_no: s.waybillNo,
      courier: s.courier,
      created_at: s.now,
      updated_at: s.now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export function shipmentsOfOrders(db: Executor, orderIds: number[]) {
  if (orderIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom("commerce_shipments")
    .selectAll()
    .where("order_id", "=", anyId(orderIds))
    .where("aftersale_id", "is", null)
    .execute();
}
export type ShipmentRow = Awaited<ReturnType<typeof shipmentsOfOrders>>[number];

export function shipmentById(db: Executor, id: number) {
  return db.selectFrom("commerce_shipments").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
}

export function shipmentByWaybill(db: Executor, companyCode: string, waybillNo: string) {
  return db
    .selectFrom("commerce_shipments")
    .selectAll()
    .where("company_code", "=", companyCode)
    .where("waybill_no", "=", waybillNo)
    .forUpdate()
    .executeTakeFirst();
}

export function lockShipment(tx: Executor, id: number, brandId: number) {
  return tx
    .selectFrom("commerce_shipments")
    .selectAll()
    .where("id", "=", id)
    .where("brand_id", "=", brandId)
    .forUpdate()
    .executeTakeFirst();
}

export async function setShipment(
  tx: Executor,
  id: number,
  c: { state?: number; signedAt?: Date; companyCode?: string; waybillNo?: string; remark?: string; now: Date },
): Promise<void> {
  await tx
    .updateTable("commerce_shipments")
    .set({
      ...(c.state !== undefined && { state: c.state }),
      ...(c.signedAt !== undefined && { signed_at: c.signedAt }),
      ...(c.companyCode !== undefined && { company_code: c.companyCode }),
      ...(c.waybillNo !== undefined && { waybill_no: c.waybillNo }),
      ...(c.remark !== undefined && { remark: c.remark }),
      updated_at: c.now,
    })
    .where("id", "=", id)
    .execute();
}

export async function shipmentPage(
  db: Executor,
  f: { brandId: number; waybillNo?: string | undefined; signed?: boolean | undefined; offset: number; limit: number },
) {
  let q = db.selectFrom("commerce_shipments").where("brand_id", "=", f.brandId);
  if (f.waybillNo) q = q.where("waybill_no", "=", f.waybillNo);
  if (f.signed !== undefined) q = q.where("signed_at", f.signed ? "is not" : "is", null);
  return paginate(q.selectAll().orderBy("id", "desc"), q, f);
}

/** Stores events once: a replayed push adds nothing. Returns how many were new. */
export async function insertEvents(
  tx: Executor,
  shipmentId: number,
  events: { at: Date; state: number; context: string; area: string }[],
  now: Date,
): Promise<number> {
  if (events.length === 0) return 0;
  const rows = await tx
    .insertInto("commerce_tracking_events")
    .values(
      events.map((e) => ({
        shipment_id: shipmentId,
        at: e.at,
        state: e.state,
        context: e.context,
        area: e.area,
        created_at: now,
      })),
    )
    .onConflict((oc) => oc.columns(["shipment_id", "at", "state", "context"]).doNothing())
    .returning("id")
    .execute();
  return rows.length;
}

/**
 * A push of in-transit events in one statement (no transaction of its own): the waybill's shipment row
 * locked, the events stored once, its state set to the newest event's (stored or new). `found` false for
 * an unknown waybill. Pushes that sign, refuse or correct the company take the transaction in the service.
 */
export async function ingestPlainEvents(
  db: Executor,
  companyCode: string,
  waybillNo: string,
  events: { at: Date; state: number; context: string; area: string }[],
  now: Date,
): Promise<{ found: boolean; added: number }> {
  if (events.length === 0) {
    const s = await db
      .selectFrom("commerce_shipments")
      .select("id")
      .where("company_code", "=", companyCode)
      .where("waybill_no", "=", waybillNo)
      .executeTakeFirst();
    return { found: s !== undefined, added: 0 };
  }
  const values = sql.join(
    events.map((e) => sql`(${e.at}::timestamptz, ${e.state}::integer, ${e.context}::text, ${e.area}::text)`),
  );
  const r = await sql<{ found: string; added: string }>`
    WITH s AS (
      SELECT id FROM commerce_shipments WHERE company_code = ${companyCode} AND waybill_no = ${waybillNo} FOR UPDATE
    ), ins AS (
      INSERT INTO commerce_tracking_events (shipment_id, at, state, context, area, created_at)
      SELECT s.id, v.at, v.state, v.context, v.area, ${now}::timestamptz FROM s, (VALUES ${values}) AS v (at, state, context, area)
      ON CONFLICT (shipment_id, at, state, context) DO NOTHING
      RETURNING id, at, state
    ), upd AS (
      -- The newest new event sets the state when nothing stored is newer (a later id wins a tie, as in the
      -- tracking list); a replay or an older event changes nothing. The stored events read here are the
      -- ones before this statement: its own inserts are not visible to it.
      UPDATE commerce_shipments sh
         SET state = n.state, updated_at = ${now}::timestamptz
        FROM s, (SELECT at, state FROM ins ORDER BY at DESC, id DESC LIMIT 1) n
       WHERE sh.id = s.id
         AND n.at >= COALESCE((SELECT max(e.at) FROM commerce_tracking_events e WHERE e.shipment_id = s.id), '-infinity'::timestamptz)
      RETURNING sh.id
    )
    SELECT (SELECT count(*) FROM s) AS found, (SELECT count(*) FROM ins) AS added`.execute(db);
  const row = r.rows[0];
  return { found: Number(row?.found ?? 0) > 0, added: Number(row?.added ?? 0) };
}

export function eventsOf(db: Executor, shipmentIds: number[]) {
  if (shipmentIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom("commerce_tracking_events")
    .selectAll()
    .where("shipment_id", "=", anyId(shipmentIds))
    .orderBy("at", "desc")
    .orderBy("id", "desc")
    .execute();
}

export async function insertSim(
  tx: Executor,
  s: {
    waybillNo: string;
    companyCode: string;
    outcome: "signed" | "refused" | "returned";
    stepSeconds: number;
    now: Date;
  },
): Promise<void> {
  await tx
    .insertInto("commerce_courier_sim")
    .values({
      waybill_no: s.waybillNo,
      company_code: s.companyCode,
      outcome: s.outcome,
      step_seconds: s.stepSeconds,
      created_at: s.now,
    })
    .onConflict((oc) => oc.column("waybill_no").doNothing())
    .execute();
}

export function openSims(db: Executor, limit: number) {
  return db
    .selectFrom("commerce_courier_sim")
    .selectAll()
    .where("done", "=", false)
    .orderBy("created_at")
    .limit(limit)
    .execute();
}

/** Moves a simulated waybill from `from` pushed steps to `to`; false when another process did it first. */
export async function advanceSim(
  tx: Executor,
  waybillNo: string,
  from: number,
  to: number,
  done: boolean,
): Promise<boolean> {
  const row = await tx
    .updateTable("commerce_courier_sim")
    .set({ pushed: to, done })
    .where("waybill_no", "=", waybillNo)
    .where("pushed", "=", from)
    .returning("waybill_no")
    .executeTakeFirst();
  return row !== undefined;
}

/** A shipment's newest tracking event: its state and time. */
export function newestEvent(db: Executor, shipmentId: number) {
  return db
    .selectFrom("commerce_tracking_events")
    .select(["state", "at"])
    .where("shipment_id", "=", shipmentId)
    .orderBy("at", "desc")
    .orderBy("id", "desc")
    .executeTakeFirst();
}
