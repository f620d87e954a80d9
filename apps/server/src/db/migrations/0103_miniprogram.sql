-- Mini-program storefronts (module miniprogram, issue 30 part A): the merchant's mall config on a social
-- platform (WeChat third-party platform or Douyin), its authorised app and tokens, the operator's template
-- library, the versions committed, audited and released. The mp_sim_* tables are the LOCAL platform
-- adapter's own state (what WeChat or Douyin would hold): authorised apps, their trial / online versions and
-- history, audits, pre-authorisation codes, audit quota and pushes.

CREATE TABLE mp_templates (
  id             bigserial PRIMARY KEY,
  platform       text NOT NULL CHECK (platform IN ('wechat', 'douyin')),
  name           text NOT NULL,
  template_type  smallint NOT NULL DEFAULT 0 CHECK (template_type IN (0, 1)),
  user_version   text NOT NULL,
  description    text NOT NULL DEFAULT '',
  params         jsonb NOT NULL DEFAULT '[]',
  deleted_at     timestamptz,
  created_at     timestamptz NOT NULL,
  updated_at     timestamptz NOT NULL
);
CREATE INDEX mp_templates_platform_idx ON mp_templates (platform, id) WHERE deleted_at IS NULL;

CREATE TABLE mp_configs (
  id                          bigserial PRIMARY KEY,
  merchant_id                 bigint NOT NULL REFERENCES merchants (id),
  platform                    text NOT NULL CHECK (platform IN ('wechat', 'douyin')),
  config_code                 text NOT NULL,
  name                        text NOT NULL,
  template_id                 bigint REFERENCES mp_templates (id),
  template_params             jsonb NOT NULL DEFAULT '{}',
  theme                       smallint NOT NULL DEFAULT 1 CHECK (theme BETWEEN 1 AND 4),
  nav_menus                   jsonb NOT NULL DEFAULT '[]',
  bottom_menus                jsonb NOT NULL DEFAULT '[]',
  customer_service            text,
  domain                      text,
  sms_signature               text,
  pay_on_platform             boolean NOT NULL DEFAULT false,
  validity_days               integer CHECK (validity_days IS NULL OR validity_days > 0),
  allow_topup_account_change  boolean NOT NULL DEFAULT false,
  category                    text NOT NULL DEFAULT '',
  description                 text NOT NULL DEFAULT '',
  app_id                      text UNIQUE,
  audit_state                 text NOT NULL DEFAULT 'not_submitted' CHECK (audit_state IN ('not_submitted', 'auditing', 'delayed', 'approved', 'rejected', 'withdrawn')),
  publish_state               text NOT NULL DEFAULT 'unpublished' CHECK (publish_state IN ('unpublished', 'published')),
  created_by                  bigint NOT NULL,
  created_at                  timestamptz NOT NULL,
  updated_at                  timestamptz NOT NULL
);
CREATE UNIQUE INDEX mp_configs_code_uq ON mp_configs (merchant_id, platform, config_code);
CREATE INDEX mp_configs_merchant_idx ON mp_configs (merchant_id, platform, id DESC);

-- The authorisation of an app to the third-party platform: tokens (access 2 h, refresh long-lived).
CREATE TABLE mp_authorizers (
  app_id               text PRIMARY KEY,
  platform             text NOT NULL CHECK (platform IN ('wechat', 'douyin')),
  merchant_id          bigint NOT NULL REFERENCES merchants (id),
  config_id            bigint NOT NULL REFERENCES mp_configs (id),
  access_token         text NOT NULL,
  access_expires_at    timestamptz NOT NULL,
  refresh_token        text NOT NULL,
  scopes               jsonb NOT NULL DEFAULT '[]',
  state                text NOT NULL DEFAULT 'authorized' CHECK (state IN ('authorized', 'unauthorized')),
  authorized_at        timestamptz NOT NULL,
  updated_at           timestamptz NOT NULL
);
CREATE INDEX mp_authorizers_merchant_idx ON mp_authorizers (merchant_id);

