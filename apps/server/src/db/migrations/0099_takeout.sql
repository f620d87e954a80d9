-- Takeout (food-ordering) mini-shop (module takeout): a brand's shop settings (hours, delivery area as a
-- radius or a polygon, fees, minimum order), menu categories, items with options and stock, combos, and
-- customers' orders (accept → prepare → deliver → complete; cancel or refund with a reason). Money: the
-- customer pays through the local payment adapter into the platform's order escrow (takeout:pay:<order>),
-- completion releases it to the brand's income (takeout:settle:<order>), a cancelled or refused paid order
-- goes back to the customer's payment (takeout:refund:<order>).

CREATE TABLE takeout_shops (
  merchant_id     bigint PRIMARY KEY REFERENCES merchants (id),
  name            text NOT NULL,
  open            boolean NOT NULL DEFAULT false,
  -- [{"days": [1,2,3,4,5], "from": "09:00", "to": "21:00"}], Beijing time, 1 = Monday.
  hours           jsonb NOT NULL DEFAULT '[]',
  address         text NOT NULL DEFAULT '',
  lat             double precision NOT NULL DEFAULT 0,
  lng             double precision NOT NULL DEFAULT 0,
  area_kind       text NOT NULL DEFAULT 'radius' CHECK (area_kind IN ('radius', 'polygon')),
  radius_m        integer NOT NULL DEFAULT 3000 CHECK (radius_m > 0),
  -- [[lat, lng], ...]
  polygon         jsonb NOT NULL DEFAULT '[]',
  delivery_fee    bigint NOT NULL DEFAULT 0 CHECK (delivery_fee >= 0),
  min_order       bigint NOT NULL DEFAULT 0 CHECK (min_order >= 0),
  packing_fee     bigint NOT NULL DEFAULT 0 CHECK (packing_fee >= 0),
  tableware       boolean NOT NULL DEFAULT true,
  scheduled       boolean NOT NULL DEFAULT false,
  prep_minutes    integer NOT NULL DEFAULT 30 CHECK (prep_minutes >= 0),
  currency        text NOT NULL CHECK (currency IN ('CNY', 'USD', 'HKD')),
  updated_at      timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE takeout_types (
  id           bigserial PRIMARY KEY,
  merchant_id  bigint NOT NULL REFERENCES merchants (id),
  name         text NOT NULL,
  sort         integer NOT NULL DEFAULT 0
);
CREATE INDEX takeout_types_merchant_idx ON takeout_types (merchant_id, sort DESC, id);

CREATE TABLE takeout_items (
  id           bigserial PRIMARY KEY,
  merchant_id  bigint NOT NULL REFERENCES merchants (id),
  type_id      bigint REFERENCES takeout_types (id),
  name         text NOT NULL,
  description  text NOT NULL DEFAULT '',
  image        text NOT NULL DEFAULT '',
  price        bigint NOT NULL CHECK (price >= 0),
  -- NULL: not counted.
  stock        integer CHECK (stock >= 0),
  sold         integer NOT NULL DEFAULT 0,
  -- [{"name": "Spice", "required": true, "max": 1, "choices": [{"name": "Mild", "price": 0}]}]
  options      jsonb NOT NULL DEFAULT '[]',
  on_sale      boolean NOT NULL DEFAULT true,
  sort         integer NOT NULL DEFAULT 0
);
CREATE INDEX takeout_items_merchant_idx ON takeout_items (merchant_id, sort DESC, id);

CREATE TABLE takeout_packages (
  id           bigserial PRIMARY KEY,
  merchant_id  bigint NOT NULL REFERENCES merchants (id),
  name         text NOT NULL,
  description  text NOT NULL DEFAULT '',
  price        bigint NOT NULL CHECK (price >= 0),
  -- [{"itemId": 1, "quantity": 2}]
  items        jsonb NOT NULL,
  on_sale      boolean NOT NULL DEFAULT true,
  sort         integer NOT NULL DEFAULT 0
);
CREATE INDEX takeout_packages_merchant_idx ON takeout_packages (merchant_id, sort DESC, id);

CREATE TABLE takeout_orders (
  id              bigserial PRIMARY KEY,
  order_no        text NOT NULL UNIQUE,
  merchant_id     bigint NOT NULL REFERENCES merchants (id),
  customer_id     bigint NOT NULL,
  state           text NOT NULL CHECK (state IN ('pending_payment', 'to_be_accepted', 'accepted', 'delivering', 'completed', 'cancelled')),
  -- Line snapshot: [{"kind": "item"|"package", "id", "name", "options": [..], "unitPrice", "quantity", "amount"}]
  lines           jsonb NOT NULL,
  goods_amount    bigint NOT NULL,
  packing_fee     bigint NOT NULL,
  delivery_fee    bigint NOT NULL,
  total           bigint NOT NULL,
  refunded        bigint NOT NULL DEFAULT 0 CHECK (refunded >= 0 AND refunded <= total),
  currency        text NOT NULL,
  contact_name    text NOT NULL,
  contact_phone   text NOT NULL,
  address         text NOT NULL,
  lat             double precision NOT NULL,
  lng             double precision NOT NULL,
  tableware       integer NOT NULL DEFAULT 0,
  scheduled_at    timestamptz,
  remark          text NOT NULL DEFAULT '',
  cancel_reason   text,
  cancelled_by    text CHECK (cancelled_by IN ('customer', 'shop', 'system')),
  request_key     text NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  paid_at         timestamptz,
  accepted_at     timestamptz,
  delivering_at   timestamptz,
  completed_at    timestamptz,
  cancelled_at    timestamptz
);
CREATE UNIQUE INDEX takeout_orders_request_key ON takeout_orders (customer_id, request_key);
CREATE INDEX takeout_orders_merchant_idx ON takeout_orders (merchant_id, state, id DESC);
CREATE INDEX takeout_orders_customer_idx ON takeout_orders (customer_id, id DESC);
CREATE INDEX takeout_orders_unpaid_idx ON takeout_orders (created_at) WHERE state = 'pending_payment';
