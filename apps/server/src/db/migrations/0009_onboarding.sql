-- Merchant onboarding (module onboarding), sub-accounts (module accounts) and the operator console (module ops).

-- Sub-accounts are users of their merchant with a subset of the area's pages; NULL menus = the main account.
ALTER TABLE users ADD COLUMN display_name text;
ALTER TABLE users ADD COLUMN menus text[];

-- The company profile shown on BasicInformation / BasicInfo / EssentialInfo.
CREATE TABLE merchant_profiles (
  merchant_id          bigint PRIMARY KEY REFERENCES merchants (id),
  legal_representative text,
  contact_name         text,
  contact_phone        text,
  contact_email        text,
  address              text,
  industry             text,
  logo_key             text,
  updated_at           timestamptz NOT NULL DEFAULT now()
);

-- Images uploaded for real-name verification; the bytes live in file storage under storage_key.
CREATE TABLE real_name_documents (
  id           bigserial PRIMARY KEY,
  merchant_id  bigint NOT NULL REFERENCES merchants (id),
  kind         text NOT NULL CHECK (kind IN ('license', 'id_front', 'id_back')),
  storage_key  text NOT NULL,
  content_type text NOT NULL,
  width        integer NOT NULL,
  height       integer NOT NULL,
  uploaded_by  bigint NOT NULL REFERENCES users (id),
  created_at   timestamptz NOT NULL
);
CREATE INDEX real_name_documents_merchant_idx ON real_name_documents (merchant_id, id DESC);

-- What a merchant submitted for review, with the fields it confirmed by hand.
CREATE TABLE real_name_applications (
  id                  bigserial PRIMARY KEY,
  merchant_id         bigint NOT NULL REFERENCES merchants (id),
  state               text NOT NULL CHECK (state IN ('pending', 'approved', 'rejected')),
  company_name        text NOT NULL,
  license_number      text NOT NULL,
  license_valid_until date,
  legal_name          text NOT NULL,
  legal_id_number     text NOT NULL,
  id_valid_until      date,
  license_doc_id      bigint NOT NULL REFERENCES real_name_documents (id),
  id_front_doc_id     bigint NOT NULL REFERENCES real_name_documents (id),
  id_back_doc_id      bigint NOT NULL REFERENCES real_name_documents (id),
  submitted_by        bigint NOT NULL REFERENCES users (id),
  submitted_at        timestamptz NOT NULL,
  reviewed_by         bigint REFERENCES users (id),
  reviewed_at         timestamptz,
  reject_reason       text,
  -- When the approval lapsed because a validity date passed (the daily expiry job).
  expired_at          timestamptz
);
-- At most one application under review per merchant.
CREATE UNIQUE INDEX real_name_applications_pending_key ON real_name_applications (merchant_id) WHERE state = 'pending';
CREATE INDEX real_name_applications_merchant_idx ON real_name_applications (merchant_id, id DESC);
CREATE INDEX real_name_applications_state_idx ON real_name_applications (state, id);
-- The expiry job scans approved, not yet expired applications by their validity dates.
CREATE INDEX real_name_applications_live_idx ON real_name_applications (license_valid_until, id_valid_until)
  WHERE state = 'approved' AND expired_at IS NULL;

-- A merchant asks for API permission; an operator opens it.
CREATE TABLE api_permission_requests (
  id            bigserial PRIMARY KEY,
  merchant_id   bigint NOT NULL REFERENCES merchants (id),
  state         text NOT NULL CHECK (state IN ('pending', 'approved', 'rejected')),
  purpose       text NOT NULL,
  requested_by  bigint NOT NULL REFERENCES users (id),
  requested_at  timestamptz NOT NULL,
  reviewed_by   bigint REFERENCES users (id),
  reviewed_at   timestamptz,
  reject_reason text
);
CREATE UNIQUE INDEX api_permission_requests_pending_key ON api_permission_requests (merchant_id) WHERE state = 'pending';
CREATE INDEX api_permission_requests_merchant_idx ON api_permission_requests (merchant_id, id DESC);
CREATE INDEX api_permission_requests_state_idx ON api_permission_requests (state, id);

-- API credentials: the secret is encrypted (AES-256-GCM) because the merchant may view it again after
-- re-entering the password; a reset replaces it, so the old one stops working at once.
CREATE TABLE api_credentials (
  merchant_id       bigint PRIMARY KEY REFERENCES merchants (id),
  app_key           text NOT NULL,
  secret_ciphertext text NOT NULL,
  secret_issued_at  timestamptz NOT NULL,
  ip_allowlist      text[] NOT NULL DEFAULT '{}',
  callback_url      text,
  updated_at        timestamptz NOT NULL
);
CREATE UNIQUE INDEX api_credentials_app_key_key ON api_credentials (app_key);

