-- An equity paid with a card is a purchase order of the card's brand (the purchasing path): the goods,
-- the brand's order number, and the outcome (processing, then success, or failed with the card paid back).
ALTER TABLE onecard_orders DROP CONSTRAINT onecard_orders_state_check;
ALTER TABLE onecard_orders ALTER COLUMN state SET DEFAULT 'processing';
ALTER TABLE onecard_orders ADD CONSTRAINT onecard_orders_state_check CHECK (state IN ('processing', 'success', 'failed', 'refunded'));
ALTER TABLE onecard_orders ADD COLUMN brander_id bigint REFERENCES merchants (id);
ALTER TABLE onecard_orders ADD COLUMN goods_id bigint;
ALTER TABLE onecard_orders ADD COLUMN order_no text;
-- Why it failed: a message key (rendered in the reader's language) or the supplier's own words.
ALTER TABLE onecard_orders ADD COLUMN fail_key text;
ALTER TABLE onecard_orders ADD COLUMN fail_params jsonb;
ALTER TABLE onecard_orders ADD COLUMN fail_reason text;
ALTER TABLE onecard_orders ADD COLUMN finished_at timestamptz;
CREATE UNIQUE INDEX onecard_orders_order_no ON onecard_orders (order_no);
CREATE INDEX onecard_orders_open_idx ON onecard_orders (created_at) WHERE state = 'processing';
