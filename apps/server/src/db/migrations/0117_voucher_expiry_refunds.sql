-- Store vouchers that expire unused are refunded to the purchaser out of the order escrow (as group-buying
-- platforms refund a voucher nobody used: "过期自动退"); before, their price stayed in the escrow for good.
-- A refund row says why it was made: the purchaser asked ('request', decided by the supplier) or the
-- codes expired unredeemed ('expiry', made by the daily job, nobody to decide).
ALTER TABLE refund_orders ADD COLUMN cause text NOT NULL DEFAULT 'request' CHECK (cause IN ('request', 'expiry'));
-- The job's look-up: sold codes not redeemed, by expiry day (most sold codes have none and stay out).
CREATE INDEX supply_cards_sold_expiry_idx ON supply_cards (expires_on) WHERE state = 'sold' AND redeemed_at IS NULL AND expires_on IS NOT NULL;
