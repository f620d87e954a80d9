-- Users, sessions, verification codes and the login throttle (module accounts).

CREATE TABLE users (
  id                   bigserial PRIMARY KEY,
  kind                 text NOT NULL CHECK (kind IN ('merchant', 'customer', 'operator')),
  merchant_id          bigint REFERENCES merchants (id),
  email                text NOT NULL,
  phone                text,
  password_hash        text NOT NULL,
  must_change_password boolean NOT NULL DEFAULT false,
  disabled_at          timestamptz,
  password_changed_at  timestamptz NOT NULL DEFAULT now(),
  created_at           timestamptz NOT NULL DEFAULT now(),
  updated_at           timestamptz NOT NULL DEFAULT now(),
  -- Merchant staff belong to exactly one merchant; customers and operators to none.
  CHECK ((kind = 'merchant') = (merchant_id IS NOT NULL))
);
-- Emails are stored lower-cased; one account per email, one per phone.
CREATE UNIQUE INDEX users_email_key ON users (email);
CREATE UNIQUE INDEX users_phone_key ON users (phone) WHERE phone IS NOT NULL;
CREATE INDEX users_merchant_idx ON users (merchant_id) WHERE merchant_id IS NOT NULL;

-- Login sessions. Only a SHA-256 of the token is stored, so a database leak yields no usable token.
CREATE TABLE sessions (
  id          bigserial PRIMARY KEY,
  user_id     bigint NOT NULL REFERENCES users (id),
  token_hash  text NOT NULL,
  version     text NOT NULL CHECK (version IN ('domestic', 'international')),
  created_at  timestamptz NOT NULL,
  expires_at  timestamptz NOT NULL,
  revoked_at  timestamptz,
  ip          text,
  user_agent  text
);
CREATE UNIQUE INDEX sessions_token_hash_key ON sessions (token_hash);
-- Password reset revokes every live session of a user.
CREATE INDEX sessions_user_live_idx ON sessions (user_id) WHERE revoked_at IS NULL;

-- E-mail and SMS verification codes: keyed hash only, expiring, single-use, a few tries each.
CREATE TABLE verification_codes (
  id          bigserial PRIMARY KEY,
  channel     text NOT NULL CHECK (channel IN ('email', 'sms')),
  target      text NOT NULL,
  scene       text NOT NULL,
  code_hash   text NOT NULL,
  attempts    integer NOT NULL DEFAULT 0,
  created_at  timestamptz NOT NULL,
  expires_at  timestamptz NOT NULL,
  consumed_at timestamptz
);
CREATE INDEX verification_codes_lookup_idx ON verification_codes (channel, target, scene, id DESC);

-- Failed logins per account (email), whether or not the account exists, so probing learns nothing.
CREATE TABLE login_throttle (
  email           text PRIMARY KEY,
  failures        integer NOT NULL,
  last_failure_at timestamptz NOT NULL,
  locked_until    timestamptz
);
