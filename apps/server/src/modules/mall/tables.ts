import type { ColumnType, Generated, JSONColumnType } from "kysely";
import type { Id, Timestamp } from "../../db/columns";

type Currency = "CNY" | "USD" | "HKD";
type Defaulted<T> = ColumnType<T, T | undefined, T>;

export interface OrderLineCol {
  kind: "goods" | "bag";
  refId: number;
  name: string;
  quantity: number;
  unitPrice: number;
}

/** Tables owned by the mall module (migration 0104). */
export interface MallTables {
  /** Migration 0126: purchase orders a checkout placed for itself, its codes until it hands them on. */
  mall_smart_buys: {
    hold_key: string;
    merchant_id: number;
    purchase_order_id: string | null;
    created_at: Date;
  };
  /** Migration 0118: who may open the experience (beta) version of the merchant's mall. */
  mall_testers: {
    merchant_id: number;
    phone: string;
    created_at: Generated<Date>;
  };
  mall_self_goods: {
    id: Id;
    merchant_id: number;
    goods_id: number;
    name: string;
    price: number;
    currency: Currency;
    on_sale: Defaulted<boolean>;
    sort: Defaulted<number>;
    created_at: Generated<Date>;
    updated_at: Timestamp;
  };
  mall_gift_bags: {
    id: Id;
    merchant_id: number;
    name: string;
    description: string;
    price: number;
    currency: Currency;
    stock: number;
    sold: Defaulted<number>;
    valid_days: number;
    on_sale: Defaulted<boolean>;
    created_at: Generated<Date>;
    updated_at: Timestamp;
  };
  mall_gift_bag_items: { bag_id: number; self_goods_id: number; quantity: number };
  mall_settings: {
    merchant_id: number;
    private_code: string | null;
    brand_title: string;
    brand_intro: string;
    brand_image: string;
    updated_at: Timestamp;
  };
  mall_members: { merchant_id: number; customer_id: number; first_seen_at: Timestamp; last_seen_at: Timestamp };
  mall_orders: {
    id: Id;
    order_no: string;
    merchant_id: number;
    app_id: string;
    customer_id: number;
    state: "paid" | "delivering" | "delivered" | "failed" | "refunded";
    pay_method: "wallet" | "card";
    card_id: number | null;
    amount: number;
    currency: Currency;
    lines: JSONColumnType<OrderLineCol[]>;
    top_up_account: string | null;
    request_key: string;
    fail_reason: string | null;
    refund_reason: string | null;
    /** Migration 0106: the refund request's key. */
    refund_key: ColumnType<string | null, string | null | undefined, string | null>;
    /** Migration 0118: paid through the sandbox payment adapter (test money, in the sandbox accounts). */
    sandbox: ColumnType<boolean, boolean | undefined, boolean>;
    /** Migration 0123: what was paid back to the customer so far (expired vouchers; a full refund, the rest). */
    refunded: Defaulted<number>;
    created_at: Timestamp;
    delivered_at: Timestamp | null;
    refunded_at: Timestamp | null;
  };
  mall_deliveries: {
    id: Id;
    order_id: number;
    goods_id: number;
    name: string;
    kind: "code" | "topup";
    state: "processing" | "success" | "failed";
    card_id: number | null;
    purchase_no: string | null;
    account: string | null;
    expires_at: Timestamp | null;
    /** Migration 0123: what this unit cost the customer (null for deliveries from before). */
    price: ColumnType<number | null, number | null | undefined, number | null>;
    /** Migration 0123: when its price went back to the customer (its voucher expired unused). */
    refunded_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
    created_at: Timestamp;
  };
  mall_payments: {
    id: Id;
    order_id: number;
    provider: string;
    request: JSONColumnType<Record<string, unknown>>;
    created_at: Timestamp;
  };
  mall_sms_packages: {
    id: Id;
    merchant_id: number;
    code: string;
    count: number;
    remaining: number;
    price: number;
    currency: Currency;
    request_key: string;
    bought_at: Timestamp;
    expires_at: Timestamp;
  };
  mall_sms_records: {
    id: Id;
    merchant_id: number;
    app_id: string;
    phone: string;
    scene: string;
    package_id: number;
    state: "sent" | "failed";
    created_at: Timestamp;
  };
}
