-- Brand stores (module stores): a brand's physical stores, grouped into business districts; sub-accounts
-- bound to a store as its clerks; the store's QR codes (shop code, mall code); store imports with their
-- reject reports.

CREATE TABLE store_districts (
  id          bigserial PRIMARY KEY,
  brander_id  bigint NOT NULL REFERENCES merchants (id),
  name        text NOT NULL,
  remark      text NOT NULL DEFAULT '',
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX store_districts_name_uq ON store_districts (brander_id, name);

CREATE TABLE stores (
  id             bigserial PRIMARY KEY,
  brander_id     bigint NOT NULL REFERENCES merchants (id),
  name           text NOT NULL,
  province_code  text NOT NULL,
  city_code      text NOT NULL,
  county_code    text NOT NULL,
  address        text NOT NULL,
  lng            double precision,
  lat            double precision,
  opening_hours  text NOT NULL DEFAULT '',
  contact_name   text NOT NULL DEFAULT '',
  contact_phone  text NOT NULL DEFAULT '',
  state          text NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'closed')),
  district_id    bigint REFERENCES store_districts (id),
  created_at     timestamptz NOT NULL DEFAULT now(),
  updated_at     timestamptz NOT NULL DEFAULT now(),
  deleted_at     timestamptz
);
-- A brand's live stores have distinct names (imports match on them).
CREATE UNIQUE INDEX stores_name_uq ON stores (brander_id, name) WHERE deleted_at IS NULL;
CREATE INDEX stores_brander_idx ON stores (brander_id, id DESC) WHERE deleted_at IS NULL;
CREATE INDEX stores_district_idx ON stores (district_id) WHERE district_id IS NOT NULL;

-- A sub-account works at one store at a time.
CREATE TABLE store_clerks (
  user_id     bigint PRIMARY KEY REFERENCES users (id),
  store_id    bigint NOT NULL REFERENCES stores (id),
  brander_id  bigint NOT NULL REFERENCES merchants (id),
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX store_clerks_store_idx ON store_clerks (store_id);

-- QR codes bound to a store (shop code) or to the brand's mall (mall code, a store optional). The QR holds
-- our URL with the random token.
CREATE TABLE store_qr_codes (
  id          bigserial PRIMARY KEY,
  brander_id  bigint NOT NULL REFERENCES merchants (id),
  store_id    bigint REFERENCES stores (id),
  kind        text NOT NULL CHECK (kind IN ('shop', 'mall')),
  token       text NOT NULL UNIQUE,
  name        text NOT NULL DEFAULT '',
  created_at  timestamptz NOT NULL DEFAULT now(),
  deleted_at  timestamptz
);
CREATE INDEX store_qr_codes_brander_idx ON store_qr_codes (brander_id, kind, id DESC) WHERE deleted_at IS NULL;
-- One live shop code per store (binding again returns it).
CREATE UNIQUE INDEX store_qr_codes_shop_uq ON store_qr_codes (store_id) WHERE kind = 'shop' AND deleted_at IS NULL;

CREATE TABLE store_imports (
  id          bigserial PRIMARY KEY,
  brander_id  bigint NOT NULL REFERENCES merchants (id),
  file_name   text NOT NULL,
  imported    integer NOT NULL DEFAULT 0,
  rejected    integer NOT NULL DEFAULT 0,
  created_by  bigint NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE store_import_rejects (
  import_id  bigint NOT NULL REFERENCES store_imports (id),
  row_no     integer NOT NULL,
  reason     text NOT NULL,
  name       text NOT NULL DEFAULT '',
  PRIMARY KEY (import_id, row_no)
);
