import {
  CODE,
  type TakeoutApplet,
  type TakeoutItem,
  type TakeoutMenu,
  type TakeoutPackage,
  type TakeoutShop,
  type TakeoutType,
  type takeoutItemReq,
  type takeoutPackageReq,
  type takeoutShopReq,
  type takeoutTypeReq,
} from "@tessera/contracts";
import type { z } from "zod";
import { withTx, type Db } from "../../db/tx";
import type { Actor } from "../../platform/auth/actor";
import { tenantOf } from "../../platform/auth/guard";
import { audit } from "../../platform/audit";
import { platformDay, startOfPlatformDay } from "../../platform/clock";
import { AppError, conflict, invalid } from "../../platform/http/errors";
import { merchantOfActor } from "../merchants";
import { insidePolygon, openAt } from "./delivery";
import type { TakeoutDeps } from "./service";
import * as shopRepo from "./shop.repo";

type ShopReq = z.output<typeof takeoutShopReq>;
type TypeReq = z.output<typeof takeoutTypeReq>;
type ItemReq = z.output<typeof takeoutItemReq>;
type PackageReq = z.output<typeof takeoutPackageReq>;

export const notFound = (
  key:
    | "takeout.orderNotFound"
    | "takeout.itemNotFound"
    | "takeout.packageNotFound"
    | "takeout.typeNotFound"
    | "takeout.shopNotFound",
) => new AppError(CODE.NOT_FOUND, key);

/**
 * The takeout shop (brand): its settings, categories, items and combos; the customer's menu of a shop; the
 * provider's TakeoutApplet over the shops of the brands it serves.
 */
export class ShopService {
  constructor(private readonly deps: TakeoutDeps) {}
  private get db(): Db {
    return this.deps.db;
  }
  private now(): Date {
    return this.deps.clock.now();
  }

  async shop(actor: Actor): Promise<TakeoutShop | null> {
    const row = await shopRepo.shopOf(this.db, tenantOf(actor));
    return row ? this.presentShop(row) : null;
  }

  async saveShop(actor: Actor, req: ShopReq): Promise<TakeoutShop> {
    const merchant = await merchantOfActor(this.db, actor);
    if (req.areaKind === "polygon" && req.polygon.length < 3) throw invalid("takeout.areaInvalid", "polygon");
    // The area is drawn around the shop: one that leaves the shop out was drawn for another place (issue 40 item 14).
    if (req.areaKind === "polygon" && !insidePolygon(req, req.polygon)) {
      throw invalid("takeout.shopOutsideArea", "polygon");
    }
    await withTx(this.db, async (tx) => {
      await shopRepo.upsertShop(tx, { merchantId: merchant.id, ...req, currency: merchant.currency, now: this.now() });
      await audit(tx, {
        actorUserId: actor.userId,
        action: "takeout.shop.save",
        subjectType: "merchant",
        subjectId: merchant.id,
      });
    });
    const row = await shopRepo.shopOf(this.db, merchant.id);
    if (!row) throw notFound("takeout.shopNotFound");
    return this.presentShop(row);
  }

  private presentShop(s: shopRepo.ShopRow): TakeoutShop {
    const m = (amount: number) => ({ amount, currency: s.currency });
    return {
      merchantId: String(s.merchant_id),
      name: s.name,
      open: s.open,
      openNow: s.open && openAt(s.hours, this.now()),
      hours: s.hours,
      address: s.address,
      lat: s.lat,
      lng: s.lng,
      areaKind: s.area_kind,
      radiusM: s.radius_m,
      polygon: s.polygon,
      deliveryFee: m(s.delivery_fee),
      minOrder: m(s.min_order),
      packingFee: m(s.packing_fee),
      tableware: s.tableware,
      scheduled: s.scheduled,
      prepMinutes: s.prep_minutes,
    };
  }

  async types(actor: Actor): Promise<TakeoutType[]> {
    return (await shopRepo.typesOf(this.db, tenantOf(actor))).map((t) => ({
      id: String(t.id),
      name: t.name,
      sort: t.sort,
    }));
  }
  async saveType(actor: Actor, id: number | null, req: TypeReq): Promise<TakeoutType[]> {
    const merchantId = tenantOf(actor);
    await withTx(this.db, async (tx) => {
      if (id === null) await shopRepo.insertType(tx, merchantId, req.name, req.sort);
      else if (!(await shopRepo.updateType(tx, id, merchantId, req.name, req.sort))) {
        throw notFound("takeout.typeNotFound");
      }
    });
    return this.types(actor);
  }
  async deleteType(actor: Actor, id: number): Promise<TakeoutType[]> {
    const merchantId = tenantOf(actor);
    await withTx(this.db, async (tx) => {
      if (!(await shopRepo.typeOf(tx, id, merchantId))) throw notFound("takeout.typeNotFound");
      if (await shopRepo.typeInUse(tx, id)) throw conflict("takeout.typeInUse");
      await shopRepo.deleteType(tx, id, merchantId);
    });
    return this.types(actor);
  }

