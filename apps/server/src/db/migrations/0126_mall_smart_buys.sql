-- Issue 43 (found by the mall bench's validity check): the codes a mall checkout buys from the supplier for
-- itself ("smart purchase") are that checkout's until it hands them on. While in flight, other checkouts of
-- the same merchant neither count them as stock nor take them (they took them before, leaving the buyer
-- short three times over and the customer refused with "sold out" while the supplier had stock). A hold is
-- written before the purchase (purchase_order_id still empty: every code the merchant is sold from then on
-- may be this checkout's) and names its purchase order once placed.
CREATE TABLE mall_smart_buys (
  hold_key text PRIMARY KEY,
  merchant_id bigint NOT NULL REFERENCES merchants (id),
  purchase_order_id text,
  created_at timestamptz NOT NULL
);
CREATE INDEX mall_smart_buys_merchant ON mall_smart_buys (merchant_id, created_at);
