-- Withdrawals (module withdrawals): the merchant's withdrawal bank card, reviewed by an operator, and
-- withdrawal records. The amount is held in the ledger when a withdrawal is requested and released
-- or paid out when it ends; the state and its ledger movement are written in one transaction.

CREATE TABLE withdrawal_cards (
  id            bigserial PRIMARY KEY,
  merchant_id   bigint NOT NULL REFERENCES merchants (id),
  company_name  text NOT NULL,
  bank          text NOT NULL,
  city          text NOT NULL,
  account       text NOT NULL,
  state         text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'approved', 'rejected')),
  reject_reason text,
  -- A replaced card stays for the records of the withdrawals paid to it.
  current       boolean NOT NULL DEFAULT true,
  submitted_by  bigint NOT NULL REFERENCES users (id),
  reviewed_by   bigint REFERENCES users (id),
  reviewed_at   timestamptz,
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX withdrawal_cards_current ON withdrawal_cards (merchant_id) WHERE current;
CREATE INDEX withdrawal_cards_pending ON withdrawal_cards (id) WHERE state = 'pending' AND current;

CREATE TABLE withdrawals (
  id                bigserial PRIMARY KEY,
  merchant_id       bigint NOT NULL REFERENCES merchants (id),
  account           text NOT NULL CHECK (account IN ('reserve', 'income')),
  amount            bigint NOT NULL CHECK (amount > 0),
  currency          text NOT NULL CHECK (currency IN ('CNY', 'USD', 'HKD')),
  card_id           bigint NOT NULL REFERENCES withdrawal_cards (id),
  state             text NOT NULL DEFAULT 'under_review'
                    CHECK (state IN ('under_review', 'first_review_passed', 'bank_paying', 'success', 'failed')),
  remark            text NOT NULL DEFAULT '',
  fail_reason       text,
  automatic         boolean NOT NULL DEFAULT false,
  request_key       text NOT NULL,
  requested_by      bigint REFERENCES users (id),
  first_reviewed_by bigint REFERENCES users (id),
  second_reviewed_by bigint REFERENCES users (id),
  payout_reference  text,
  -- The platform day (UTC+8) it was requested on, for the daily count limit.
  request_day       date NOT NULL,
  created_at        timestamptz NOT NULL DEFAULT now(),
  finished_at       timestamptz,
  -- The two reviews are done by two different operators.
  CHECK (second_reviewed_by IS NULL OR second_reviewed_by <> first_reviewed_by)
);
CREATE UNIQUE INDEX withdrawals_request_key ON withdrawals (merchant_id, request_key);
-- Only one withdrawal of a merchant may be in progress: the database refuses a second one even when two
-- requests race past the service's check.
CREATE UNIQUE INDEX withdrawals_one_in_progress ON withdrawals (merchant_id)
  WHERE state IN ('under_review', 'first_review_passed', 'bank_paying');
CREATE INDEX withdrawals_merchant_idx ON withdrawals (merchant_id, id DESC);
CREATE INDEX withdrawals_merchant_day_idx ON withdrawals (merchant_id, request_day);
CREATE INDEX withdrawals_state_idx ON withdrawals (state, id);
