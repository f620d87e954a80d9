import type { ColumnType, Generated } from "kysely";
import type { Id, Timestamp } from "../../db/columns";

/** Tables owned by the catalog module (migration 0008). */
export interface CatalogBrandsTable {
  id: Id;
  merchant_id: number;
  name: string;
  description: Generated<string>;
  logo_key: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface CatalogGoodsTable {
  id: Id;
  merchant_id: number;
  brand_id: number;
  name: string;
  business_type: string;
  selection: string;
  equity_type: string;
  currency: string;
  face_value: number;
  code: string;
  per_order_max: number;
  deduction_account: string;
  invoice_type: string;
  sales_scope: string;
  price: number;
  settlement_price: number;
  weight: Generated<number>;
  description: Generated<string>;
  /** Storage keys of the goods' images, in display order. */
  images: ColumnType<string[], string, string>;
  top_up_restrictions: Generated<string>;
  arrival_query_method: string;
  top_up_account_type: string;
  recommendation_index: Generated<number>;
  sales_index: Generated<number>;
  smart_purchase: Generated<boolean>;
  low_stock_threshold: Generated<number>;
  low_stock_notified_at: Timestamp | null;
  state: Generated<string>;
  stock: Generated<number>;
  sold: Generated<number>;
  voided: Generated<number>;
  /** Codes whose expiry day passed unsold (migration 0072). */
  expired: Generated<number>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface CatalogGoodsChildrenTable {
  parent_id: number;
  child_id: number;
  quantity: number;
  created_at: Generated<Date>;
}

export interface CatalogTables {
  catalog_brands: CatalogBrandsTable;
  catalog_goods: CatalogGoodsTable;
  catalog_goods_children: CatalogGoodsChildrenTable;
}
