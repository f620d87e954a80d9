-- The purchaser's live whitelist entries, for the eligibility rule (purchasing/eligibility.ts) that goods
-- lists and orders share: it reads a purchaser's entries by purchaser, which no index served.
CREATE INDEX purchase_whitelists_purchaser_idx ON purchase_whitelists (purchaser_merchant_id) WHERE removed_at IS NULL;
