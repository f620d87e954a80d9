-- Merchants (organisations). The merchant ID users see is this bigint, starting at 10000001.
CREATE SEQUENCE merchant_id_seq START WITH 10000001;

CREATE TABLE merchants (
  id              bigint PRIMARY KEY DEFAULT nextval('merchant_id_seq'),
  name            text NOT NULL,
  version         text NOT NULL CHECK (version IN ('domestic', 'international')),
  country         text,
  currency        text NOT NULL CHECK (currency IN ('CNY', 'USD', 'HKD')),
  -- What the merchant may act as: sale (purchaser), business (supplier/brand owner), providers.
  roles           text[] NOT NULL,
  real_name_state text NOT NULL DEFAULT 'not_verified' CHECK (real_name_state IN ('not_verified', 'verified', 'expired')),
  api_permission  text NOT NULL DEFAULT 'not_opened' CHECK (api_permission IN ('opened', 'not_opened')),
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  -- Domestic merchants settle in CNY, international ones in USD or HKD (spec 01 §1).
  CHECK ((version = 'domestic' AND currency = 'CNY') OR (version = 'international' AND currency IN ('USD', 'HKD')))
);
ALTER SEQUENCE merchant_id_seq OWNED BY merchants.id;
