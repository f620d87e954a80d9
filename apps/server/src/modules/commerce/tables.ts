import type { ColumnType, JSONColumnType } from "kysely";
import type { Id, Timestamp } from "../../db/columns";

type Currency = "CNY" | "USD" | "HKD";
type Defaulted<T> = ColumnType<T, T | undefined, T>;
export interface SpecGroup {
  name: string;
  values: string[];
}

/** Tables owned by the commerce module (migration 0098). */
export interface CommerceCommoditiesTable {
  id: Id;
  merchant_id: number;
  kind: "physical" | "virtual";
  name: string;
  category: Defaulted<string>;
  description: Defaulted<string>;
  images: JSONColumnType<string[], string, string>;
  video_id: number | null;
  spec_groups: JSONColumnType<SpecGroup[], string, string>;
  sort: Defaulted<number>;
  on_shelf: Defaulted<boolean>;
  weight_g: Defaulted<number>;
  freight_first: Defaulted<number>;
  freight_extra: Defaulted<number>;
  free_over: number | null;
  currency: Currency;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface CommerceSkusTable {
  id: Id;
  commodity_id: number;
  merchant_id: number;
  specs: JSONColumnType<string[], string, string>;
  price: number;
  stock: number;
  sold: Defaulted<number>;
  code: Defaulted<string>;
  active: Defaulted<boolean>;
}

export interface CommerceResalesTable {
  id: Id;
  purchaser_id: number;
  commodity_id: number;
  retail_price: number | null;
  created_at: Timestamp;
}

export type OrderStateCol = "to_pay" | "to_ship" | "shipped" | "received" | "completed" | "closed";

export interface CommerceOrdersTable {
  id: Id;
  order_no: string;
  purchaser_id: number;
  brand_id: number;
  kind: "physical" | "virtual";
  state: OrderStateCol;
  goods_amount: number;
  freight: Defaulted<number>;
  pay_amount: number;
  refunded_amount: Defaulted<number>;
  currency: Currency;
  consignee_name: Defaulted<string>;
  consignee_phone: Defaulted<string>;
  province_code: Defaulted<string>;
  city_code: Defaulted<string>;
  county_code: Defaulted<string>;
  region_names: Defaulted<string>;
  address: Defaulted<string>;
  remark: Defaulted<string>;
  close_reason: string | null;
  request_key: string;
  created_by: number;
  created_at: Timestamp;
  updated_at: Timestamp;
  paid_at: Date | null;
  shipped_at: Date | null;
  received_at: Date | null;
  completed_at: Date | null;
  closed_at: Date | null;
}

export interface CommerceOrderItemsTable {
  id: Id;
  order_id: number;
  sku_id: number;
  commodity_id: number;
  name: string;
  specs: JSONColumnType<string[], string, string>;
  unit_price: number;
  quantity: number;
  amount: number;
  refunded: Defaulted<number>;
  returned_qty: Defaulted<number>;
}

export interface CommerceExpressCompaniesTable {
  code: string;
  name: string;
  sort: Defaulted<number>;
}

export interface CommerceShipmentsTable {
  id: Id;
  order_id: number;
  brand_id: number;
  purchaser_id: number;
  aftersale_id: number | null;
  company_code: string;
  waybill_no: string;
  state: number | null;
  courier: "local" | "kuaidi100" | "manual";
  remark: Defaulted<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
  signed_at: Date | null;
}

export interface CommerceTrackingEventsTable {
  id: Id;
  shipment_id: number;
  at: Timestamp;
  state: number;
  context: string;
  area: Defaulted<string>;
  created_at: Timestamp;
}

export interface CommerceCourierSimTable {
  waybill_no: string;
  company_code: string;
  outcome: "signed" | "refused" | "returned";
  step_seconds: number;
  pushed: Defaulted<number>;
  done: Defaulted<boolean>;
  created_at: Timestamp;
}

export type AfterSaleStateCol =
  | "apply"
  | "seller_agree"
  | "buyer_delivery"
  | "wait_refund"
  | "complete"
  | "buyer_cancel"
  | "seller_disagree"
  | "seller_refuse";

export interface CommerceAftersalesTable {
  id: Id;
  order_id: number;
  order_item_id: number;
  purchaser_id: number;
  brand_id: number;
  way: "refund" | "return_and_refund";
  state: AfterSaleStateCol;
  quantity: number;
  amount: number;
  currency: Currency;
  reason: string;
  seller_reason: string | null;
  return_company: string | null;
  return_waybill: string | null;
  /** Where the goods go back to, given by the brand when it agrees to a return (migration 0119). */
  return_address: ColumnType<string | null, string | null | undefined, string | null>;
  request_key: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  refunded_at: Date | null;
}

export interface CommerceTables {
  commerce_commodities: CommerceCommoditiesTable;
  commerce_skus: CommerceSkusTable;
  commerce_resales: CommerceResalesTable;
  commerce_orders: CommerceOrdersTable;
  commerce_order_items: CommerceOrderItemsTable;
  commerce_express_companies: CommerceExpressCompaniesTable;
  commerce_shipments: CommerceShipmentsTable;
  commerce_tracking_events: CommerceTrackingEventsTable;
  commerce_courier_sim: CommerceCourierSimTable;
  commerce_aftersales: CommerceAftersalesTable;
}
