-- The order lists (commodity/order/pager for brands, commerce/orders for purchasers) filter by merchant,
-- optionally state, and a date range, newest first: indexes on (merchant, [state,] created_at, id) serve the
-- range, the order and the count without visiting the other states or other times. They replace the
-- (merchant, state, id) ones, whose leading columns they keep.
CREATE INDEX commerce_orders_brand_time_idx ON commerce_orders (brand_id, state, created_at DESC, id DESC);
CREATE INDEX commerce_orders_brand_all_idx ON commerce_orders (brand_id, created_at DESC, id DESC);
CREATE INDEX commerce_orders_purchaser_time_idx ON commerce_orders (purchaser_id, state, created_at DESC, id DESC);
CREATE INDEX commerce_orders_purchaser_all_idx ON commerce_orders (purchaser_id, created_at DESC, id DESC);
DROP INDEX commerce_orders_brand_idx;
DROP INDEX commerce_orders_purchaser_idx;
