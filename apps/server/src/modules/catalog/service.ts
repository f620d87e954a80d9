import { randomUUID } from "node:crypto";
import {
  BUSINESS_TYPES,
  CODE,
  EQUITY_TYPES,
  INVOICE_TYPES,
  isCardBusinessType,
  type Brand,
  type BrandReq,
  type BranderReply,
  type ChildReq,
  type CostReply,
  type Goods,
  type GoodsReq,
  type GoodsState,
  type GoodsUpdateReq,
  type ImageReply,
  type InsupplyUpdateReq,
  type Merchandise,
  type MerchandiseQuery,
  type Page,
  type ProductSearchQuery,
  type SelectionType,
  type ServedGoodsQuery,
} from "@tessera/contracts";
import { sql, type Expression, type Insertable, type RawBuilder } from "kysely";
import type { Db, Executor } from "../../db/tx";
import { isUniqueViolation, withTx } from "../../db/tx";
import type { Actor } from "../../platform/auth/actor";
import { tenantOf } from "../../platform/auth/guard";
import { platformDay, type Clock } from "../../platform/clock";
import { AppError, conflict, invalid, notFound } from "../../platform/http/errors";
import { imageInfo, thumbnail } from "../../platform/images";
import type { FileStorage } from "../../platform/storage";
import { getMerchant } from "../merchants";
import {
  imageUrl,
  PLATFORM_RATE_BP,
  presentBrand,
  presentGoods,
  presentMerchandise,
  presentOffered,
  selectionOf,
  thumbKeyOf,
} from "./presenter";
import * as repo from "./repo";
import type { CatalogGoodsTable } from "./tables";

export interface CatalogDeps {
  db: Db;
  storage: FileStorage;
  clock: Clock;
  /** Whether a service provider serves a merchant (the onboarding module's bindings). */
  serves?: (providerId: number, merchantId: number) => Promise<boolean>;
  whoMayBuy: WhoMayBuy;
}

/**
 * The rules a goods list applies in its own query, given by the modules that own them (docking: may this
 * purchaser buy from this supplier; purchasing: the price its approved application agreed), so catalog
 * never imports them.
 */
export interface WhoMayBuy {
  condition(
    purchaserId: number,
    day: string,
    supplier: Expression<unknown> | number,
    goods: Expression<unknown> | number,
  ): RawBuilder<boolean>;
  agreedPrice(
    purchaser: Expression<unknown> | number,
    goods: Expression<unknown> | number,
  ): RawBuilder<number | string | null>;
}

const IMAGE_KEY_RE = /^catalog\/(\d+)\/[0-9a-f-]{36}\.(jpeg|png|webp|gif)$/;
const THUMB_SIZE = 320;

/** Brands, goods and goods selection (spec 01 §3 Goods, §7 product/*, merchandises). */
export class CatalogService {
  constructor(private readonly deps: CatalogDeps) {}

  private get db(): Db {
    return this.deps.db;
  }

  /** Supplier names for a page of goods, one lookup per distinct supplier. */
  private async supplierNames(db: Executor, ids: Iterable<number>): Promise<Map<number, string>> {
    const names = new Map<number, string>();
    for (const id of new Set(ids)) names.set(id, (await getMerchant(db, id))?.name ?? "");
    return names;
  }

  private async presentAll(rows: repo.GoodsRow[]): Promise<Goods[]> {
    const names = await this.supplierNames(
      this.db,
      rows.map((r) => r.merchant_id),
    );
    return rows.map((r) => presentGoods(r, names.get(r.merchant_id) ?? ""));
  }

  /* ---------- brands ---------- */

  async brander(actor: Actor): Promise<BranderReply> {
    const merchantId = tenantOf(actor);
    const merchant = await getMerchant(this.db, merchantId);
    if (!merchant) throw notFound();
    const brands = await repo.listBrands(this.db, merchantId);
    return {
      merchantId: String(merchantId),
      name: merchant.name,
      currency: merchant.currency,
      brands: brands.map(presentBrand),
    };
  }

  async brands(actor: Actor): Promise<Brand[]> {
    return (await repo.listBrands(this.db, tenantOf(actor))).map(presentBrand);
  }

