-- Write-off (核销) at brand stores and its daily settlement (module stores). A code bought through
-- purchasing is marked redeemed on its supply row (once); one-card redemptions are card movements of the
-- onecard module. Each redemption is a row here; a settlement document per store and platform day sums
-- them and moves the money through the ledger once.

ALTER TABLE supply_cards ADD COLUMN redeemed_at timestamptz;
ALTER TABLE supply_cards ADD COLUMN redeemed_ref text;

CREATE TABLE store_redemptions (
  id             bigserial PRIMARY KEY,
  brander_id     bigint NOT NULL REFERENCES merchants (id),
  store_id       bigint NOT NULL REFERENCES stores (id),
  clerk_id       bigint NOT NULL REFERENCES users (id),
  source         text NOT NULL CHECK (source IN ('coupon', 'onecard')),
  source_id      bigint NOT NULL,
  -- coupon:<supply card id> (a code once) or onecard:<brand>:<request key>.
  dedupe_key     text NOT NULL UNIQUE,
  request_key    text NOT NULL,
  item_name      text NOT NULL,
  code_mask      text NOT NULL,
  value          bigint NOT NULL CHECK (value >= 0),
  settle_amount  bigint NOT NULL CHECK (settle_amount >= 0),
  currency       text NOT NULL CHECK (currency IN ('CNY', 'USD', 'HKD')),
  purchaser_id   bigint,
  order_ref      text,
  day            text NOT NULL,
  doc_id         bigint,
  created_at     timestamptz NOT NULL
);
CREATE UNIQUE INDEX store_redemptions_request_uq ON store_redemptions (brander_id, request_key);
CREATE INDEX store_redemptions_brander_idx ON store_redemptions (brander_id, id DESC);
CREATE INDEX store_redemptions_store_idx ON store_redemptions (store_id, day);
CREATE INDEX store_redemptions_unsettled_idx ON store_redemptions (day, store_id) WHERE doc_id IS NULL;
CREATE INDEX store_redemptions_purchaser_idx ON store_redemptions (purchaser_id, id DESC) WHERE purchaser_id IS NOT NULL;

CREATE TABLE store_settlement_docs (
  id            bigserial PRIMARY KEY,
  brander_id    bigint NOT NULL REFERENCES merchants (id),
  store_id      bigint NOT NULL REFERENCES stores (id),
  day           text NOT NULL,
  currency      text NOT NULL CHECK (currency IN ('CNY', 'USD', 'HKD')),
  -- 1 for the day's document; an operator's run of a day not yet over, then the nightly run, make part 2.
  part          integer NOT NULL DEFAULT 1,
  count         integer NOT NULL,
  value         bigint NOT NULL,
  amount        bigint NOT NULL,
  state         text NOT NULL DEFAULT 'settled' CHECK (state IN ('settled')),
  ledger_tx_id  bigint,
  created_at    timestamptz NOT NULL
);
CREATE UNIQUE INDEX store_settlement_docs_uq ON store_settlement_docs (store_id, day, currency, part);
CREATE INDEX store_settlement_docs_brander_idx ON store_settlement_docs (brander_id, day DESC, id DESC);
