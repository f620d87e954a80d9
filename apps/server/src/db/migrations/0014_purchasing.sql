-- Docking and purchase orders (module purchasing). An order's money moves in the ledger and its codes
-- are allocated in the same transaction that writes the order.

CREATE TABLE dockings (
  id                    bigserial PRIMARY KEY,
  purchaser_merchant_id bigint NOT NULL REFERENCES merchants (id),
  supplier_merchant_id  bigint NOT NULL REFERENCES merchants (id),
  status                text NOT NULL DEFAULT 'pending_review' CHECK (status IN ('pending_review', 'approved', 'rejected', 'cancelled')),
  reject_reason         text,
  purchaser_signed_at   timestamptz,
  purchaser_signed_by   bigint REFERENCES users (id),
  purchaser_sign_phone  text,
  supplier_signed_at    timestamptz,
  supplier_signed_by    bigint REFERENCES users (id),
  supplier_sign_phone   text,
  created_by            bigint NOT NULL REFERENCES users (id),
  created_at            timestamptz NOT NULL DEFAULT now(),
  decided_at            timestamptz,
  CHECK (purchaser_merchant_id <> supplier_merchant_id)
);
-- One live docking per pair: a second application waits until the first is rejected or cancelled.
CREATE UNIQUE INDEX dockings_live_pair ON dockings (purchaser_merchant_id, supplier_merchant_id) WHERE status IN ('pending_review', 'approved');
CREATE INDEX dockings_purchaser_idx ON dockings (purchaser_merchant_id, id DESC);
CREATE INDEX dockings_supplier_idx ON dockings (supplier_merchant_id, id DESC);

CREATE TABLE purchase_orders (
  id                    bigserial PRIMARY KEY,
  order_no              text NOT NULL,
  purchaser_merchant_id bigint NOT NULL REFERENCES merchants (id),
  supplier_merchant_id  bigint NOT NULL REFERENCES merchants (id),
  goods_id              bigint NOT NULL,
  goods_name            text NOT NULL,
  business_type         text NOT NULL,
  quantity              integer NOT NULL CHECK (quantity > 0),
  unit_price            bigint NOT NULL CHECK (unit_price > 0),
  face_value            bigint NOT NULL CHECK (face_value > 0),
  amount                bigint NOT NULL CHECK (amount > 0),
  currency              text NOT NULL CHECK (currency IN ('CNY', 'USD', 'HKD')),
  state                 text NOT NULL CHECK (state IN ('processing', 'success', 'failure')),
  top_up_account        text,
  upstream_channel_id   text,
  fail_reason           text,
  refunded              boolean NOT NULL DEFAULT false,
  -- What the purchaser asked for, so a reused order number with another request is caught.
  request_digest        text NOT NULL,
  created_by            bigint REFERENCES users (id),
  created_at            timestamptz NOT NULL DEFAULT now(),
  finished_at           timestamptz,
  CHECK (refunded = false OR state = 'failure')
);
-- The purchaser's own order number makes one order, whatever is retried.
CREATE UNIQUE INDEX purchase_orders_no ON purchase_orders (purchaser_merchant_id, order_no);
CREATE INDEX purchase_orders_purchaser_idx ON purchase_orders (purchaser_merchant_id, id DESC);
CREATE INDEX purchase_orders_supplier_idx ON purchase_orders (supplier_merchant_id, id DESC);
CREATE INDEX purchase_orders_processing_idx ON purchase_orders (supplier_merchant_id, id) WHERE state = 'processing';

-- Refund orders (sale/OnlineRefundSheet): a purchaser returns unused codes of an order, or a failed
-- direct top-up is refunded automatically. Money moves back once, in the transaction that settles it.
CREATE TABLE refund_orders (
  id                    bigserial PRIMARY KEY,
  order_id              bigint NOT NULL REFERENCES purchase_orders (id),
  purchaser_merchant_id bigint NOT NULL REFERENCES merchants (id),
  supplier_merchant_id  bigint NOT NULL REFERENCES merchants (id),
  quantity              integer NOT NULL CHECK (quantity > 0),
  amount                bigint NOT NULL CHECK (amount > 0),
  currency              text NOT NULL CHECK (currency IN ('CNY', 'USD', 'HKD')),
  reason                text NOT NULL,
  -- processing: waiting for the supplier; abnormal: accepted but the money could not move yet.
  state                 text NOT NULL CHECK (state IN ('processing', 'success', 'failure', 'abnormal')),
  fail_reason           text,
  requested_by          bigint REFERENCES users (id),
  decided_by            bigint REFERENCES users (id),
  created_at            timestamptz NOT NULL DEFAULT now(),
  finished_at           timestamptz
);
-- One open refund per order at a time.
CREATE UNIQUE INDEX refund_orders_open ON refund_orders (order_id) WHERE state IN ('processing', 'abnormal');
CREATE INDEX refund_orders_purchaser_idx ON refund_orders (purchaser_merchant_id, id DESC);
CREATE INDEX refund_orders_supplier_idx ON refund_orders (supplier_merchant_id, id DESC);

-- Brand authorisation (business/BrandAuthorization): a brand owner lets a purchaser or a service
-- provider sell its goods without a docking. Revoking ends it; the row stays for the record.
CREATE TABLE brand_auths (
  id                  bigserial PRIMARY KEY,
  brand_merchant_id   bigint NOT NULL REFERENCES merchants (id),
  grantee_merchant_id bigint NOT NULL REFERENCES merchants (id),
  grantee_kind        text NOT NULL CHECK (grantee_kind IN ('purchaser', 'provider')),
  remark              text NOT NULL DEFAULT '',
  valid_until         date,
  active              boolean NOT NULL DEFAULT true,
  created_by          bigint NOT NULL REFERENCES users (id),
  created_at          timestamptz NOT NULL DEFAULT now(),
  revoked_at          timestamptz,
  CHECK (brand_merchant_id <> grantee_merchant_id)
);
CREATE UNIQUE INDEX brand_auths_live ON brand_auths (brand_merchant_id, grantee_merchant_id) WHERE active;
CREATE INDEX brand_auths_grantee_idx ON brand_auths (grantee_merchant_id) WHERE active;

-- Purchase applications: a purchaser applies to buy a supplier's goods; the supplier approves with a
-- selling price (and optionally a secret price) for that purchaser, which its orders then pay.
CREATE TABLE purchase_applications (
  id                    bigserial PRIMARY KEY,
  purchaser_merchant_id bigint NOT NULL REFERENCES merchants (id),
  supplier_merchant_id  bigint NOT NULL REFERENCES merchants (id),
  goods_id              bigint NOT NULL,
  state                 text NOT NULL DEFAULT 'pending_review' CHECK (state IN ('pending_review', 'rejected', 'purchasing')),
  price                 bigint CHECK (price > 0),
  secret_price          bigint CHECK (secret_price > 0),
  remark                text NOT NULL DEFAULT '',
  reject_reason         text,
  created_by            bigint NOT NULL REFERENCES users (id),
  created_at            timestamptz NOT NULL DEFAULT now(),
  decided_at            timestamptz,
  CHECK ((state = 'purchasing') = (price IS NOT NULL))
);
CREATE UNIQUE INDEX purchase_applications_live ON purchase_applications (purchaser_merchant_id, goods_id) WHERE state IN ('pending_review', 'purchasing');
CREATE INDEX purchase_applications_supplier_idx ON purchase_applications (supplier_merchant_id, id DESC);
CREATE INDEX purchase_applications_purchaser_idx ON purchase_applications (purchaser_merchant_id, id DESC);
