-- Purchaser rebates (module commission, issue 29): a supplier's rules (tiers by monthly volume, for one
-- purchaser or all, for one goods or all), statements made by the monthly close and paid from the
-- supplier's income into the purchaser's rebate account through the ledger (key rebate:<statement id>).

CREATE TABLE rebate_rules (
  id           bigserial PRIMARY KEY,
  supplier_id  bigint NOT NULL REFERENCES merchants (id),
  purchaser_id bigint REFERENCES merchants (id),
  goods_id     bigint,
  -- [{"minVolume": minor units, "rateBp": basis points}], ascending by minVolume.
  tiers        jsonb NOT NULL,
  valid_from   date NOT NULL,
  valid_to     date,
  created_by   bigint NOT NULL REFERENCES users (id),
  created_at   timestamptz NOT NULL DEFAULT now(),
  removed_at   timestamptz,
  CHECK (valid_to IS NULL OR valid_to >= valid_from)
);
CREATE INDEX rebate_rules_supplier_idx ON rebate_rules (supplier_id) WHERE removed_at IS NULL;

-- One statement per supplier, purchaser and month: the volume, the tier reached and the rebate.
CREATE TABLE rebate_statements (
  id           bigserial PRIMARY KEY,
  supplier_id  bigint NOT NULL REFERENCES merchants (id),
  purchaser_id bigint NOT NULL REFERENCES merchants (id),
  period       text NOT NULL,
  currency     text NOT NULL CHECK (currency IN ('CNY', 'USD', 'HKD')),
  rule_id      bigint NOT NULL REFERENCES rebate_rules (id),
  volume       bigint NOT NULL,
  rate_bp      integer NOT NULL,
  amount       bigint NOT NULL CHECK (amount > 0),
  state        text NOT NULL DEFAULT 'due' CHECK (state IN ('due', 'paid')),
  closed_at    timestamptz NOT NULL DEFAULT now(),
  paid_at      timestamptz,
  UNIQUE (supplier_id, purchaser_id, period, currency)
);
CREATE INDEX rebate_statements_purchaser_idx ON rebate_statements (purchaser_id, period DESC);
CREATE INDEX rebate_statements_supplier_idx ON rebate_statements (supplier_id, period DESC);
CREATE INDEX rebate_statements_due_idx ON rebate_statements (id) WHERE state = 'due';
