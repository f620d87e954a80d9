import {
  CODE,
  TRACKING_REFUSED,
  TRACKING_SIGNED,
  type CommerceOrder,
  type Page,
  type Shipment,
} from "@tessera/contracts";
import { isUniqueViolation, withTx, type Db } from "../../db/tx";
import type { Actor } from "../../platform/auth/actor";
import { tenantOf } from "../../platform/auth/guard";
import { audit } from "../../platform/audit";
import { AppError, conflict, invalid } from "../../platform/http/errors";
import { merchantOfActor } from "../merchants";
import { CourierError, parsePush, pushSign, simulatedPush, SIM_TRACE } from "../../platform/adapters/courier";
import type { OrdersService } from "./orders.service";
import * as ordersRepo from "./orders.repo";
import { iso, notFoundOrder } from "./presenter";
import type { CommerceDeps } from "./service";
import * as shippingRepo from "./shipping.repo";
import { pageWindow } from "../../db/paginate";

/**
 * Shipping (brand): waybills through the courier adapter, shipments and their corrections, the express
 * companies, tracking pushes (a signed parcel makes the order received) and the local courier simulator.
 */
export class ShippingService {
  constructor(
    private readonly deps: CommerceDeps,
    private readonly orders: OrdersService,
  ) {}

  private get db(): Db {
    return this.deps.db;
  }
  private now(): Date {
    return this.deps.clock.now();
  }

  /**
   * `order/express/create`: the courier issues a waybill (or adopts the brand's own number) and subscribes
   * it to tracking; the order becomes shipped. Asking the courier happens before the transaction (it is
   * a network call); the transaction checks the order again, so two shipments of one order cannot both land.
   */
  async ship(
    actor: Actor,
    req: { orderId: string; companyCode: string; waybillNo?: string | undefined },
  ): Promise<CommerceOrder> {
    const brand = await merchantOfActor(this.db, actor);
    const id = Number(req.orderId);
    const o = await ordersRepo.orderOf(this.db, id);
    if (!o || o.brand_id !== brand.id) throw notFoundOrder();
    this.checkShippable(o);
    const company = await shippingRepo.companyOf(this.db, req.companyCode);
    if (!company) throw invalid("commerce.companyUnknown", "companyCode");
    let waybillNo: string;
    try {
      ({ waybillNo } = await this.deps.courier.createWaybill({
        companyCode: company.code,
        orderNo: o.order_no,
        waybillNo: req.waybillNo,
        recipient: { name: o.consignee_name, mobile: o.consignee_phone, printAddr: `${o.region_names} ${o.address}` },
        sender: { name: brand.name, mobile: "", printAddr: "" },
        cargo: "goods",
        weightKg: 1,
      }));
    } catch (err) {
      if (err instanceof CourierError) {
        throw new AppError(CODE.CONFLICT, "commerce.courierFailed", { reason: err.message });
      }
      throw err;
    }
    const now = this.now();
    const row = await withTx(this.db, async (tx) => {
      const locked = await ordersRepo.lockOrder(tx, id);
      if (!locked) throw notFoundOrder();
      this.checkShippable(locked);
      try {
        await shippingRepo.insertShipment(tx, {
          orderId: id,
          brandId: brand.id,
          purchaserId: locked.purchaser_id,
          aftersaleId: null,
          companyCode: company.code,
          waybillNo,
          courier: req.waybillNo && this.deps.courier.kind === "local" ? "manual" : this.deps.courier.kind,
          now,
        });
      } catch (err) {
        if (isUniqueViolation(err, "commerce_shipments_waybill")) throw conflict("commerce.waybillTaken", "waybillNo");
        throw err;
      }
      await ordersRepo.setOrder(tx, id, { state: "shipped", shippedAt: now, now });
      // The local courier simulates the waybills it issued; a number the brand wrote is a real courier's.
      if (this.deps.courier.kind === "local" && !req.waybillNo) {
        const text = `${locked.consignee_name} ${locked.address} ${locked.remark}`;
        const outcome = /拒收|refuse/i.test(text) ? "refused" : /退回|return/i.test(text) ? "returned" : "signed";
        await shippingRepo.insertSim(tx, {
          waybillNo,
          companyCode: company.code,
          outcome,
          stepSeconds: this.deps.config.courierStepSeconds,
          now,
        });
      }
      await audit(tx, {
        actorUserId: actor.userId,
        action: "commerce.order.ship",
        subjectType: "commerce_order",
        subjectId: id,
        detail: { company: company.code, waybillNo },
      });
      return ordersRepo.orderOf(tx, id);
    });
    if (!row) throw notFoundOrder();
    return this.orders.presentOne(row);
  }

