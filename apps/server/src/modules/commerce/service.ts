import type { Db } from "../../db/tx";
import type { Actor } from "../../platform/auth/actor";
import { tenantOf } from "../../platform/auth/guard";
import type { Clock } from "../../platform/clock";
import { merchantOfActor } from "../merchants";
import { AftersalesService } from "./aftersales.service";
import { CommoditiesService } from "./commodities.service";
import type { CourierAdapter } from "../../platform/adapters/courier";
import { OrdersService } from "./orders.service";
import * as repo from "./repo";
import { ShippingService } from "./shipping.service";

export interface CommerceConfig {
  /** Shipped orders are confirmed as received this many days after shipping. */
  autoConfirmDays: number;
  /** Seconds between the local courier simulator's tracking events. */
  courierStepSeconds: number;
  /** The salt tracking pushes are signed with (MD5(param + salt)). */
  pushSalt: string;
}

export interface CommerceDeps {
  db: Db;
  clock: Clock;
  courier: CourierAdapter;
  config: CommerceConfig;
  /** Throws when the video is not one of the merchant's own (media module). */
  checkVideo(actor: Actor, videoId: string): Promise<unknown>;
}

/**
 * Physical and virtual goods: commodities and their SKUs (brand) and resale picks (`commodities`), orders
 * (purchaser, `orders`), shipping through the courier adapter and tracking pushes (`shipping`),
 * after-sales (`aftersales`). Stock is taken by one conditional UPDATE per SKU in the order's transaction
 * (never below zero) and given back exactly once when an unpaid order closes or goods come back. Money:
 * SUP → order escrow on payment (`commerce:pay:<order>`), escrow → the brand's income on completion
 * (`commerce:settle:<order>`), back to SUP on closing a paid order (`commerce:close:<order>`) or an
 * after-sales refund (`commerce:aftersale:<id>`, from escrow before settlement, from the brand's income after).
 */
export class CommerceService {
  readonly commodities: CommoditiesService;
  readonly orders: OrdersService;
  readonly shipping: ShippingService;
  readonly aftersales: AftersalesService;

  constructor(private readonly deps: CommerceDeps) {
    this.commodities = new CommoditiesService(deps);
    this.orders = new OrdersService(deps);
    this.shipping = new ShippingService(deps, this.orders);
    this.aftersales = new AftersalesService(deps);
  }

  /** The caller's merchant (shop). */
  merchant(actor: Actor) {
    return merchantOfActor(this.deps.db, actor);
  }

  /** Counts for the shop's profile (shop/info). */
  async shopCounts(
    actor: Actor,
  ): Promise<{ commodities: number; onShelf: number; orders: number; toShip: number; aftersales: number }> {
    return repo.shopCounts(this.deps.db, tenantOf(actor));
  }

  /** The local courier: pushes each simulated waybill's events whose time has come (see ShippingService). */
  runCourierSimulator(limit = 200): Promise<number> {
    return this.shipping.runCourierSimulator(limit);
  }

  /** Closes unpaid orders after the limit and confirms shipped ones after `autoConfirmDays` (see OrdersService). */
  runTimers(unpaidCloseMinutes: number, limit = 200): Promise<{ closed: number; confirmed: number }> {
    return this.orders.runTimers(unpaidCloseMinutes, limit);
  }
}