  /** Creates a brand, or updates one of the brander's own (`POST brander/update`). */
  async saveBrand(actor: Actor, req: BrandReq): Promise<Brand> {
    const merchantId = tenantOf(actor);
    if (req.logo) await this.checkImage(merchantId, req.logo);
    try {
      const id = await withTx(this.db, async (tx) => {
        if (req.id === undefined) {
          return repo.insertBrand(tx, {
            merchant_id: merchantId,
            name: req.name,
            description: req.description,
            logo_key: req.logo,
          });
        }
        const updated = await repo.updateBrand(tx, merchantId, req.id, {
          name: req.name,
          description: req.description,
          logo_key: req.logo,
        });
        if (!updated) throw notFound();
        return req.id;
      });
      const row = (await repo.listBrands(this.db, merchantId)).find((b) => b.id === id);
      if (!row) throw notFound();
      return presentBrand(row);
    } catch (err) {
      if (isUniqueViolation(err, "catalog_brands_name_uq")) throw conflict("catalog.brandNameTaken", "name");
      throw err;
    }
  }

  cardTypes() {
    return {
      businessTypes: BUSINESS_TYPES.map((value) => ({
        value,
        selection: selectionOf(value),
        cardStock: isCardBusinessType(value),
      })),
      equityTypes: [...EQUITY_TYPES],
      invoiceTypes: [...INVOICE_TYPES],
    };
  }

  /* ---------- images ---------- */

  /** Stores an uploaded goods or brand image and its thumbnail under the supplier's folder. */
  async uploadImage(actor: Actor, data: Buffer): Promise<ImageReply> {
    const merchantId = tenantOf(actor);
    const info = await imageInfo(data);
    if (!info) throw invalid("catalog.imageInvalid", "file");
    const key = `catalog/${merchantId}/${randomUUID()}.${info.format}`;
    const thumb = await thumbnail(data, THUMB_SIZE);
    await this.deps.storage.put(key, data);
    await this.deps.storage.put(thumbKeyOf(key), thumb.data);
    return { key, url: imageUrl(key), thumbUrl: imageUrl(thumbKeyOf(key)), width: info.width, height: info.height };
  }

  /** Opens a stored image for the public image route; null for anything that is not a catalog image. */
  async openImage(merchantId: string, file: string) {
    const key = `catalog/${merchantId}/${file}`;
    if (!/^catalog\/\d+\/[0-9a-f-]{36}(\.thumb\.webp|\.(jpeg|png|webp|gif))$/.test(key)) return null;
    const opened = await this.deps.storage.open(key);
    return opened ? { ...opened, contentType: `image/${/\.(\w+)$/.exec(key)?.[1] ?? "webp"}` } : null;
  }

  /** A goods or brand may show only images this supplier uploaded and that still exist. */
  private async checkImage(merchantId: number, key: string): Promise<void> {
    const m = IMAGE_KEY_RE.exec(key);
    if (!m || Number(m[1]) !== merchantId) throw invalid("catalog.imageUnknown", "images");
    const opened = await this.deps.storage.open(key);
    if (!opened) throw invalid("catalog.imageUnknown", "images");
    opened.stream.destroy();
  }

  /* ---------- goods (supplier side) ---------- */

  async searchProducts(actor: Actor, q: ProductSearchQuery): Promise<Page<Goods>> {
    const { rows, total } = await repo.searchGoods(this.db, tenantOf(actor), q);
    return { list: await this.presentAll(rows), total, page: q.page, pageSize: q.pageSize };
  }

  /**
   * A service provider's view of the goods a merchant it serves supplies (providers/SuppliedProductsP):
   * the same list and filters as the merchant's own, only while the binding is active.
   */
  async servedProducts(actor: Actor, q: ServedGoodsQuery): Promise<Page<Goods>> {
    const { merchantId, ...search } = q;
    if (!this.deps.serves || !(await this.deps.serves(tenantOf(actor), merchantId))) throw notFound();
    const { rows, total } = await repo.searchGoods(this.db, merchantId, search);
    return { list: await this.presentAll(rows), total, page: q.page, pageSize: q.pageSize };
  }

  async product(actor: Actor, goodsId: number): Promise<Goods> {
    const row = await repo.findGoods(this.db, tenantOf(actor), goodsId);
    if (!row) throw notFound();
    return (await this.presentAll([row]))[0] as Goods;
  }

  private async fieldsOf(
    merchantId: number,
    req: GoodsReq,
    db: Executor,
  ): Promise<Omit<Insertable<CatalogGoodsTable>, "merchant_id" | "currency">> {
    const brand = await repo.findBrand(db, merchantId, req.brandId);
    if (!brand) throw invalid("catalog.brandMissing", "brandId");
    for (const key of req.images) await this.checkImage(merchantId, key);
    return {
      brand_id: req.brandId,
      name: req.name,
      business_type: req.businessType,
      selection: selectionOf(req.businessType),
      equity_type: req.equityType,
      face_value: req.faceValue,
      code: req.code,
      per_order_max: req.perOrderMax,
      deduction_account: req.deductionAccount,
      invoice_type: req.invoiceType,
      sales_scope: req.salesScope,
      price: req.price,
      settlement_price: req.settlementPrice,
      weight: req.weight,
      description: req.description,
      images: JSON.stringify(req.images),
      top_up_restrictions: req.topUpRestrictions,
      arrival_query_method: req.arrivalQueryMethod,
      top_up_account_type: req.topUpAccountType,
      recommendation_index: req.recommendationIndex,
      sales_index: req.salesIndex,
      smart_purchase: req.smartPurchase,
      low_stock_threshold: req.lowStockThreshold,
    };
  }

