-- Issue 37: a store voucher a mall customer bought that expires unused pays the customer back what they paid
-- for it (the daily expiry job refunds the purchaser from the escrow and, in the same transaction, the mall
-- refunds its customer). An order may so be refunded in part: `refunded` is what went back to the customer
-- so far (a full refund takes back the rest); each delivery keeps what its unit cost the customer and when
-- it was paid back.
ALTER TABLE mall_orders ADD COLUMN refunded bigint NOT NULL DEFAULT 0;
ALTER TABLE mall_orders ADD CONSTRAINT mall_orders_refunded_check CHECK (refunded >= 0 AND refunded <= amount);
ALTER TABLE mall_deliveries ADD COLUMN price bigint CHECK (price >= 0);
ALTER TABLE mall_deliveries ADD COLUMN refunded_at timestamptz;
