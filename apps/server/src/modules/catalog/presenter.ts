import {
  SELECTION_BUSINESS_TYPES,
  type Brand,
  type BusinessType,
  type Goods,
  type Merchandise,
  type SelectionType,
} from "@tessera/contracts";
import type { BrandRow, GoodsRow, OfferedGoodsRow } from "./repo";

/** Platform rate on supplier goods (spec 01 §9): 0%. */
export const PLATFORM_RATE_BP = 0;

/** Public URL of a stored catalog image (original or thumbnail); keys are unguessable. */
export function imageUrl(key: string): string {
  return `/api/card-brander/images/${key.replace(/^catalog\//, "")}`;
}
export function thumbKeyOf(key: string): string {
  return key.replace(/\.[a-z]+$/, ".thumb.webp");
}

export function selectionOf(t: BusinessType): SelectionType {
  for (const [selection, types] of Object.entries(SELECTION_BUSINESS_TYPES) as [
    SelectionType,
    readonly BusinessType[],
  ][]) {
    if (types.includes(t)) return selection;
  }
  return "coupon";
}

export function presentBrand(row: BrandRow & { goods_count?: number | string | null }): Brand {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    logo: row.logo_key,
    logoUrl: row.logo_key ? imageUrl(thumbKeyOf(row.logo_key)) : null,
    goodsCount: Number(row.goods_count ?? 0),
    createdAt: row.created_at.toISOString(),
  };
}

export function discountBp(price: number, faceValue: number): number {
  return Math.round((price * 10000) / faceValue);
}

export function presentGoods(row: GoodsRow, supplierName: string): Goods {
  return {
    id: row.id,
    name: row.name,
    brandId: row.brand_id,
    brandName: row.brand_name,
    businessType: row.business_type as Goods["businessType"],
    equityType: row.equity_type as Goods["equityType"],
    currency: row.currency as Goods["currency"],
    faceValue: row.face_value,
    supplierId: String(row.merchant_id),
    supplierName,
    code: row.code,
    perOrderMax: row.per_order_max,
    deductionAccount: row.deduction_account as Goods["deductionAccount"],
    invoiceType: row.invoice_type as Goods["invoiceType"],
    salesScope: row.sales_scope as Goods["salesScope"],
    price: row.price,
    settlementPrice: row.settlement_price,
    discountBp: discountBp(row.price, row.face_value),
    platformRateBp: PLATFORM_RATE_BP,
    weight: row.weight,
    description: row.description,
    images: row.images.map((key) => ({ key, url: imageUrl(key), thumbUrl: imageUrl(thumbKeyOf(key)) })),
    topUpRestrictions: row.top_up_restrictions,
    arrivalQueryMethod: row.arrival_query_method as Goods["arrivalQueryMethod"],
    topUpAccountType: row.top_up_account_type as Goods["topUpAccountType"],
    recommendationIndex: row.recommendation_index,
    salesIndex: row.sales_index,
    smartPurchase: row.smart_purchase,
    lowStockThreshold: row.low_stock_threshold,
    state: row.state as Goods["state"],
    stock: row.stock,
    sold: row.sold,
    voided: row.voided,
    expired: row.expired,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** A purchaser's view: no settlement price, thresholds, weights or sales counts. */
export function presentMerchandise(row: GoodsRow, supplierName: string): Merchandise {
  const {
    settlementPrice: _s,
    lowStockThreshold: _l,
    weight: _w,
    sold: _d,
    voided: _v,
    expired: _e,
    state: _st,
    ...rest
  } = presentGoods(row, supplierName);
  return { ...rest, listPrice: rest.price, ownPrice: false };
}

/**
 * A goods as one purchaser is offered it: `price` is what its order will charge (its own price from an
 * approved purchase application, else the list price), `listPrice` the standard price.
 */
export function presentOffered(row: OfferedGoodsRow, supplierName: string): Merchandise {
  const m = presentMerchandise(row, supplierName);
  return row.agreed_price === null ? m : { ...m, price: Number(row.agreed_price), ownPrice: true };
}