  async addProduct(actor: Actor, req: GoodsReq): Promise<Goods> {
    const merchantId = tenantOf(actor);
    const merchant = await getMerchant(this.db, merchantId);
    if (!merchant) throw notFound();
    const fields = await this.fieldsOf(merchantId, req, this.db);
    try {
      const id = await withTx(this.db, (tx) =>
        repo.insertGoods(tx, { ...fields, merchant_id: merchantId, currency: merchant.currency }),
      );
      return await this.product(actor, id);
    } catch (err) {
      if (isUniqueViolation(err, "catalog_goods_code_uq")) throw conflict("catalog.goodsCodeTaken", "code");
      throw err;
    }
  }

  async updateProduct(actor: Actor, req: GoodsUpdateReq): Promise<Goods> {
    const merchantId = tenantOf(actor);
    const fields = await this.fieldsOf(merchantId, req, this.db);
    try {
      await withTx(this.db, async (tx) => {
        const current = await this.lockOwn(tx, merchantId, req.id);
        if (current.state === "void") throw conflict("catalog.goodsVoid");
        // Codes in stock were imported for this face value and type: changing either would misdescribe them.
        if (current.stock > 0 && (current.face_value !== req.faceValue || current.business_type !== req.businessType)) {
          throw conflict("catalog.stockFieldsLocked", "faceValue");
        }
        await repo.updateGoods(tx, merchantId, req.id, fields);
      });
      return await this.product(actor, req.id);
    } catch (err) {
      if (isUniqueViolation(err, "catalog_goods_code_uq")) throw conflict("catalog.goodsCodeTaken", "code");
      throw err;
    }
  }

  private async lockOwn(tx: Executor, merchantId: number, goodsId: number) {
    const row = await repo.lockGoods(tx, goodsId);
    if (!row || row.merchant_id !== merchantId) throw notFound();
    return row;
  }

  /**
   * `DELETE product/{id}`: the goods becomes void (its codes, batches and orders keep pointing at it).
   * Refused while codes are in stock. Open orders arrive with the purchasing module.
   */
  async deleteProduct(actor: Actor, goodsId: number): Promise<void> {
    await this.setState(actor, goodsId, "void");
  }

  /** Supplied goods states (spec 01 §4): available ⇄ disabled; void is final and needs an empty stock. */
  async setState(actor: Actor, goodsId: number, state: GoodsState): Promise<Goods> {
    const merchantId = tenantOf(actor);
    await withTx(this.db, async (tx) => {
      const current = await this.lockOwn(tx, merchantId, goodsId);
      if (current.state === state) return;
      if (current.state === "void") {
        throw new AppError(CODE.CONFLICT, "catalog.stateChange", { from: current.state, to: state });
      }
      if (state === "void" && current.stock > 0) {
        throw new AppError(CODE.CONFLICT, "catalog.hasStock", { count: current.stock });
      }
      await repo.updateGoods(tx, merchantId, goodsId, { state });
    });
    return this.product(actor, goodsId);
  }

  async updateInsupply(actor: Actor, goodsId: number, req: InsupplyUpdateReq): Promise<Goods> {
    const merchantId = tenantOf(actor);
    await withTx(this.db, async (tx) => {
      const current = await this.lockOwn(tx, merchantId, goodsId);
      if (current.state === "void") throw conflict("catalog.goodsVoid");
      const price = req.price ?? current.price;
      const settlement = req.settlementPrice ?? current.settlement_price;
      if (settlement > price) throw invalid("catalog.settlementPriceInvalid", "settlementPrice");
      await repo.updateGoods(tx, merchantId, goodsId, {
        price,
        settlement_price: settlement,
        per_order_max: req.perOrderMax ?? current.per_order_max,
        weight: req.weight ?? current.weight,
        low_stock_threshold: req.lowStockThreshold ?? current.low_stock_threshold,
      });
    });
    if (req.state) return this.setState(actor, goodsId, req.state);
    return this.product(actor, goodsId);
  }

