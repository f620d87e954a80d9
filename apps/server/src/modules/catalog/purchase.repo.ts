import { isCardBusinessType, type BusinessType, type Currency, type TopUpAccountType } from "@tessera/contracts";
import type { Executor } from "../../db/tx";

/** What an order needs to know about a goods: who supplies it, its price and how it is fulfilled. */
export interface PurchasableGoods {
  id: number;
  supplierMerchantId: number;
  name: string;
  businessType: BusinessType;
  /** Codes from stock (card secrets, coupons) rather than a top-up the supplier fulfils. */
  fromStock: boolean;
  currency: Currency;
  /** Unit price to purchasers, minor units. */
  price: number;
  faceValue: number;
  perOrderMax: number;
  salesScope: string;
  available: boolean;
  /** What a top-up's account must be (topUpAccountProblem); "none" for codes from stock. */
  topUpAccountType: TopUpAccountType;
}

/**
 * The catalog_goods columns a PurchasableGoods is made of. Another module's statement that reads a goods
 * together with its own rows (an order's one read before its transaction) selects these, under the
 * same names, and hands the row to toPurchasableGoods; only the few columns an order needs are read.
 */
export const PURCHASABLE_GOODS_COLUMNS = [
  "id",
  "merchant_id",
  "name",
  "business_type",
  "currency",
  "price",
  "face_value",
  "per_order_max",
  "sales_scope",
  "state",
  "top_up_account_type",
] as const;

export interface PurchasableGoodsRow {
  id: number;
  merchant_id: number;
  name: string;
  business_type: string;
  currency: string;
  price: number;
  face_value: number;
  per_order_max: number;
  sales_scope: string;
  state: string;
  top_up_account_type: string;
}

export function toPurchasableGoods(row: PurchasableGoodsRow): PurchasableGoods {
  const businessType = row.business_type as BusinessType;
  return {
    id: row.id,
    supplierMerchantId: row.merchant_id,
    name: row.name,
    businessType,
    fromStock: isCardBusinessType(businessType),
    currency: row.currency as Currency,
    price: row.price,
    faceValue: row.face_value,
    perOrderMax: row.per_order_max,
    salesScope: row.sales_scope,
    available: row.state === "available",
    topUpAccountType: row.top_up_account_type as TopUpAccountType,
  };
}

/** The goods as the purchasing module sees it, or undefined when it does not exist. */
export async function goodsForPurchase(db: Executor, goodsId: number): Promise<PurchasableGoods | undefined> {
  const row = await db
    .selectFrom("catalog_goods")
    .select(PURCHASABLE_GOODS_COLUMNS)
    .where("id", "=", goodsId)
    .executeTakeFirst();
  return row ? toPurchasableGoods(row) : undefined;
}
