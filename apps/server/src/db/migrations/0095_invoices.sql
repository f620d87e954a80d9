-- Invoices (module invoices, issue 29): requests against what a merchant spent, issued by an operator
-- through the e-invoice adapter, reversed by a red-letter invoice.

-- The tax rates of spec 01 §9 as data, with the days they apply (a rate changes by policy: the 1%
-- small-scale levy is a temporary cut of the 3% one). A type may be requested on a day one of its rows
-- covers; the invoice keeps the rate it was requested at.
CREATE TABLE invoice_rates (
  id           bigserial PRIMARY KEY,
  invoice_type text NOT NULL CHECK (invoice_type IN ('ordinary_0', 'ordinary_1', 'ordinary_3', 'vat_3', 'vat_6', 'vat_9', 'vat_13')),
  rate_bp      integer NOT NULL CHECK (rate_bp BETWEEN 0 AND 10000),
  valid_from   date NOT NULL,
  valid_to     date,
  CHECK (valid_to IS NULL OR valid_to >= valid_from)
);
CREATE INDEX invoice_rates_type_idx ON invoice_rates (invoice_type, valid_from);
INSERT INTO invoice_rates (invoice_type, rate_bp, valid_from, valid_to) VALUES
  ('ordinary_0', 0, '2019-04-01', NULL),
  ('ordinary_1', 100, '2023-01-01', '2027-12-31'),
  ('ordinary_3', 300, '2019-04-01', NULL),
  ('vat_3', 300, '2019-04-01', NULL),
  ('vat_6', 600, '2019-04-01', NULL),
  ('vat_9', 900, '2019-04-01', NULL),
  ('vat_13', 1300, '2019-04-01', NULL);

-- One row per merchant and invoice type: requests lock it, so two requests cannot both take the
-- same invoiceable amount.
CREATE TABLE invoice_accounts (
  merchant_id  bigint NOT NULL REFERENCES merchants (id),
  invoice_type text NOT NULL,
  PRIMARY KEY (merchant_id, invoice_type)
);

CREATE TABLE invoices (
  id             bigserial PRIMARY KEY,
  merchant_id    bigint NOT NULL REFERENCES merchants (id),
  invoice_type   text NOT NULL,
  rate_bp        integer NOT NULL,
  amount         bigint NOT NULL CHECK (amount > 0),
  tax_amount     bigint NOT NULL CHECK (tax_amount >= 0),
  currency       text NOT NULL CHECK (currency IN ('CNY', 'USD', 'HKD')),
  title_name     text NOT NULL,
  tax_id         text NOT NULL DEFAULT '',
  address        text NOT NULL DEFAULT '',
  phone          text NOT NULL DEFAULT '',
  bank           text NOT NULL DEFAULT '',
  bank_account   text NOT NULL DEFAULT '',
  email          text NOT NULL,
  remark         text NOT NULL DEFAULT '',
  state          text NOT NULL DEFAULT 'requested' CHECK (state IN ('requested', 'issued', 'delivered', 'refused', 'reversed')),
  refuse_reason  text,
  invoice_no     text UNIQUE,
  red_invoice_no text UNIQUE,
  reverse_reason text,
  pdf_key        text,
  red_pdf_key    text,
  request_key    text NOT NULL,
  created_by     bigint NOT NULL REFERENCES users (id),
  decided_by     bigint REFERENCES users (id),
  created_at     timestamptz NOT NULL DEFAULT now(),
  updated_at     timestamptz NOT NULL DEFAULT now(),
  issued_at      timestamptz,
  delivered_at   timestamptz,
  reversed_at    timestamptz
);
CREATE UNIQUE INDEX invoices_request_key ON invoices (merchant_id, request_key);
CREATE INDEX invoices_merchant_idx ON invoices (merchant_id, id DESC);
CREATE INDEX invoices_state_idx ON invoices (state, id DESC);

-- Saved titles (抬头) and the e-signature settings of a merchant (TicketSignature).
CREATE TABLE invoice_titles (
  id           bigserial PRIMARY KEY,
  merchant_id  bigint NOT NULL REFERENCES merchants (id),
  name         text NOT NULL,
  tax_id       text NOT NULL DEFAULT '',
  address      text NOT NULL DEFAULT '',
  phone        text NOT NULL DEFAULT '',
  bank         text NOT NULL DEFAULT '',
  bank_account text NOT NULL DEFAULT '',
  is_default   boolean NOT NULL DEFAULT false,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX invoice_titles_merchant_idx ON invoice_titles (merchant_id, id);

CREATE TABLE invoice_settings (
  merchant_id    bigint PRIMARY KEY REFERENCES merchants (id),
  e_sign         boolean NOT NULL DEFAULT false,
  signer_name    text NOT NULL DEFAULT '',
  signer_phone   text NOT NULL DEFAULT '',
  delivery_email text NOT NULL DEFAULT '',
  updated_by     bigint REFERENCES users (id),
  updated_at     timestamptz NOT NULL DEFAULT now()
);
