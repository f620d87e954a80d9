-- A code its buyer handed on to an end customer (the mini-program mall's delivery) is no longer in the
-- buyer's own stock. Marked on the code itself, so counting and taking a buyer's stock reads only the
-- codes still held (before, every delivered code was read again on each checkout to be left out).
ALTER TABLE supply_cards ADD COLUMN resold_at timestamptz;
UPDATE supply_cards c SET resold_at = d.created_at FROM mall_deliveries d WHERE d.card_id = c.id;
-- A buyer's own stock of a goods, oldest code first.
CREATE INDEX supply_cards_buyer_stock_idx ON supply_cards (buyer_merchant_id, goods_id, id)
  WHERE state = 'sold' AND redeemed_at IS NULL AND resold_at IS NULL;