  async items(actor: Actor): Promise<TakeoutItem[]> {
    const merchant = await merchantOfActor(this.db, actor);
    return (await shopRepo.itemsOf(this.db, merchant.id)).map((i) => presentItem(i, merchant.currency));
  }
  async saveItem(actor: Actor, id: number | null, req: ItemReq): Promise<TakeoutItem[]> {
    const merchantId = tenantOf(actor);
    const typeId = req.typeId ? Number(req.typeId) : null;
    await withTx(this.db, async (tx) => {
      if (typeId !== null && !(await shopRepo.typeOf(tx, typeId, merchantId))) {
        throw invalid("takeout.typeNotFound", "typeId");
      }
      const values = { ...req, typeId };
      if (id === null) await shopRepo.insertItem(tx, merchantId, values);
      else if (!(await shopRepo.updateItem(tx, id, merchantId, values))) throw notFound("takeout.itemNotFound");
    });
    return this.items(actor);
  }

  async packages(actor: Actor): Promise<TakeoutPackage[]> {
    const merchant = await merchantOfActor(this.db, actor);
    const [packages, items] = await Promise.all([
      shopRepo.packagesOf(this.db, merchant.id),
      shopRepo.itemsOf(this.db, merchant.id),
    ]);
    return packages.map((p) => presentPackage(p, items, merchant.currency));
  }
  async savePackage(actor: Actor, id: number | null, req: PackageReq): Promise<TakeoutPackage[]> {
    const merchantId = tenantOf(actor);
    const own = new Set((await shopRepo.itemsOf(this.db, merchantId)).map((i) => i.id));
    for (const [i, it] of req.items.entries()) {
      if (!own.has(Number(it.itemId))) throw invalid("takeout.itemNotFound", `items.${i}.itemId`);
    }
    const values = { ...req, items: req.items.map((i) => ({ itemId: Number(i.itemId), quantity: i.quantity })) };
    await withTx(this.db, async (tx) => {
      if (id === null) await shopRepo.insertPackage(tx, merchantId, values);
      else if (!(await shopRepo.updatePackage(tx, id, merchantId, values))) throw notFound("takeout.packageNotFound");
    });
    return this.packages(actor);
  }

  /** The customer's menu of a shop: settings, categories, items and combos on sale. */
  async menu(merchantId: number): Promise<TakeoutMenu> {
    const shop = await shopRepo.shopOf(this.db, merchantId);
    if (!shop) throw notFound("takeout.shopNotFound");
    const [types, items, packages] = await Promise.all([
      shopRepo.typesOf(this.db, merchantId),
      shopRepo.itemsOf(this.db, merchantId, true),
      shopRepo.packagesOf(this.db, merchantId, true),
    ]);
    const all = await shopRepo.itemsOf(this.db, merchantId);
    return {
      shop: this.presentShop(shop),
      types: types.map((t) => ({ id: String(t.id), name: t.name, sort: t.sort })),
      items: items.map((i) => presentItem(i, shop.currency)),
      packages: packages.map((p) => presentPackage(p, all, shop.currency)),
    };
  }

  /**
   * TakeoutApplet (provider): the takeout shops of the brands a provider serves: whether each has one,
   * open now, its customer page, today's orders and completed takings, orders waiting for the shop.
   */
  async applets(brands: { merchantId: number; name: string }[]): Promise<TakeoutApplet[]> {
    const ids = brands.map((b) => b.merchantId);
    const since = startOfPlatformDay(platformDay(this.now()));
    const [shops, figures] = await Promise.all([
      shopRepo.shopsOf(this.db, ids),
      shopRepo.shopFigures(this.db, ids, since),
    ]);
    const shopOf = new Map(shops.map((s) => [s.merchant_id, s]));
    const figuresOf = new Map(figures.map((f) => [f.merchant_id, f]));
    return brands.map((b) => {
      const s = shopOf.get(b.merchantId);
      const f = figuresOf.get(b.merchantId);
      return {
        merchantId: String(b.merchantId),
        merchantName: b.name,
        shop: s ? this.presentShop(s) : null,
        link: `/takeout/${b.merchantId}`,
        ordersToday: Number(f?.today ?? 0),
        waiting: Number(f?.waiting ?? 0),
        completedToday: { amount: Number(f?.completed_amount ?? 0), currency: s?.currency ?? "CNY" },
      };
    });
  }
}

function presentItem(i: shopRepo.ItemRow, currency: "CNY" | "USD" | "HKD"): TakeoutItem {
  return {
    id: String(i.id),
    typeId: i.type_id === null ? null : String(i.type_id),
    name: i.name,
    description: i.description,
    image: i.image,
    price: { amount: i.price, currency },
    stock: i.stock,
    sold: i.sold,
    options: i.options,
    onSale: i.on_sale,
    sort: i.sort,
  };
}

function presentPackage(
  p: shopRepo.PackageRow,
  items: shopRepo.ItemRow[],
  currency: "CNY" | "USD" | "HKD",
): TakeoutPackage {
  const names = new Map(items.map((i) => [i.id, i.name]));
  return {
    id: String(p.id),
    name: p.name,
    description: p.description,
    price: { amount: p.price, currency },
    items: p.items.map((i) => ({ itemId: String(i.itemId), name: names.get(i.itemId) ?? "", quantity: i.quantity })),
    onSale: p.on_sale,
    sort: p.sort,
  };
}
