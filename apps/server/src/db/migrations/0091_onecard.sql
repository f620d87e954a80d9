-- Stored-value and gift cards (module onecard). Card money is in two books: the merchants' ledger
-- (a purchaser pays for cards from SUP into the platform's order escrow; activation releases the price
-- to the brand's income; a return refunds it to SUP) and, per card, an append-only movement list whose
-- sum is the card's balance (never below zero, never below what is held).

CREATE TABLE onecard_products (
  id                bigserial PRIMARY KEY,
  brander_id        bigint NOT NULL REFERENCES merchants (id),
  kind              text NOT NULL CHECK (kind IN ('face_value', 'discount', 'guide')),
  name              text NOT NULL,
  face_value        bigint NOT NULL CHECK (face_value >= 0),
  sale_price        bigint NOT NULL CHECK (sale_price >= 0),
  currency          text NOT NULL CHECK (currency IN ('CNY', 'USD', 'HKD')),
  named             boolean NOT NULL,
  validity_kind     text NOT NULL CHECK (validity_kind IN ('fixed', 'days', 'none')),
  valid_until       date,
  valid_days        integer,
  recharge_allowed  boolean NOT NULL DEFAULT true,
  scope             text NOT NULL DEFAULT '',
  terms             text NOT NULL DEFAULT '',
  on_sale           boolean NOT NULL DEFAULT true,
  created_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX onecard_products_brander_idx ON onecard_products (brander_id, id DESC);

CREATE TABLE onecard_batches (
  id           bigserial PRIMARY KEY,
  product_id   bigint NOT NULL REFERENCES onecard_products (id),
  brander_id   bigint NOT NULL REFERENCES merchants (id),
  count        integer NOT NULL CHECK (count > 0),
  request_key  text NOT NULL,
  created_by   bigint NOT NULL REFERENCES users (id),
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX onecard_batches_request_key ON onecard_batches (brander_id, request_key);
CREATE INDEX onecard_batches_product_idx ON onecard_batches (product_id, id DESC);

-- A purchase of cards: paid from the purchaser's SUP account (ledger key onecard:sale:<id>).
CREATE TABLE onecard_sales (
  id            bigserial PRIMARY KEY,
  purchaser_id  bigint NOT NULL REFERENCES merchants (id),
  brander_id    bigint NOT NULL REFERENCES merchants (id),
  product_id    bigint NOT NULL REFERENCES onecard_products (id),
  quantity      integer NOT NULL CHECK (quantity > 0),
  unit_price    bigint NOT NULL CHECK (unit_price >= 0),
  face_value    bigint NOT NULL,
  currency      text NOT NULL,
  request_key   text NOT NULL,
  created_by    bigint NOT NULL REFERENCES users (id),
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX onecard_sales_request_key ON onecard_sales (purchaser_id, request_key);
CREATE INDEX onecard_sales_purchaser_idx ON onecard_sales (purchaser_id, id DESC);

CREATE TABLE onecard_activations (
  id            bigserial PRIMARY KEY,
  purchaser_id  bigint NOT NULL REFERENCES merchants (id),
  count         integer NOT NULL,
  amount        bigint NOT NULL,
  request_key   text NOT NULL,
  created_by    bigint NOT NULL REFERENCES users (id),
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX onecard_activations_request_key ON onecard_activations (purchaser_id, request_key);

CREATE TABLE onecard_returns (
  id            bigserial PRIMARY KEY,
  purchaser_id  bigint NOT NULL REFERENCES merchants (id),
  count         integer NOT NULL,
  amount        bigint NOT NULL,
  currency      text NOT NULL,
  reason        text NOT NULL DEFAULT '',
  request_key   text NOT NULL,
  created_by    bigint NOT NULL REFERENCES users (id),
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX onecard_returns_request_key ON onecard_returns (purchaser_id, request_key);
CREATE INDEX onecard_returns_purchaser_idx ON onecard_returns (purchaser_id, id DESC);

-- End customers: a phone number, logged in by SMS code, with their own tokens (spec 01 §6).
CREATE TABLE onecard_customers (
  id          bigserial PRIMARY KEY,
  phone       text NOT NULL UNIQUE,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE onecard_customer_sessions (
  id           bigserial PRIMARY KEY,
  customer_id  bigint NOT NULL REFERENCES onecard_customers (id),
  token_hash   text NOT NULL UNIQUE,
  expires_at   timestamptz NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX onecard_customer_sessions_customer_idx ON onecard_customer_sessions (customer_id);

-- One card. The number is stored sealed (with its password, AES-256-GCM) and found by a keyed hash;
-- the password is checked against a keyed hash. serial orders the cards of a batch (number ranges).
CREATE TABLE onecard_cards (
  id               bigserial PRIMARY KEY,
  batch_id         bigint NOT NULL REFERENCES onecard_batches (id),
  serial           integer NOT NULL,
  product_id       bigint NOT NULL REFERENCES onecard_products (id),
  brander_id       bigint NOT NULL REFERENCES merchants (id),
  no_hash          text NOT NULL UNIQUE,
  no_masked        text NOT NULL,
  sealed           text NOT NULL,
  pwd_hash         text NOT NULL,
  state            text NOT NULL DEFAULT 'issued' CHECK (state IN ('issued', 'sold', 'activated', 'frozen', 'expired', 'returned', 'void')),
  face_value       bigint NOT NULL,
  currency         text NOT NULL,
  balance          bigint NOT NULL DEFAULT 0 CHECK (balance >= 0),
  held             bigint NOT NULL DEFAULT 0 CHECK (held >= 0 AND held <= balance),
  owner_id         bigint REFERENCES merchants (id),
  sale_id          bigint REFERENCES onecard_sales (id),
  sale_price       bigint,
  activation_id    bigint REFERENCES onecard_activations (id),
  return_id        bigint REFERENCES onecard_returns (id),
  customer_id      bigint REFERENCES onecard_customers (id),
  activated_at     timestamptz,
  expires_at       timestamptz,
  extracted_at     timestamptz,
  wrong_attempts   integer NOT NULL DEFAULT 0,
  locked_until     timestamptz,
  CHECK (state = 'issued' OR owner_id IS NOT NULL)
);
CREATE UNIQUE INDEX onecard_cards_batch_serial ON onecard_cards (batch_id, serial);
CREATE INDEX onecard_cards_stock_idx ON onecard_cards (product_id, id) WHERE state = 'issued';
CREATE INDEX onecard_cards_owner_idx ON onecard_cards (owner_id, id DESC) WHERE owner_id IS NOT NULL;
CREATE INDEX onecard_cards_sale_idx ON onecard_cards (sale_id) WHERE sale_id IS NOT NULL;
CREATE INDEX onecard_cards_customer_idx ON onecard_cards (customer_id) WHERE customer_id IS NOT NULL;

-- The card's own book: every change of its balance, with the balance after it. Append-only.
CREATE TABLE onecard_moves (
  id             bigserial PRIMARY KEY,
  card_id        bigint NOT NULL REFERENCES onecard_cards (id),
  kind           text NOT NULL CHECK (kind IN ('activate', 'load', 'hold', 'capture', 'release', 'redeem', 'refund', 'adjust', 'expire', 'return')),
  amount         bigint NOT NULL,
  balance_after  bigint NOT NULL CHECK (balance_after >= 0),
  request_key    text,
  note           text NOT NULL DEFAULT '',
  created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX onecard_moves_card_idx ON onecard_moves (card_id, id DESC);
CREATE UNIQUE INDEX onecard_moves_request_key ON onecard_moves (card_id, request_key) WHERE request_key IS NOT NULL;

-- Two-phase redemption: a hold reserves part of the balance, then is captured or released.
CREATE TABLE onecard_holds (
  id           bigserial PRIMARY KEY,
  card_id      bigint NOT NULL REFERENCES onecard_cards (id),
  amount       bigint NOT NULL CHECK (amount > 0),
  state        text NOT NULL DEFAULT 'held' CHECK (state IN ('held', 'captured', 'released')),
  request_key  text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  settled_at   timestamptz
);
CREATE UNIQUE INDEX onecard_holds_request_key ON onecard_holds (request_key);
CREATE INDEX onecard_holds_card_idx ON onecard_holds (card_id);

-- Equities paid by card (direct top-ups the customer names an account for).
CREATE TABLE onecard_orders (
  id           bigserial PRIMARY KEY,
  customer_id  bigint NOT NULL REFERENCES onecard_customers (id),
  card_id      bigint NOT NULL REFERENCES onecard_cards (id),
  equity       text NOT NULL,
  account      text NOT NULL,
  amount       bigint NOT NULL CHECK (amount > 0),
  currency     text NOT NULL,
  state        text NOT NULL DEFAULT 'success' CHECK (state IN ('success', 'refunded')),
  request_key  text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX onecard_orders_request_key ON onecard_orders (customer_id, request_key);
CREATE INDEX onecard_orders_customer_idx ON onecard_orders (customer_id, id DESC);

-- Cards a purchaser gives to a phone number; claimed into that customer's card bag, or back after expiry.
CREATE TABLE onecard_gifts (
  id            bigserial PRIMARY KEY,
  purchaser_id  bigint NOT NULL REFERENCES merchants (id),
  phone         text NOT NULL,
  card_ids      bigint[] NOT NULL,
  amount        bigint NOT NULL,
  currency      text NOT NULL,
  message       text NOT NULL DEFAULT '',
  state         text NOT NULL DEFAULT 'sent' CHECK (state IN ('sent', 'claimed', 'expired')),
  request_key   text NOT NULL,
  expires_at    timestamptz NOT NULL,
  claimed_by    bigint REFERENCES onecard_customers (id),
  claimed_at    timestamptz,
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX onecard_gifts_request_key ON onecard_gifts (purchaser_id, request_key);
CREATE INDEX onecard_gifts_purchaser_idx ON onecard_gifts (purchaser_id, id DESC);
CREATE INDEX onecard_gifts_phone_idx ON onecard_gifts (phone) WHERE state = 'sent';
ALTER TABLE onecard_cards ADD COLUMN gift_id bigint REFERENCES onecard_gifts (id);

-- Every extraction (the only time passwords are shown again), for the audit of who saw what.
CREATE TABLE onecard_extractions (
  id            bigserial PRIMARY KEY,
  purchaser_id  bigint NOT NULL REFERENCES merchants (id),
  card_ids      bigint[] NOT NULL,
  created_by    bigint NOT NULL REFERENCES users (id),
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX onecard_extractions_purchaser_idx ON onecard_extractions (purchaser_id, id DESC);
