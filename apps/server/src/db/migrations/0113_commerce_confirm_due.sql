-- The order timers job looks every minute for shipped or received orders shipped before a cut-off, oldest
-- shipment first (automatic confirmation of receipt). The partial index on (state, created_at) made it
-- visit every shipped and received order of every brand to test shipped_at; this one reads only the ones
-- due, in the order the job takes them.
CREATE INDEX commerce_orders_confirm_due_idx ON commerce_orders (shipped_at) WHERE state IN ('shipped', 'received');