  /** `POST insupply/merchandise/child`: adds (or re-counts) a child item of a combo goods. */
  async addChild(actor: Actor, req: ChildReq): Promise<CostReply> {
    const merchantId = tenantOf(actor);
    await withTx(this.db, async (tx) => {
      const parent = await this.lockOwn(tx, merchantId, req.inSupplyMerchandiseId);
      if (parent.business_type !== "combo") throw invalid("catalog.comboOnly", "inSupplyMerchandiseId");
      const child = await repo.findGoods(tx, merchantId, req.childId);
      if (!child || child.id === parent.id || child.business_type === "combo" || child.state === "void") {
        throw invalid("catalog.childInvalid", "childId");
      }
      await repo.upsertChild(tx, parent.id, child.id, req.quantity);
    });
    return this.cost(actor, req.inSupplyMerchandiseId);
  }

  /** `GET insupply/cost/{id}`: what one unit costs the supplier and what it keeps. */
  async cost(actor: Actor, goodsId: number): Promise<CostReply> {
    const row = await repo.findGoods(this.db, tenantOf(actor), goodsId);
    if (!row) throw notFound();
    const children = (await repo.listChildren(this.db, goodsId)).map((c) => ({
      id: c.id,
      name: c.name,
      quantity: c.quantity,
      settlementPrice: c.settlement_price,
      cost: c.settlement_price * c.quantity,
    }));
    const platformFee = Math.round((row.price * PLATFORM_RATE_BP) / 10000);
    const childrenCost = children.reduce((s, c) => s + c.cost, 0);
    return {
      id: row.id,
      currency: row.currency as CostReply["currency"],
      price: row.price,
      settlementPrice: row.settlement_price,
      platformRateBp: PLATFORM_RATE_BP,
      platformFee,
      children,
      childrenCost,
      margin: row.price - platformFee - row.settlement_price,
    };
  }

  /* ---------- goods selection (purchaser side) ---------- */

  /**
   * The condition on a goods row `g` that lets this purchaser see it: the purchasing module's rule
   * (docked with the supplier, authorised by the brand, or whitelisted), applied in the list's own query.
   */
  private buyableBy(purchaserId: number): repo.Buyable {
    const day = platformDay(this.deps.clock.now());
    return this.deps.whoMayBuy.condition(purchaserId, day, sql.ref("g.merchant_id"), sql.ref("g.id"));
  }

  /** What a purchaser may buy and at which price: what its orders will check and charge. */
  private viewOf(purchaserId: number): repo.PurchaserView {
    return {
      buyable: this.buyableBy(purchaserId),
      agreedPrice: this.deps.whoMayBuy.agreedPrice(purchaserId, sql.ref("g.id")),
    };
  }

  /** A purchaser sees the goods on sale in its version's scope that it may buy. */
  async merchandises(actor: Actor, q: MerchandiseQuery): Promise<Page<Merchandise>> {
    return this.merchandisesIn({ id: tenantOf(actor), version: actor.version }, q);
  }

  /** The same list for a merchant known by id (the open API's product list, for a signed request). */
  async merchandisesIn(
    purchaser: { id: number; version: Actor["version"] },
    q: MerchandiseQuery,
  ): Promise<Page<Merchandise>> {
    const { rows, total } = await repo.selectGoods(this.db, q, purchaser.version, this.viewOf(purchaser.id));
    const names = await this.supplierNames(
      this.db,
      rows.map((r) => r.merchant_id),
    );
    return {
      list: rows.map((r) => presentOffered(r, names.get(r.merchant_id) ?? "")),
      total,
      page: q.page,
      pageSize: q.pageSize,
    };
  }

  async merchandise(actor: Actor, goodsId: number): Promise<Merchandise> {
    const row = await repo.findGoodsOnSale(this.db, goodsId, this.viewOf(tenantOf(actor)));
    if (!row || (row.sales_scope !== "all" && row.sales_scope !== actor.version)) throw notFound();
    const names = await this.supplierNames(this.db, [row.merchant_id]);
    return presentOffered(row, names.get(row.merchant_id) ?? "");
  }

  /** Goods by id in the purchaser's view, whatever their state (goods it bought and may resell). */
  async merchandisesByIds(ids: number[]): Promise<Map<number, Merchandise>> {
    const rows = await repo.findGoodsByIds(this.db, ids);
    const names = await this.supplierNames(
      this.db,
      rows.map((r) => r.merchant_id),
    );
    return new Map(rows.map((r) => [r.id, presentMerchandise(r, names.get(r.merchant_id) ?? "")]));
  }

  async merchandiseFilters(actor: Actor, type: SelectionType) {
    const buyable = this.buyableBy(tenantOf(actor));
    const [brands, faceValues] = await Promise.all([
      repo.brandsOnSale(this.db, type, buyable),
      repo.faceValuesOnSale(this.db, type, buyable),
    ]);
    return { brands, faceValues };
  }
}