  private checkShippable(o: ordersRepo.OrderRow): void {
    if (o.kind === "virtual") throw conflict("commerce.virtualNoShip");
    if (o.state === "to_pay") throw conflict("commerce.notPaid");
    if (o.state !== "to_ship") throw conflict("commerce.orderState");
  }

  /** `order/express/query`: the order's shipment with its tracking events, newest first. */
  async tracking(actor: Actor, orderId: number): Promise<Shipment> {
    const o = await this.orders.order(actor, orderId);
    if (!o.shipment) throw new AppError(CODE.NOT_FOUND, "commerce.shipmentNotFound");
    return o.shipment;
  }

  async shipments(
    actor: Actor,
    q: { page: number; pagesize: number; waybillNo?: string | undefined; signed?: boolean | undefined },
  ): Promise<Page<Shipment>> {
    const { rows, total } = await shippingRepo.shipmentPage(this.db, {
      brandId: tenantOf(actor),
      waybillNo: q.waybillNo,
      signed: q.signed,
      ...pageWindow({ page: q.page, pageSize: q.pagesize }),
    });
    const orders = new Map<number, string>();
    for (const id of new Set(rows.map((r) => r.order_id))) {
      orders.set(id, (await ordersRepo.orderOf(this.db, id))?.order_no ?? "");
    }
    return { list: await presentShipments(this.db, rows, true, orders), total, page: q.page, pageSize: q.pagesize };
  }

  /** `expressorder/update`: correct the company or number before the parcel is picked up, or note a remark. */
  async updateShipment(
    actor: Actor,
    req: { id: string; companyCode?: string | undefined; waybillNo?: string | undefined; remark?: string | undefined },
  ): Promise<Shipment> {
    const brandId = tenantOf(actor);
    const id = Number(req.id);
    if (req.companyCode && !(await shippingRepo.companyOf(this.db, req.companyCode))) {
      throw invalid("commerce.companyUnknown", "companyCode");
    }
    const row = await withTx(this.db, async (tx) => {
      const s = await shippingRepo.lockShipment(tx, id, brandId);
      if (!s) throw new AppError(CODE.NOT_FOUND, "commerce.shipmentNotFound");
      const renumber =
        (req.companyCode && req.companyCode !== s.company_code) || (req.waybillNo && req.waybillNo !== s.waybill_no);
      if (renumber && s.state !== null) throw conflict("commerce.waybillPickedUp");
      try {
        await shippingRepo.setShipment(tx, id, {
          ...(req.companyCode && { companyCode: req.companyCode }),
          ...(req.waybillNo && { waybillNo: req.waybillNo }),
          ...(req.remark !== undefined && { remark: req.remark }),
          now: this.now(),
        });
      } catch (err) {
        if (isUniqueViolation(err, "commerce_shipments_waybill")) throw conflict("commerce.waybillTaken", "waybillNo");
        throw err;
      }
      await audit(tx, {
        actorUserId: actor.userId,
        action: "commerce.shipment.update",
        subjectType: "commerce_shipment",
        subjectId: id,
        detail: req,
      });
      return shippingRepo.shipmentById(tx, id);
    });
    const order = await ordersRepo.orderOf(this.db, row.order_id);
    const [p] = await presentShipments(this.db, [row], true, new Map([[row.order_id, order?.order_no ?? ""]]));
    if (!p) throw new AppError(CODE.NOT_FOUND, "commerce.shipmentNotFound");
    return p;
  }

  async companies(q: { page: number; pagesize: number; name?: string | undefined }) {
    const all = await shippingRepo.companies(this.db, q.name);
    const { offset, limit } = pageWindow({ page: q.page, pageSize: q.pagesize });
    return {
      list: all.slice(offset, offset + limit).map((c) => ({ code: c.code, name: c.name })),
      total: all.length,
      page: q.page,
      pageSize: q.pagesize,
    };
  }

