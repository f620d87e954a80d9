-- The double-entry ledger (module ledger). Every movement of money is one ledger transaction whose
-- entries sum to zero; balances are kept on the account rows, updated in the same transaction.

-- One account per owner, kind and currency. Merchant accounts can never go below zero (the CHECK is the
-- last line of defence; the service refuses first with a readable message). Platform accounts that
-- mirror the outside world (bank clearing) may.
CREATE TABLE ledger_accounts (
  id             bigserial PRIMARY KEY,
  merchant_id    bigint REFERENCES merchants (id),
  kind           text NOT NULL,
  currency       text NOT NULL CHECK (currency IN ('CNY', 'USD', 'HKD')),
  balance        bigint NOT NULL DEFAULT 0,
  allow_negative boolean NOT NULL DEFAULT false,
  created_at     timestamptz NOT NULL DEFAULT now(),
  CHECK (allow_negative OR balance >= 0),
  -- Only platform accounts (no merchant) may be allowed to go negative.
  CHECK (NOT allow_negative OR merchant_id IS NULL)
);
-- One account of a kind per merchant and currency; platform accounts are keyed by kind and currency.
CREATE UNIQUE INDEX ledger_accounts_merchant_key ON ledger_accounts (merchant_id, kind, currency) WHERE merchant_id IS NOT NULL;
CREATE UNIQUE INDEX ledger_accounts_platform_key ON ledger_accounts (kind, currency) WHERE merchant_id IS NULL;

CREATE TABLE ledger_transactions (
  id              bigserial PRIMARY KEY,
  -- A retried request carries the same key and finds its first result instead of moving money again.
  idempotency_key text NOT NULL,
  -- A digest of what the request asked for: the same key with a different request is refused.
  request_digest  text NOT NULL,
  kind            text NOT NULL,
  currency        text NOT NULL,
  reason          text NOT NULL DEFAULT '',
  -- The business record that caused the movement (a top-up notice, a withdrawal, an order ...).
  subject_type    text,
  subject_id      text,
  created_by      bigint,
  created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX ledger_transactions_idempotency_key ON ledger_transactions (idempotency_key);
CREATE INDEX ledger_transactions_subject_idx ON ledger_transactions (subject_type, subject_id) WHERE subject_type IS NOT NULL;

CREATE TABLE ledger_entries (
  id             bigserial PRIMARY KEY,
  transaction_id bigint NOT NULL REFERENCES ledger_transactions (id),
  account_id     bigint NOT NULL REFERENCES ledger_accounts (id),
  -- Signed minor units: positive adds to the account, negative takes from it. Never zero.
  amount         bigint NOT NULL CHECK (amount <> 0),
  balance_after  bigint NOT NULL,
  created_at     timestamptz NOT NULL DEFAULT now()
);
-- Fund-change lists read one account's entries newest first, filtered by time.
CREATE INDEX ledger_entries_account_idx ON ledger_entries (account_id, id DESC);
CREATE INDEX ledger_entries_account_time_idx ON ledger_entries (account_id, created_at);
CREATE INDEX ledger_entries_transaction_idx ON ledger_entries (transaction_id);
