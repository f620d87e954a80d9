-- One payments seam (issue 37): every place that takes a customer's money (the mall's wallet pay, takeout,
-- the collection payer page) records a payment here and credits money only on the adapter's confirmation.
-- `sandbox` says the money was "collected" by the local adapter, which collects nothing: such payments land
-- in the sandbox accounts (sandbox_clearing, sandbox_escrow, sandbox_income, sandbox_fees), which never
-- feed withdrawals, transfers or the automatic payout. Orders keep the flag so that their refunds and
-- settlements move the same kind of money the payment brought in, whatever the configuration is later.
CREATE TABLE payments (
  id              bigserial PRIMARY KEY,
  payment_no      text NOT NULL UNIQUE,
  provider        text NOT NULL,
  sandbox         boolean NOT NULL,
  merchant_id     bigint NOT NULL REFERENCES merchants (id),
  subject_type    text NOT NULL CHECK (subject_type IN ('mall_order', 'takeout_order', 'pay_order')),
  subject_id      bigint NOT NULL,
  amount          bigint NOT NULL CHECK (amount > 0),
  currency        text NOT NULL CHECK (currency IN ('CNY', 'USD', 'HKD')),
  state           text NOT NULL CHECK (state IN ('pending', 'paid', 'closed')),
  refunded        bigint NOT NULL DEFAULT 0 CHECK (refunded >= 0 AND refunded <= amount),
  provider_txn_id text,
  -- What the adapter sent the provider (the local adapter: the request a real provider would have got).
  request         jsonb NOT NULL,
  created_at      timestamptz NOT NULL,
  paid_at         timestamptz
);
CREATE UNIQUE INDEX payments_subject_idx ON payments (subject_type, subject_id);
CREATE INDEX payments_merchant_idx ON payments (merchant_id, id DESC);

CREATE TABLE payment_refunds (
  id          bigserial PRIMARY KEY,
  payment_id  bigint NOT NULL REFERENCES payments (id),
  refund_no   text NOT NULL UNIQUE,
  amount      bigint NOT NULL CHECK (amount > 0),
  state       text NOT NULL CHECK (state IN ('processing', 'success', 'failed')),
  created_at  timestamptz NOT NULL
);
CREATE INDEX payment_refunds_payment_idx ON payment_refunds (payment_id);

ALTER TABLE mall_orders ADD COLUMN sandbox boolean NOT NULL DEFAULT false;
ALTER TABLE takeout_orders ADD COLUMN sandbox boolean NOT NULL DEFAULT false;
ALTER TABLE pay_orders ADD COLUMN sandbox boolean NOT NULL DEFAULT false;

-- Automatic payouts that wait for an operator (issue 37): why, as a message key with its parameters.
ALTER TABLE withdrawals ADD COLUMN review_reason jsonb;

-- Mall testers (issue 37): the beta (experience) storefront serves only these customers' phones.
CREATE TABLE mall_testers (
  merchant_id bigint NOT NULL REFERENCES merchants (id),
  phone       text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (merchant_id, phone)
);
