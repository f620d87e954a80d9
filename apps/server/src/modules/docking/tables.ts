import type { ColumnType } from "kysely";
import type { Id, Timestamp } from "../../db/columns";

/** Tables owned by the docking module (migrations 0014 and later; moved here from purchasing, issue 39). */
export type DockingStatusColumn = "pending_review" | "approved" | "rejected" | "cancelled";

export interface DockingsTable {
  id: Id;
  purchaser_merchant_id: number;
  supplier_merchant_id: number;
  status: ColumnType<DockingStatusColumn, DockingStatusColumn | undefined, DockingStatusColumn>;
  reject_reason: string | null;
  purchaser_signed_at: Date | null;
  purchaser_signed_by: number | null;
  purchaser_sign_phone: string | null;
  supplier_signed_at: Date | null;
  supplier_signed_by: number | null;
  supplier_sign_phone: string | null;
  created_by: number;
  created_at: Timestamp;
  decided_at: Date | null;
}

export interface BrandAuthsTable {
  id: Id;
  brand_merchant_id: number;
  grantee_merchant_id: number;
  grantee_kind: "purchaser" | "provider";
  remark: ColumnType<string, string | undefined, string>;
  valid_until: ColumnType<string | null, string | null | undefined, string | null>;
  active: ColumnType<boolean, boolean | undefined, boolean>;
  created_by: number;
  created_at: Timestamp;
  revoked_at: Date | null;
}

export interface PurchaseWhitelistsTable {
  id: Id;
  supplier_merchant_id: number;
  purchaser_merchant_id: number;
  scope: "vendor" | "goods";
  goods_id: number | null;
  remark: ColumnType<string, string | undefined, string>;
  created_by: number;
  created_at: Timestamp;
  removed_at: Date | null;
  removed_by: number | null;
}

export interface DockingTables {
  dockings: DockingsTable;
  brand_auths: BrandAuthsTable;
  purchase_whitelists: PurchaseWhitelistsTable;
}