-- Our record of every version: what was committed (its appearance snapshot), audited and released.
CREATE TABLE mp_versions (
  id             bigserial PRIMARY KEY,
  config_id      bigint NOT NULL REFERENCES mp_configs (id),
  merchant_id    bigint NOT NULL REFERENCES merchants (id),
  app_id         text NOT NULL,
  template_id    bigint NOT NULL REFERENCES mp_templates (id),
  user_version   text NOT NULL,
  user_desc      text NOT NULL DEFAULT '',
  ext_json       text NOT NULL,
  appearance     jsonb NOT NULL,
  state          text NOT NULL DEFAULT 'trial' CHECK (state IN ('trial', 'auditing', 'delayed', 'approved', 'rejected', 'withdrawn', 'released', 'superseded', 'rolled_back', 'replaced')),
  audit_id       text,
  categories     jsonb NOT NULL DEFAULT '[]',
  host_names     jsonb NOT NULL DEFAULT '[]',
  version_desc   text NOT NULL DEFAULT '',
  reason         text,
  screenshots    jsonb NOT NULL DEFAULT '[]',
  committed_at   timestamptz NOT NULL,
  submitted_at   timestamptz,
  decided_at     timestamptz,
  released_at    timestamptz
);
CREATE INDEX mp_versions_config_idx ON mp_versions (config_id, id DESC);
CREATE INDEX mp_versions_app_idx ON mp_versions (app_id, state, id DESC);
CREATE UNIQUE INDEX mp_versions_audit_uq ON mp_versions (audit_id) WHERE audit_id IS NOT NULL;

-- ---- The LOCAL platform adapter's state (what the real platform holds) ----
CREATE TABLE mp_sim_preauth (
  code                 text PRIMARY KEY,
  platform             text NOT NULL CHECK (platform IN ('wechat', 'douyin')),
  redirect_uri         text NOT NULL,
  expires_at           timestamptz NOT NULL,
  auth_code            text UNIQUE,
  auth_code_expires_at timestamptz,
  app_id               text,
  used_at              timestamptz
);

CREATE TABLE mp_sim_apps (
  app_id             text PRIMARY KEY,
  platform           text NOT NULL CHECK (platform IN ('wechat', 'douyin')),
  nick_name          text NOT NULL,
  access_token       text NOT NULL UNIQUE,
  access_expires_at  timestamptz NOT NULL,
  previous_token     text,
  previous_until     timestamptz,
  refresh_token      text NOT NULL UNIQUE,
  authorized         boolean NOT NULL DEFAULT true,
  trial              jsonb,
  online             jsonb,
  history            jsonb NOT NULL DEFAULT '[]',
  can_rollback       boolean NOT NULL DEFAULT false,
  rolled_back_at     timestamptz,
  created_at         timestamptz NOT NULL
);

CREATE TABLE mp_sim_audits (
  audit_id      bigserial PRIMARY KEY,
  app_id        text NOT NULL REFERENCES mp_sim_apps (app_id),
  platform      text NOT NULL CHECK (platform IN ('wechat', 'douyin')),
  status        smallint NOT NULL DEFAULT 2 CHECK (status BETWEEN 0 AND 4),
  version       jsonb NOT NULL,
  item_list     jsonb NOT NULL DEFAULT '[]',
  host_names    jsonb NOT NULL DEFAULT '[]',
  reason        text,
  screenshots   jsonb NOT NULL DEFAULT '[]',
  submitted_at  timestamptz NOT NULL,
  decided_at    timestamptz,
  decided_by    bigint
);
CREATE INDEX mp_sim_audits_status_idx ON mp_sim_audits (status, audit_id);
CREATE INDEX mp_sim_audits_app_idx ON mp_sim_audits (app_id, audit_id DESC);

-- Audit quota per platform and month (shared by every merchant of the third-party platform).
CREATE TABLE mp_sim_quota (
  platform  text NOT NULL CHECK (platform IN ('wechat', 'douyin')),
  month     text NOT NULL,
  used      integer NOT NULL DEFAULT 0,
  PRIMARY KEY (platform, month)
);

-- Pushes the platform sent and operations it counts (withdrawals per app per day and month).
CREATE TABLE mp_sim_events (
  id        bigserial PRIMARY KEY,
  platform  text NOT NULL,
  app_id    text NOT NULL,
  event     text NOT NULL,
  payload   jsonb NOT NULL DEFAULT '{}',
  at        timestamptz NOT NULL
);
CREATE INDEX mp_sim_events_app_idx ON mp_sim_events (app_id, event, at);
