-- Expired card secrets (issue #6): a code whose expiry date has passed (platform day, UTC+8) is neither
-- sellable nor counted in stock. The order's allocation query never picks one (its condition); the
-- expiry job moves such codes to 'expired' at the start of each platform day, in the same transaction
-- as the goods' counters, so stock = available unexpired codes.
ALTER TABLE supply_cards DROP CONSTRAINT supply_cards_state_check;
ALTER TABLE supply_cards ADD CONSTRAINT supply_cards_state_check CHECK (state IN ('available', 'sold', 'void', 'expired'));
ALTER TABLE supply_cards ADD COLUMN expired_at timestamptz;
ALTER TABLE catalog_goods ADD COLUMN expired integer NOT NULL DEFAULT 0 CHECK (expired >= 0);
-- The expiry job finds the codes whose day has passed without reading the codes that never expire or
-- are already sold; it holds only available codes with a date, so it stays small.
CREATE INDEX supply_cards_expiry_idx ON supply_cards (expires_on, goods_id) WHERE state = 'available' AND expires_on IS NOT NULL;
