import { isCardBusinessType, type BusinessType, type Currency } from "@tessera/contracts";
import type { Executor } from "../../db/tx";
import * as repo from "./repo";

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
}

/** The goods as the purchasing module sees it, or undefined when it does not exist. */
export async function goodsForPurchase(db: Executor, goodsId: number): Promise<PurchasableGoods | undefined> {
  const row = await repo.peekGoods(db, goodsId);
  if (!row) return undefined;
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
  };
}
