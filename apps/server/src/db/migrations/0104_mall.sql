-- The customer mall and the merchant's mall back-office (module mall, issue 30 part B). A mall is the
-- merchant of a mini-program config (module miniprogram); its customers are the one-card module's
-- customers. Money: a wallet payment arrives through the local payment adapter (bank clearing → the
-- merchant's income, mall:pay:<order>), a refund goes back (mall:refund:<order>); a card payment debits a
-- card of the merchant's own brand (the brand was paid when the card was activated, so no ledger move);
-- an SMS package is paid from the merchant's SUP to the platform's fees (mall:sms:<merchant>:<key>).
-- Goods the merchant lacks are bought from the supplier through purchasing (order numbers MALL...).

CREATE TABLE mall_self_goods (
  id            bigserial PRIMARY KEY,
  merchant_id   bigint NOT NULL REFERENCES merchants (id),
  goods_id      bigint NOT NULL,
  name          text NOT NULL,
  price         bigint NOT NULL CHECK (price > 0),
  currency      text NOT NULL CHECK (currency IN ('CNY', 'USD', 'HKD')),
  on_sale       boolean NOT NULL DEFAULT true,
  sort          integer NOT NULL DEFAULT 0,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now(),
  UNIQUE (merchant_id, goods_id)
);
CREATE INDEX mall_self_goods_list ON mall_self_goods (merchant_id, on_sale, sort, id);

CREATE TABLE mall_gift_bags (
  id            bigserial PRIMARY KEY,
  merchant_id   bigint NOT NULL REFERENCES merchants (id),
  name          text NOT NULL,
  description   text NOT NULL DEFAULT '',
  price         bigint NOT NULL CHECK (price > 0),
  currency      text NOT NULL CHECK (currency IN ('CNY', 'USD', 'HKD')),
  stock         integer NOT NULL CHECK (stock >= 0),
  sold          integer NOT NULL DEFAULT 0 CHECK (sold >= 0),
  valid_days    integer NOT NULL CHECK (valid_days > 0),
  on_sale       boolean NOT NULL DEFAULT true,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX mall_gift_bags_list ON mall_gift_bags (merchant_id, on_sale, id);

CREATE TABLE mall_gift_bag_items (
  bag_id        bigint NOT NULL REFERENCES mall_gift_bags (id) ON DELETE CASCADE,
  self_goods_id bigint NOT NULL REFERENCES mall_self_goods (id),
  quantity      integer NOT NULL CHECK (quantity > 0),
  PRIMARY KEY (bag_id, self_goods_id)
);

CREATE TABLE mall_settings (
  merchant_id   bigint PRIMARY KEY REFERENCES merchants (id),
  private_code  text,
  brand_title   text NOT NULL DEFAULT '',
  brand_intro   text NOT NULL DEFAULT '',
  brand_image   text NOT NULL DEFAULT '',
  updated_at    timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE mall_members (
  merchant_id   bigint NOT NULL REFERENCES merchants (id),
  customer_id   bigint NOT NULL,
  first_seen_at timestamptz NOT NULL,
  last_seen_at  timestamptz NOT NULL,
  PRIMARY KEY (merchant_id, customer_id)
);

CREATE TABLE mall_orders (
  id            bigserial PRIMARY KEY,
  order_no      text NOT NULL UNIQUE,
  merchant_id   bigint NOT NULL REFERENCES merchants (id),
  app_id        text NOT NULL,
  customer_id   bigint NOT NULL,
  state         text NOT NULL CHECK (state IN ('paid', 'delivering', 'delivered', 'failed', 'refunded')),
  pay_method    text NOT NULL CHECK (pay_method IN ('wallet', 'card')),
  card_id       bigint,
  amount        bigint NOT NULL CHECK (amount > 0),
  currency      text NOT NULL CHECK (currency IN ('CNY', 'USD', 'HKD')),
  -- [{"kind":"goods"|"bag","refId":1,"name":"...","quantity":1,"unitPrice":100}]
  lines         jsonb NOT NULL,
  top_up_account text,
  request_key   text NOT NULL,
  fail_reason   text,
  refund_reason text,
  created_at    timestamptz NOT NULL,
  delivered_at  timestamptz,
  refunded_at   timestamptz,
  UNIQUE (customer_id, request_key)
);
CREATE INDEX mall_orders_merchant ON mall_orders (merchant_id, id DESC);
CREATE INDEX mall_orders_customer ON mall_orders (customer_id, merchant_id, id DESC);
CREATE INDEX mall_orders_open ON mall_orders (state) WHERE state = 'delivering';

-- One row per unit delivered: a code (from the merchant's own stock or bought for the order) or a top-up.
CREATE TABLE mall_deliveries (
  id            bigserial PRIMARY KEY,
  order_id      bigint NOT NULL REFERENCES mall_orders (id),
  goods_id      bigint NOT NULL,
  name          text NOT NULL,
  kind          text NOT NULL CHECK (kind IN ('code', 'topup')),
  state         text NOT NULL CHECK (state IN ('processing', 'success', 'failed')),
  -- A code is sold once: supply's card id, unique.
  card_id       bigint UNIQUE,
  purchase_no   text,
  account       text,
  expires_at    timestamptz,
  created_at    timestamptz NOT NULL
);
CREATE INDEX mall_deliveries_order ON mall_deliveries (order_id, id);

-- What the local payment adapter would have sent to the wallet provider, per payment.
CREATE TABLE mall_payments (
  id            bigserial PRIMARY KEY,
  order_id      bigint NOT NULL UNIQUE REFERENCES mall_orders (id),
  provider      text NOT NULL,
  request       jsonb NOT NULL,
  created_at    timestamptz NOT NULL
);

CREATE TABLE mall_sms_packages (
  id            bigserial PRIMARY KEY,
  merchant_id   bigint NOT NULL REFERENCES merchants (id),
  code          text NOT NULL,
  count         integer NOT NULL CHECK (count > 0),
  remaining     integer NOT NULL CHECK (remaining >= 0),
  price         bigint NOT NULL,
  currency      text NOT NULL CHECK (currency IN ('CNY', 'USD', 'HKD')),
  request_key   text NOT NULL,
  bought_at     timestamptz NOT NULL,
  expires_at    timestamptz NOT NULL,
  UNIQUE (merchant_id, request_key)
);
CREATE INDEX mall_sms_packages_live ON mall_sms_packages (merchant_id, expires_at) WHERE remaining > 0;

CREATE TABLE mall_sms_records (
  id            bigserial PRIMARY KEY,
  merchant_id   bigint NOT NULL REFERENCES merchants (id),
  app_id        text NOT NULL,
  phone         text NOT NULL,
  scene         text NOT NULL,
  package_id    bigint NOT NULL REFERENCES mall_sms_packages (id),
  state         text NOT NULL CHECK (state IN ('sent', 'failed')),
  created_at    timestamptz NOT NULL
);
CREATE INDEX mall_sms_records_list ON mall_sms_records (merchant_id, id DESC);
