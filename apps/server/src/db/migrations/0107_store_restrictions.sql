-- Per-goods store restrictions and customers' dynamic codes (module stores, issue 27).
--
-- A brand may limit where the codes of one of its goods are redeemable: no rows for a goods means all
-- the brand's stores (the default); rows mean only the stores listed.
CREATE TABLE store_goods_restrictions (
  goods_id    bigint NOT NULL REFERENCES catalog_goods (id) ON DELETE CASCADE,
  store_id    bigint NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
  brander_id  bigint NOT NULL REFERENCES merchants (id),
  created_at  timestamptz NOT NULL,
  PRIMARY KEY (goods_id, store_id)
);
CREATE INDEX store_goods_restrictions_store_idx ON store_goods_restrictions (store_id);

-- A customer's short-lived dynamic code for one of their one-card cards, shown in the card bag and
-- entered or scanned by a clerk instead of the card number and password. Stored (its HMAC digest) with
-- its expiry and its single use; see onecard/dyncode.ts for why it is stored rather than derived.
CREATE TABLE onecard_dynamic_codes (
  id             bigserial PRIMARY KEY,
  code_hash      text NOT NULL UNIQUE,
  card_id        bigint NOT NULL REFERENCES onecard_cards (id),
  customer_id    bigint NOT NULL REFERENCES onecard_customers (id),
  brander_id     bigint NOT NULL REFERENCES merchants (id),
  expires_at     timestamptz NOT NULL,
  used_at        timestamptz,
  used_ref       text,
  created_at     timestamptz NOT NULL
);
CREATE INDEX onecard_dynamic_codes_card_idx ON onecard_dynamic_codes (card_id, created_at);
