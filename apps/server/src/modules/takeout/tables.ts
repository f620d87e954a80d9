import type { ColumnType, JSONColumnType } from "kysely";
import type { Id, Timestamp } from "../../db/columns";

type Currency = "CNY" | "USD" | "HKD";
type Defaulted<T> = ColumnType<T, T | undefined, T>;

export interface HoursRuleCol {
  days: number[];
  from: string;
  to: string;
}
export interface OptionGroupCol {
  name: string;
  required: boolean;
  max: number;
  choices: { name: string; price: number }[];
}
export interface LineCol {
  kind: "item" | "package";
  id: number;
  name: string;
  options: string[];
  unitPrice: number;
  quantity: number;
  amount: number;
  /** Stock taken: item id → units (packages take their items'). */
  stock: [number, number][];
}

/** Tables owned by the takeout module (migration 0099). */
export interface TakeoutShopsTable {
  merchant_id: number;
  name: string;
  open: Defaulted<boolean>;
  hours: JSONColumnType<HoursRuleCol[], string, string>;
  address: Defaulted<string>;
  lat: number;
  lng: number;
  area_kind: "radius" | "polygon";
  radius_m: number;
  polygon: JSONColumnType<[number, number][], string, string>;
  delivery_fee: number;
  min_order: number;
  packing_fee: number;
  tableware: boolean;
  scheduled: boolean;
  prep_minutes: number;
  currency: Currency;
  updated_at: Timestamp;
}

export interface TakeoutTypesTable {
  id: Id;
  merchant_id: number;
  name: string;
  sort: Defaulted<number>;
}

export interface TakeoutItemsTable {
  id: Id;
  merchant_id: number;
  type_id: number | null;
  name: string;
  description: Defaulted<string>;
  image: Defaulted<string>;
  price: number;
  stock: number | null;
  sold: Defaulted<number>;
  options: JSONColumnType<OptionGroupCol[], string, string>;
  on_sale: Defaulted<boolean>;
  sort: Defaulted<number>;
}

export interface TakeoutPackagesTable {
  id: Id;
  merchant_id: number;
  name: string;
  description: Defaulted<string>;
  price: number;
  items: JSONColumnType<{ itemId: number; quantity: number }[], string, string>;
  on_sale: Defaulted<boolean>;
  sort: Defaulted<number>;
}

export type TakeoutStateCol =
  "pending_payment" | "to_be_accepted" | "accepted" | "delivering" | "completed" | "cancelled";

export interface TakeoutOrdersTable {
  id: Id;
  order_no: string;
  merchant_id: number;
  customer_id: number;
  state: TakeoutStateCol;
  lines: JSONColumnType<LineCol[], string, string>;
  goods_amount: number;
  packing_fee: number;
  delivery_fee: number;
  total: number;
  refunded: Defaulted<number>;
  currency: Currency;
  contact_name: string;
  contact_phone: string;
  address: string;
  lat: number;
  lng: number;
  tableware: Defaulted<number>;
  scheduled_at: Date | null;
  remark: Defaulted<string>;
  cancel_reason: string | null;
  cancelled_by: "customer" | "shop" | "system" | null;
  request_key: string;
  created_at: Timestamp;
  paid_at: Date | null;
  /** Paid through the sandbox payment adapter: test money, settled and refunded in the sandbox accounts. */
  sandbox: Defaulted<boolean>;
  accepted_at: Date | null;
  delivering_at: Date | null;
  completed_at: Date | null;
  cancelled_at: Date | null;
}

export interface TakeoutTables {
  takeout_shops: TakeoutShopsTable;
  takeout_types: TakeoutTypesTable;
  takeout_items: TakeoutItemsTable;
  takeout_packages: TakeoutPackagesTable;
  takeout_orders: TakeoutOrdersTable;
}
