-- Official accounts (公众号) and local-life accounts bound through the platform's authorisation flow
-- (module miniprogram, issue 30: WechatOfficial, DockWechat, LocaLivePlatform), and the mall's refund key.
--
-- The LOCAL platform's consent now knows what kind of account a pre-auth code asks for (WeChat's
-- componentloginpage auth_type: mini-program or official account; Douyin's local-life services
-- authorisation), and records the calls it would have answered for an official account (menu/create,
-- message/template/send) so the back-office can show them.

ALTER TABLE mp_sim_preauth ADD COLUMN account_type text NOT NULL DEFAULT 'miniprogram' CHECK (account_type IN ('miniprogram', 'official', 'life'));
ALTER TABLE mp_sim_apps ADD COLUMN account_type text NOT NULL DEFAULT 'miniprogram' CHECK (account_type IN ('miniprogram', 'official', 'life'));

CREATE TABLE mp_sim_calls (
  id         bigserial PRIMARY KEY,
  platform   text NOT NULL CHECK (platform IN ('wechat', 'douyin')),
  app_id     text NOT NULL REFERENCES mp_sim_apps (app_id),
  operation  text NOT NULL,
  payload    jsonb NOT NULL DEFAULT '{}',
  at         timestamptz NOT NULL
);
CREATE INDEX mp_sim_calls_app_idx ON mp_sim_calls (app_id, id DESC);

-- Our side: an account a merchant bound. kind 'official': a merchant's official account on WeChat
-- (brand_id 0); kind 'life': a service provider's authorisation on Douyin local services for a brand it
-- serves (brand_id the brand). One live binding per (merchant, kind, brand); an app bound once at a time.
CREATE TABLE mp_accounts (
  id                 bigserial PRIMARY KEY,
  kind               text NOT NULL CHECK (kind IN ('official', 'life')),
  platform           text NOT NULL CHECK (platform IN ('wechat', 'douyin')),
  merchant_id        bigint NOT NULL REFERENCES merchants (id),
  brand_id           bigint NOT NULL DEFAULT 0,
  app_id             text NOT NULL,
  nick_name          text NOT NULL,
  scopes             jsonb NOT NULL DEFAULT '[]',
  access_token       text NOT NULL,
  access_expires_at  timestamptz NOT NULL,
  refresh_token      text NOT NULL,
  state              text NOT NULL DEFAULT 'authorized' CHECK (state IN ('authorized', 'unauthorized', 'unbound')),
  menu               jsonb,
  authorized_at      timestamptz NOT NULL,
  updated_at         timestamptz NOT NULL
);
CREATE UNIQUE INDEX mp_accounts_live_uq ON mp_accounts (merchant_id, kind, brand_id) WHERE state = 'authorized';
CREATE UNIQUE INDEX mp_accounts_app_uq ON mp_accounts (app_id) WHERE state = 'authorized';
CREATE INDEX mp_accounts_merchant_idx ON mp_accounts (merchant_id, kind, id DESC);

-- A refund request's key: the same key again returns the refunded order and changes nothing.
ALTER TABLE mall_orders ADD COLUMN refund_key text;
