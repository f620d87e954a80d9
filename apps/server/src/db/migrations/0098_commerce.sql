-- Physical (and virtual) goods e-commerce (module commerce): a brand's commodities with specifications
-- and stock per SKU, purchasers' resale picks, orders with consignee addresses (GB/T 2260 region codes),
-- express shipments with their tracking events, and after-sales. Money: a purchaser pays an order from
-- SUP into the platform's order escrow (ledger key commerce:pay:<order>); completion releases it to the
-- brand's income (commerce:settle:<order>); refunds go back to SUP (commerce:close:<order>,
-- commerce:aftersale:<id>).

CREATE TABLE commerce_commodities (
  id            bigserial PRIMARY KEY,
  merchant_id   bigint NOT NULL REFERENCES merchants (id),
  kind          text NOT NULL CHECK (kind IN ('physical', 'virtual')),
  name          text NOT NULL,
  category      text NOT NULL DEFAULT '',
  description   text NOT NULL DEFAULT '',
  images        jsonb NOT NULL DEFAULT '[]',
  video_id      bigint,
  -- [{"name": "Colour", "values": ["Red", "Blue"]}, ...]: the SKUs are the combinations.
  spec_groups   jsonb NOT NULL DEFAULT '[]',
  sort          integer NOT NULL DEFAULT 0,
  on_shelf      boolean NOT NULL DEFAULT false,
  weight_g      integer NOT NULL DEFAULT 0 CHECK (weight_g >= 0),
  -- Freight template: a first-weight fee and a fee per further kilogram; free from an order amount.
  freight_first bigint NOT NULL DEFAULT 0 CHECK (freight_first >= 0),
  freight_extra bigint NOT NULL DEFAULT 0 CHECK (freight_extra >= 0),
  free_over     bigint,
  currency      text NOT NULL CHECK (currency IN ('CNY', 'USD', 'HKD')),
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX commerce_commodities_merchant_idx ON commerce_commodities (merchant_id, sort DESC, id DESC);
CREATE INDEX commerce_commodities_shelf_idx ON commerce_commodities (on_shelf, kind, id DESC);

CREATE TABLE commerce_skus (
  id            bigserial PRIMARY KEY,
  commodity_id  bigint NOT NULL REFERENCES commerce_commodities (id),
  merchant_id   bigint NOT NULL REFERENCES merchants (id),
  specs         jsonb NOT NULL DEFAULT '[]',
  price         bigint NOT NULL CHECK (price > 0),
  stock         integer NOT NULL CHECK (stock >= 0),
  sold          integer NOT NULL DEFAULT 0 CHECK (sold >= 0),
  code          text NOT NULL DEFAULT '',
  active        boolean NOT NULL DEFAULT true
);
CREATE INDEX commerce_skus_commodity_idx ON commerce_skus (commodity_id, id);

-- A purchaser's pick of a brand's commodity to resell (PhysicalSelection / VirtualGoods → RealGoods).
CREATE TABLE commerce_resales (
  id            bigserial PRIMARY KEY,
  purchaser_id  bigint NOT NULL REFERENCES merchants (id),
  commodity_id  bigint NOT NULL REFERENCES commerce_commodities (id),
  retail_price  bigint,
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX commerce_resales_pick ON commerce_resales (purchaser_id, commodity_id);

CREATE TABLE commerce_orders (
  id               bigserial PRIMARY KEY,
  order_no         text NOT NULL UNIQUE,
  purchaser_id     bigint NOT NULL REFERENCES merchants (id),
  brand_id         bigint NOT NULL REFERENCES merchants (id),
  kind             text NOT NULL CHECK (kind IN ('physical', 'virtual')),
  state            text NOT NULL CHECK (state IN ('to_pay', 'to_ship', 'shipped', 'received', 'completed', 'closed')),
  goods_amount     bigint NOT NULL CHECK (goods_amount >= 0),
  freight          bigint NOT NULL DEFAULT 0 CHECK (freight >= 0),
  pay_amount       bigint NOT NULL CHECK (pay_amount >= 0),
  refunded_amount  bigint NOT NULL DEFAULT 0 CHECK (refunded_amount >= 0 AND refunded_amount <= pay_amount),
  currency         text NOT NULL CHECK (currency IN ('CNY', 'USD', 'HKD')),
  consignee_name   text NOT NULL DEFAULT '',
  consignee_phone  text NOT NULL DEFAULT '',
  province_code    text NOT NULL DEFAULT '',
  city_code        text NOT NULL DEFAULT '',
  county_code      text NOT NULL DEFAULT '',
  region_names     text NOT NULL DEFAULT '',
  address          text NOT NULL DEFAULT '',
  remark           text NOT NULL DEFAULT '',
  close_reason     text,
  request_key      text NOT NULL,
  created_by       bigint NOT NULL REFERENCES users (id),
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  paid_at          timestamptz,
  shipped_at       timestamptz,
  received_at      timestamptz,
  completed_at     timestamptz,
  closed_at        timestamptz
);
CREATE UNIQUE INDEX commerce_orders_request_key ON commerce_orders (purchaser_id, request_key);
CREATE INDEX commerce_orders_purchaser_idx ON commerce_orders (purchaser_id, state, id DESC);
CREATE INDEX commerce_orders_brand_idx ON commerce_orders (brand_id, state, id DESC);
CREATE INDEX commerce_orders_open_idx ON commerce_orders (state, created_at) WHERE state IN ('to_pay', 'shipped', 'received');

CREATE TABLE commerce_order_items (
  id             bigserial PRIMARY KEY,
  order_id       bigint NOT NULL REFERENCES commerce_orders (id),
  sku_id         bigint NOT NULL REFERENCES commerce_skus (id),
  commodity_id   bigint NOT NULL REFERENCES commerce_commodities (id),
  name           text NOT NULL,
  specs          jsonb NOT NULL DEFAULT '[]',
  unit_price     bigint NOT NULL,
  quantity       integer NOT NULL CHECK (quantity > 0),
  amount         bigint NOT NULL,
  refunded       bigint NOT NULL DEFAULT 0 CHECK (refunded >= 0 AND refunded <= amount),
  returned_qty   integer NOT NULL DEFAULT 0 CHECK (returned_qty >= 0 AND returned_qty <= quantity)
);
CREATE INDEX commerce_order_items_order_idx ON commerce_order_items (order_id, id);

CREATE TABLE commerce_express_companies (
  code   text PRIMARY KEY,
  name   text NOT NULL,
  sort   integer NOT NULL DEFAULT 0
);
INSERT INTO commerce_express_companies (code, name, sort) VALUES
  ('shunfeng', '顺丰速运', 1), ('zhongtong', '中通快递', 2), ('yuantong', '圆通速递', 3), ('yunda', '韵达快递', 4),
  ('shentong', '申通快递', 5), ('jd', '京东物流', 6), ('ems', 'EMS', 7), ('jtexpress', '极兔速递', 8), ('youzhengguonei', '邮政快递包裹', 9);

-- An express order (waybill) of an order; a return shipment has aftersale_id.
CREATE TABLE commerce_shipments (
  id             bigserial PRIMARY KEY,
  order_id       bigint NOT NULL REFERENCES commerce_orders (id),
  brand_id       bigint NOT NULL REFERENCES merchants (id),
  purchaser_id   bigint NOT NULL REFERENCES merchants (id),
  aftersale_id   bigint,
  company_code   text NOT NULL REFERENCES commerce_express_companies (code),
  waybill_no     text NOT NULL,
  -- Kuaidi100 state: 0 in transit, 1 picked up, 2 problem, 3 signed, 4 refused-returned, 5 out for delivery, 6 returned, 14 refused.
  state          integer,
  courier        text NOT NULL CHECK (courier IN ('local', 'kuaidi100', 'manual')),
  remark         text NOT NULL DEFAULT '',
  created_at     timestamptz NOT NULL DEFAULT now(),
  updated_at     timestamptz NOT NULL DEFAULT now(),
  signed_at      timestamptz
);
CREATE UNIQUE INDEX commerce_shipments_waybill ON commerce_shipments (company_code, waybill_no);
CREATE UNIQUE INDEX commerce_shipments_order ON commerce_shipments (order_id) WHERE aftersale_id IS NULL;
CREATE INDEX commerce_shipments_brand_idx ON commerce_shipments (brand_id, id DESC);

-- Tracking events as pushed (or queried): stored once however often a push is replayed.
CREATE TABLE commerce_tracking_events (
  id            bigserial PRIMARY KEY,
  shipment_id   bigint NOT NULL REFERENCES commerce_shipments (id),
  at            timestamptz NOT NULL,
  state         integer NOT NULL,
  context       text NOT NULL,
  area          text NOT NULL DEFAULT '',
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX commerce_tracking_once ON commerce_tracking_events (shipment_id, at, state, context);

-- The local courier simulator's waybills: a scripted trace it pushes step by step as time passes.
CREATE TABLE commerce_courier_sim (
  waybill_no    text PRIMARY KEY,
  company_code  text NOT NULL,
  outcome       text NOT NULL CHECK (outcome IN ('signed', 'refused', 'returned')),
  step_seconds  integer NOT NULL,
  pushed        integer NOT NULL DEFAULT 0,
  done          boolean NOT NULL DEFAULT false,
  created_at    timestamptz NOT NULL
);
CREATE INDEX commerce_courier_sim_open ON commerce_courier_sim (created_at) WHERE NOT done;

CREATE TABLE commerce_aftersales (
  id              bigserial PRIMARY KEY,
  order_id        bigint NOT NULL REFERENCES commerce_orders (id),
  order_item_id   bigint NOT NULL REFERENCES commerce_order_items (id),
  purchaser_id    bigint NOT NULL REFERENCES merchants (id),
  brand_id        bigint NOT NULL REFERENCES merchants (id),
  way             text NOT NULL CHECK (way IN ('refund', 'return_and_refund')),
  state           text NOT NULL CHECK (state IN ('apply', 'seller_agree', 'buyer_delivery', 'wait_refund', 'complete', 'buyer_cancel', 'seller_disagree', 'seller_refuse')),
  quantity        integer NOT NULL CHECK (quantity > 0),
  amount          bigint NOT NULL CHECK (amount > 0),
  currency        text NOT NULL,
  reason          text NOT NULL,
  seller_reason   text,
  return_company  text,
  return_waybill  text,
  request_key     text NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  refunded_at     timestamptz
);
CREATE UNIQUE INDEX commerce_aftersales_request_key ON commerce_aftersales (purchaser_id, request_key);
-- One live (or finished) case per order line; a declined or cancelled one may be followed by another.
CREATE UNIQUE INDEX commerce_aftersales_one_per_item ON commerce_aftersales (order_item_id)
  WHERE state NOT IN ('buyer_cancel', 'seller_disagree', 'seller_refuse');
CREATE INDEX commerce_aftersales_brand_idx ON commerce_aftersales (brand_id, state, id DESC);
CREATE INDEX commerce_aftersales_purchaser_idx ON commerce_aftersales (purchaser_id, id DESC);
