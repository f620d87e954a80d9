import type { ColumnType } from "kysely";
import type { Id, Timestamp } from "../../db/columns";

/** Tables owned by the purchasing module (migration 0014). */

export type OrderStateColumn = "processing" | "success" | "failure";

export interface PurchaseOrdersTable {
  id: Id;
  order_no: string;
  purchaser_merchant_id: number;
  supplier_merchant_id: number;
  goods_id: number;
  goods_name: string;
  business_type: string;
  quantity: number;
  unit_price: number;
  face_value: number;
  amount: number;
  currency: "CNY" | "USD" | "HKD";
  state: OrderStateColumn;
  top_up_account: string | null;
  /** The purchaser's account that paid (migration 0108). */
  paid_from: ColumnType<"sup" | "rebate", "sup" | "rebate" | undefined, "sup" | "rebate">;
  /** Store vouchers: the money waits in the order escrow until each code is redeemed and settled (migration 0114). */
  held_until_redeemed: ColumnType<boolean, boolean | undefined, boolean>;
  upstream_channel_id: string | null;
  fail_reason: string | null;
  refunded: ColumnType<boolean, boolean | undefined, boolean>;
  request_digest: string;
  created_by: number | null;
  created_at: Timestamp;
  finished_at: Date | null;
}

export type RefundStateColumn = "processing" | "success" | "failure" | "abnormal";
export type RefundCause = "request" | "expiry";

export interface RefundOrdersTable {
  id: Id;
  order_id: number;
  purchaser_merchant_id: number;
  supplier_merchant_id: number;
  quantity: number;
  amount: number;
  currency: "CNY" | "USD" | "HKD";
  reason: string;
  state: RefundStateColumn;
  /** 'expiry': store vouchers refunded by the daily job because they expired unredeemed. */
  cause: ColumnType<RefundCause, RefundCause | undefined, never>;
  fail_reason: string | null;
  requested_by: number | null;
  decided_by: number | null;
  created_at: Timestamp;
  finished_at: Date | null;
}

export interface PurchaseApplicationsTable {
  id: Id;
  purchaser_merchant_id: number;
  supplier_merchant_id: number;
  goods_id: number;
  state: ColumnType<
    "pending_review" | "rejected" | "purchasing",
    "pending_review" | undefined,
    "rejected" | "purchasing"
  >;
  price: number | null;
  secret_price: number | null;
  remark: ColumnType<string, string | undefined, string>;
  reject_reason: string | null;
  created_by: number;
  created_at: Timestamp;
  decided_at: Date | null;
}

/** Supplier whitelists (migration 0024): the purchaser may buy without a docking. */

/** The orderChat record of the brand chat (migration 0063). */
export interface OrderChatsTable {
  order_id: number;
  purchaser_user_id: number;
  started_at: Date;
  message_id: number | null;
  created_at: Timestamp;
}

export interface PurchasingTables {
  order_chats: OrderChatsTable;
  purchase_applications: PurchaseApplicationsTable;
  purchase_orders: PurchaseOrdersTable;
  refund_orders: RefundOrdersTable;
}