  /**
   * A tracking push (Kuaidi100 shape). The signature is checked first; events are stored once however
   * often the push is replayed; a signed parcel makes the order received. Unknown waybills are answered
   * as accepted (the courier would otherwise retry them forever) and change nothing.
   */
  async ingestPush(body: {
    param: string;
    sign: string;
  }): Promise<{ result: boolean; returnCode: string; message: string }> {
    if (pushSign(body.param, this.deps.config.pushSalt) !== body.sign.toUpperCase()) {
      throw invalid("commerce.pushSign", "sign");
    }
    const push = parsePush(body.param);
    if (!push) throw invalid("validation.invalidParameter", "param");
    const now = this.now();
    // In-transit events only (nothing signed or refused, no company correction): one statement.
    if (
      !push.correctedCompany &&
      !push.events.some((e) => e.state === TRACKING_SIGNED || e.state === TRACKING_REFUSED)
    ) {
      const plain = await shippingRepo.ingestPlainEvents(this.db, push.company, push.waybillNo, push.events, now);
      return { result: true, returnCode: "200", message: plain.added > 0 ? `${plain.added} new` : "ok" };
    }
    const stored = await withTx(this.db, async (tx) => {
      const s = await shippingRepo.shipmentByWaybill(tx, push.company, push.waybillNo);
      if (!s) return 0;
      const added = await shippingRepo.insertEvents(tx, s.id, push.events, now);
      const newest = await shippingRepo.newestEvent(tx, s.id);
      const signedEvent = push.events.find((e) => e.state === TRACKING_SIGNED);
      await shippingRepo.setShipment(tx, s.id, {
        ...(newest && { state: newest.state }),
        ...(signedEvent && !s.signed_at && { signedAt: signedEvent.at }),
        ...(push.correctedCompany &&
          (await shippingRepo.companyOf(tx, push.correctedCompany)) && { companyCode: push.correctedCompany }),
        now,
      });
      if (signedEvent && s.aftersale_id === null) {
        const o = await ordersRepo.lockOrder(tx, s.order_id);
        if (o?.state === "shipped") {
          await ordersRepo.setOrder(tx, o.id, { state: "received", receivedAt: signedEvent.at, now });
        }
      }
      if (added > 0 && push.events.some((e) => e.state === TRACKING_REFUSED)) {
        await audit(tx, {
          actorUserId: null,
          action: "commerce.shipment.refused",
          subjectType: "commerce_shipment",
          subjectId: s.id,
        });
      }
      return added;
    });
    return { result: true, returnCode: "200", message: stored > 0 ? `${stored} new` : "ok" };
  }

  /** The local courier: pushes each simulated waybill's events whose time has come. */
  async runCourierSimulator(limit = 200): Promise<number> {
    const now = this.now();
    let pushed = 0;
    for (const sim of await shippingRepo.openSims(this.db, limit)) {
      const trace = SIM_TRACE[sim.outcome];
      const due = Math.min(
        trace.length,
        Math.floor((now.getTime() - new Date(sim.created_at).getTime()) / (sim.step_seconds * 1000)),
      );
      if (due <= sim.pushed) continue;
      const won = await withTx(this.db, (tx) =>
        shippingRepo.advanceSim(tx, sim.waybill_no, sim.pushed, due, due >= trace.length),
      );
      if (!won) continue;
      const param = JSON.stringify(simulatedPush(sim, due));
      await this.ingestPush({ param, sign: pushSign(param, this.deps.config.pushSalt) });
      pushed++;
    }
    return pushed;
  }
}

/** Shipments as the contract shows them, with their tracking events when asked and the couriers' names. */
export async function presentShipments(
  db: Db,
  rows: shippingRepo.ShipmentRow[],
  withEvents: boolean,
  orderNos: Map<number, string>,
): Promise<Shipment[]> {
  if (rows.length === 0) return [];
  const [events, all] = await Promise.all([
    withEvents
      ? shippingRepo.eventsOf(
          db,
          rows.map((r) => r.id),
        )
      : [],
    shippingRepo.companies(db),
  ]);
  const companies = new Map(all.map((c) => [c.code, c.name]));
  return rows.map((s) => ({
    id: String(s.id),
    orderId: String(s.order_id),
    orderNo: orderNos.get(s.order_id) ?? "",
    aftersaleId: s.aftersale_id === null ? null : String(s.aftersale_id),
    companyCode: s.company_code,
    companyName: companies.get(s.company_code) ?? s.company_code,
    waybillNo: s.waybill_no,
    state: s.state,
    courier: s.courier,
    remark: s.remark,
    createdAt: new Date(s.created_at).toISOString(),
    signedAt: iso(s.signed_at),
    events: events
      .filter((e) => e.shipment_id === s.id)
      .map((e) => ({ at: new Date(e.at).toISOString(), state: e.state, context: e.context, area: e.area })),
  }));
}
