-- Store redemption looks a code up by its number alone (module stores, issue 27): the clerk types or
-- scans the number, not the goods. supply_cards_number_uq leads with goods_id, so the lookup
-- (merchant_id, number_hash) scanned every code of the table; this index makes it one probe.
CREATE INDEX supply_cards_number_hash_idx ON supply_cards (number_hash);
