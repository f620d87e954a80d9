-- Payment collection (module collection): aggregated onboarding applications on the payment aggregator
-- (WeChat Pay applyment4sub states), collection codes per account, the payment orders payers make
-- through them and their refunds. Money moves through the ledger: a payment credits the merchant's
-- income less the fee (fee to the platform), a refund takes it back from the merchant's income.

CREATE TABLE pay_applications (
  id                 bigserial PRIMARY KEY,
  merchant_id        bigint NOT NULL REFERENCES merchants (id),
  business_code      text NOT NULL UNIQUE,
  state              text NOT NULL DEFAULT 'EDITTING' CHECK (state IN ('EDITTING', 'AUDITING', 'REJECTED', 'TO_BE_CONFIRMED', 'TO_BE_SIGNED', 'SIGNING', 'FINISHED', 'CANCELED')),
  company_name       text NOT NULL DEFAULT '',
  credit_code        text NOT NULL DEFAULT '',
  legal_person       text NOT NULL DEFAULT '',
  legal_id_no        text NOT NULL DEFAULT '',
  contact_name       text NOT NULL DEFAULT '',
  contact_phone      text NOT NULL DEFAULT '',
  industry_code      text NOT NULL DEFAULT '',
  bank_name          text NOT NULL DEFAULT '',
  bank_account       text NOT NULL DEFAULT '',
  bank_account_name  text NOT NULL DEFAULT '',
  licence_image      text NOT NULL DEFAULT '',
  fee_bps            integer NOT NULL DEFAULT 0,
  reject_reason      text,
  sign_token         text UNIQUE,
  sub_mchid          text,
  submitted_at       timestamptz,
  reviewed_at        timestamptz,
  reviewed_by        bigint,
  signed_at          timestamptz,
  finished_at        timestamptz,
  created_at         timestamptz NOT NULL,
  updated_at         timestamptz NOT NULL
);
-- One application per merchant (a rejected one is fixed and resubmitted under the same business code).
CREATE UNIQUE INDEX pay_applications_merchant_uq ON pay_applications (merchant_id) WHERE state <> 'CANCELED';
CREATE INDEX pay_applications_state_idx ON pay_applications (state, id);

CREATE TABLE pay_codes (
  id           bigserial PRIMARY KEY,
  merchant_id  bigint NOT NULL REFERENCES merchants (id),
  passport_id  bigint NOT NULL REFERENCES users (id),
  store_id     bigint REFERENCES stores (id),
  name         text NOT NULL,
  token        text NOT NULL UNIQUE,
  created_at   timestamptz NOT NULL,
  deleted_at   timestamptz
);
CREATE INDEX pay_codes_passport_idx ON pay_codes (merchant_id, passport_id, id DESC) WHERE deleted_at IS NULL;

CREATE TABLE pay_orders (
  id           bigserial PRIMARY KEY,
  merchant_id  bigint NOT NULL REFERENCES merchants (id),
  code_id      bigint NOT NULL REFERENCES pay_codes (id),
  order_no     text NOT NULL UNIQUE,
  request_key  text NOT NULL,
  amount       bigint NOT NULL CHECK (amount > 0),
  fee          bigint NOT NULL CHECK (fee >= 0),
  refunded     bigint NOT NULL DEFAULT 0 CHECK (refunded >= 0 AND refunded <= amount),
  currency     text NOT NULL CHECK (currency IN ('CNY', 'USD', 'HKD')),
  state        text NOT NULL DEFAULT 'NOTPAY' CHECK (state IN ('NOTPAY', 'SUCCESS', 'CLOSED')),
  note         text NOT NULL DEFAULT '',
  paid_at      timestamptz,
  created_at   timestamptz NOT NULL
);
CREATE UNIQUE INDEX pay_orders_request_uq ON pay_orders (code_id, request_key);
CREATE INDEX pay_orders_merchant_idx ON pay_orders (merchant_id, id DESC);

CREATE TABLE pay_refunds (
  id           bigserial PRIMARY KEY,
  merchant_id  bigint NOT NULL REFERENCES merchants (id),
  order_id     bigint NOT NULL REFERENCES pay_orders (id),
  request_key  text NOT NULL,
  amount       bigint NOT NULL CHECK (amount > 0),
  currency     text NOT NULL CHECK (currency IN ('CNY', 'USD', 'HKD')),
  state        text NOT NULL DEFAULT 'PROCESSING' CHECK (state IN ('PROCESSING', 'SUCCESS', 'FAILURE')),
  reason       text NOT NULL DEFAULT '',
  fail_reason  text,
  created_by   bigint NOT NULL,
  created_at   timestamptz NOT NULL,
  finished_at  timestamptz
);
CREATE UNIQUE INDEX pay_refunds_request_uq ON pay_refunds (merchant_id, request_key);
CREATE INDEX pay_refunds_merchant_idx ON pay_refunds (merchant_id, id DESC);
CREATE INDEX pay_refunds_order_idx ON pay_refunds (order_id);
