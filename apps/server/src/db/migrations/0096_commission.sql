-- Service-provider commission (module commission, issue 29): rules set by the operator, a monthly close
-- that turns the served merchants' orders and refunds into lines and statements, and the payout of a
-- confirmed statement through the ledger (key commission:<statement id>).

-- A rate for a provider, for a scope (a business type, a brand, both or neither), valid over days.
-- Two live rules of one provider and scope never overlap (checked by the service under a lock on the
-- provider's rules).
CREATE TABLE commission_rules (
  id            bigserial PRIMARY KEY,
  provider_id   bigint NOT NULL REFERENCES merchants (id),
  business_type text,
  brand_id      bigint,
  rate_bp       integer NOT NULL CHECK (rate_bp BETWEEN 0 AND 5000),
  valid_from    date NOT NULL,
  valid_to      date,
  created_by    bigint NOT NULL REFERENCES users (id),
  created_at    timestamptz NOT NULL DEFAULT now(),
  removed_at    timestamptz,
  CHECK (valid_to IS NULL OR valid_to >= valid_from)
);
CREATE INDEX commission_rules_provider_idx ON commission_rules (provider_id, valid_from) WHERE removed_at IS NULL;

-- One close per month: the row is the close's lock (a second run of the same month waits on it, then
-- finds the month closed).
CREATE TABLE commission_closes (
  period     text PRIMARY KEY,
  statements integer NOT NULL DEFAULT 0,
  lines      integer NOT NULL DEFAULT 0,
  closed_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE commission_statements (
  id          bigserial PRIMARY KEY,
  provider_id bigint NOT NULL REFERENCES merchants (id),
  period      text NOT NULL,
  currency    text NOT NULL CHECK (currency IN ('CNY', 'USD', 'HKD')),
  opening     bigint NOT NULL DEFAULT 0,
  accrued     bigint NOT NULL DEFAULT 0,
  clawed_back bigint NOT NULL DEFAULT 0,
  closing     bigint NOT NULL DEFAULT 0,
  lines       integer NOT NULL DEFAULT 0,
  state       text NOT NULL DEFAULT 'draft' CHECK (state IN ('draft', 'paid', 'carried')),
  closed_at   timestamptz NOT NULL DEFAULT now(),
  paid_at     timestamptz,
  paid_by     bigint REFERENCES users (id),
  UNIQUE (provider_id, period, currency)
);
CREATE INDEX commission_statements_provider_idx ON commission_statements (provider_id, period DESC);

-- One line per order (accrual) and per refund (clawback) per provider: a close never counts one twice.
CREATE TABLE commission_lines (
  id           bigserial PRIMARY KEY,
  statement_id bigint NOT NULL REFERENCES commission_statements (id),
  provider_id  bigint NOT NULL,
  merchant_id  bigint NOT NULL,
  side         text NOT NULL CHECK (side IN ('brand', 'vendor')),
  kind         text NOT NULL CHECK (kind IN ('accrual', 'clawback')),
  order_id     bigint NOT NULL,
  refund_id    bigint NOT NULL DEFAULT 0,
  basis        bigint NOT NULL,
  rate_bp      integer NOT NULL,
  rule_id      bigint NOT NULL,
  amount       bigint NOT NULL,
  occurred_at  timestamptz NOT NULL
);
CREATE UNIQUE INDEX commission_lines_once ON commission_lines (provider_id, order_id, refund_id);
CREATE INDEX commission_lines_statement_idx ON commission_lines (statement_id, merchant_id);
