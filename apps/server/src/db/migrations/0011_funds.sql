-- Funds (module funds): top-up notices filed by purchasers and reviewed by operators. The money itself
-- moves only in the ledger, in the same transaction as the review that causes it.

CREATE TABLE topup_notices (
  id              bigserial PRIMARY KEY,
  merchant_id     bigint NOT NULL REFERENCES merchants (id),
  amount          bigint NOT NULL CHECK (amount > 0),
  currency        text NOT NULL CHECK (currency IN ('CNY', 'USD', 'HKD')),
  -- The fee taken when the notice was confirmed (0 until then).
  fee             bigint NOT NULL DEFAULT 0 CHECK (fee >= 0),
  payer_type      text NOT NULL CHECK (payer_type IN ('company', 'personal')),
  payer_name      text NOT NULL,
  id_number       text NOT NULL,
  other_account   text NOT NULL,
  transfer_ref    text NOT NULL,
  proof_key       text,
  state           text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'confirmed', 'rejected')),
  reject_reason   text,
  -- A retried submission with the same key finds the first notice.
  request_key     text NOT NULL,
  submitted_by    bigint NOT NULL REFERENCES users (id),
  reviewed_by     bigint REFERENCES users (id),
  reviewed_at     timestamptz,
  created_at      timestamptz NOT NULL DEFAULT now(),
  CHECK ((state = 'rejected') = (reject_reason IS NOT NULL))
);
CREATE UNIQUE INDEX topup_notices_request_key ON topup_notices (merchant_id, request_key);
CREATE INDEX topup_notices_merchant_idx ON topup_notices (merchant_id, id DESC);
CREATE INDEX topup_notices_pending_idx ON topup_notices (id) WHERE state = 'pending';

-- Uploaded transfer proofs, owned by the merchant that uploaded them until a notice uses them.
CREATE TABLE topup_proofs (
  id           text PRIMARY KEY,
  merchant_id  bigint NOT NULL REFERENCES merchants (id),
  storage_key  text NOT NULL,
  content_type text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now()
);
