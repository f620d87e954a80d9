-- Daily reconciliation against the payment provider's bills (issue 41, item 5). One row per difference
-- found between a provider's bill of a platform day (Asia/Shanghai) and our payments and refunds:
--   missing  we have it paid (or the refund started), the bill does not
--   extra    the bill has it, we do not
--   amount   both have it, the amounts differ
-- Unique per provider, day, entry and reference: running a day again adds nothing. An open difference
-- holds the automatic payout of its merchant (merchant_id; null when the bill names no merchant we know)
-- until an operator resolves it, with a reason.
CREATE TABLE reconciliation_differences (
  id            bigserial PRIMARY KEY,
  provider      text NOT NULL,
  day           text NOT NULL,
  kind          text NOT NULL CHECK (kind IN ('missing', 'extra', 'amount')),
  entry         text NOT NULL CHECK (entry IN ('payment', 'refund')),
  -- Our payment_no, or our refund_no for a refund.
  reference     text NOT NULL,
  payment_no    text NOT NULL,
  provider_ref  text,
  merchant_id   bigint REFERENCES merchants (id),
  our_amount    bigint,
  bill_amount   bigint,
  state         text NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'resolved')),
  resolution    text,
  resolved_by   bigint,
  resolved_at   timestamptz,
  created_at    timestamptz NOT NULL,
  UNIQUE (provider, day, entry, reference)
);
CREATE INDEX reconciliation_differences_open ON reconciliation_differences (merchant_id) WHERE state = 'open';
CREATE INDEX reconciliation_differences_list ON reconciliation_differences (id DESC);

-- The days reconciled, per provider: when, and what the bill held.
CREATE TABLE reconciliation_runs (
  provider     text NOT NULL,
  day          text NOT NULL,
  bill_lines   integer NOT NULL,
  differences  integer NOT NULL,
  ran_at       timestamptz NOT NULL,
  PRIMARY KEY (provider, day)
);