-- Signed agreements: the text as signed (and its SHA-256), the version, who signed, when, from where, and
-- the phone the SMS code went to. One signature per merchant and agreement version.
CREATE TABLE agreement_signatures (
  id           bigserial PRIMARY KEY,
  merchant_id  bigint NOT NULL REFERENCES merchants (id),
  kind         text NOT NULL CHECK (kind IN ('reserveAuthorisation', 'eSignature')),
  version      text NOT NULL,
  lang         text NOT NULL,
  title        text NOT NULL,
  body         text NOT NULL,
  body_sha256  text NOT NULL,
  signed_by    bigint NOT NULL REFERENCES users (id),
  signer_email text NOT NULL,
  phone        text NOT NULL,
  ip           text,
  user_agent   text,
  signed_at    timestamptz NOT NULL
);
CREATE UNIQUE INDEX agreement_signatures_version_key ON agreement_signatures (merchant_id, kind, version);
CREATE INDEX agreement_signatures_merchant_idx ON agreement_signatures (merchant_id, id DESC);

-- A merchant's service provider (another merchant with the providers role). One active binding per
-- merchant; removing keeps the row for history.
CREATE TABLE service_bindings (
  id          bigserial PRIMARY KEY,
  merchant_id bigint NOT NULL REFERENCES merchants (id),
  provider_id bigint NOT NULL REFERENCES merchants (id),
  state       text NOT NULL CHECK (state IN ('active', 'removed')),
  bound_by    bigint NOT NULL REFERENCES users (id),
  bound_at    timestamptz NOT NULL,
  removed_by  bigint REFERENCES users (id),
  removed_at  timestamptz,
  CHECK (merchant_id <> provider_id)
);
CREATE UNIQUE INDEX service_bindings_active_key ON service_bindings (merchant_id) WHERE state = 'active';
CREATE INDEX service_bindings_provider_idx ON service_bindings (provider_id, id DESC) WHERE state = 'active';

-- Brand tokens (spec 01 §6): a provider acting inside a brand it serves gets a separate token, limited to
-- that brand's context pages, valid while its own session and the binding last; the brand can revoke them.
-- Only a SHA-256 of the token is stored.
CREATE TABLE brand_tokens (
  id          bigserial PRIMARY KEY,
  binding_id  bigint NOT NULL REFERENCES service_bindings (id),
  merchant_id bigint NOT NULL REFERENCES merchants (id),
  user_id     bigint NOT NULL REFERENCES users (id),
  session_id  bigint NOT NULL REFERENCES sessions (id),
  token_hash  text NOT NULL,
  created_at  timestamptz NOT NULL,
  expires_at  timestamptz NOT NULL,
  revoked_at  timestamptz
);
CREATE UNIQUE INDEX brand_tokens_hash_key ON brand_tokens (token_hash);
CREATE INDEX brand_tokens_binding_idx ON brand_tokens (binding_id) WHERE revoked_at IS NULL;

-- Commitment letters (承诺函) a purchaser uploads, signed and scanned; every upload is kept as a version.
CREATE TABLE commit_letters (
  id           bigserial PRIMARY KEY,
  merchant_id  bigint NOT NULL REFERENCES merchants (id),
  storage_key  text NOT NULL,
  content_type text NOT NULL,
  file_name    text NOT NULL,
  size_bytes   integer NOT NULL,
  uploaded_by  bigint NOT NULL REFERENCES users (id),
  uploaded_at  timestamptz NOT NULL
);
CREATE INDEX commit_letters_merchant_idx ON commit_letters (merchant_id, id DESC);

-- Operator actions, with the record before and after. Append-only: the trigger refuses UPDATE and DELETE.
CREATE TABLE ops_audit_log (
  id               bigserial PRIMARY KEY,
  operator_user_id bigint NOT NULL REFERENCES users (id),
  action           text NOT NULL,
  subject_type     text NOT NULL,
  subject_id       text NOT NULL,
  before           jsonb,
  after            jsonb,
  reason           text,
  ip               text,
  created_at       timestamptz NOT NULL
);
CREATE INDEX ops_audit_log_created_idx ON ops_audit_log (created_at DESC, id DESC);
CREATE INDEX ops_audit_log_operator_idx ON ops_audit_log (operator_user_id, id DESC);
CREATE INDEX ops_audit_log_action_idx ON ops_audit_log (action, id DESC);
CREATE INDEX ops_audit_log_subject_idx ON ops_audit_log (subject_type, subject_id, id DESC);

CREATE FUNCTION ops_audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'ops_audit_log is append-only';
END;
$$;
CREATE TRIGGER ops_audit_log_no_change BEFORE UPDATE OR DELETE ON ops_audit_log
  FOR EACH ROW EXECUTE FUNCTION ops_audit_log_append_only();
