-- Transfers between merchants (module transfers). Money moves in the ledger only when the recipient
-- accepts, in the same transaction as the state change.

-- A merchant authorises outgoing transfers once, with an SMS code to the authorising user's phone.
CREATE TABLE transit_auths (
  merchant_id   bigint PRIMARY KEY REFERENCES merchants (id),
  authorised_by bigint NOT NULL REFERENCES users (id),
  phone         text NOT NULL,
  authorised_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE transfers (
  id               bigserial PRIMARY KEY,
  from_merchant_id bigint NOT NULL REFERENCES merchants (id),
  to_merchant_id   bigint NOT NULL REFERENCES merchants (id),
  amount           bigint NOT NULL CHECK (amount > 0),
  currency         text NOT NULL CHECK (currency IN ('CNY', 'USD', 'HKD')),
  remark           text NOT NULL DEFAULT '',
  contract_no      text,
  state            text NOT NULL DEFAULT 'created' CHECK (state IN ('created', 'refused', 'completed')),
  refuse_reason    text,
  request_key      text NOT NULL,
  created_by       bigint NOT NULL REFERENCES users (id),
  decided_by       bigint REFERENCES users (id),
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  completed_at     timestamptz,
  CHECK (from_merchant_id <> to_merchant_id)
);
CREATE UNIQUE INDEX transfers_request_key ON transfers (from_merchant_id, request_key);
CREATE INDEX transfers_from_idx ON transfers (from_merchant_id, id DESC);
CREATE INDEX transfers_to_idx ON transfers (to_merchant_id, id DESC);
CREATE INDEX transfers_contract_idx ON transfers (contract_no) WHERE contract_no IS NOT NULL;
