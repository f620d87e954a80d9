-- Catalog (brands, goods) and supply (card secrets, import batches). Spec 01 §3, §4, §7.

-- Brands of a brand owner (brander). A supplier's goods each belong to one of its brands.
CREATE TABLE catalog_brands (
  id          bigserial PRIMARY KEY,
  merchant_id bigint NOT NULL REFERENCES merchants (id),
  name        text NOT NULL,
  description text NOT NULL DEFAULT '',
  logo_key    text,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX catalog_brands_name_uq ON catalog_brands (merchant_id, lower(name));

-- Goods (products) with every field of spec 01 §3 Goods and Supplied goods. Stock counters follow the
-- card-secret rows exactly: they change only in the transaction that imports, sells or voids codes.
CREATE TABLE catalog_goods (
  id                    bigserial PRIMARY KEY,
  merchant_id           bigint NOT NULL REFERENCES merchants (id),
  brand_id              bigint NOT NULL REFERENCES catalog_brands (id),
  name                  text NOT NULL,
  business_type         text NOT NULL CHECK (business_type IN ('top_up', 'fuel', 'takeaway', 'coupon', 'card_voucher', 'in_store', 'fee', 'card_secret', 'self_run_card_secret', 'combo')),
  -- direct / card / coupon: which goods-selection list shows the goods (derived from business_type).
  selection             text NOT NULL CHECK (selection IN ('direct', 'card', 'coupon')),
  equity_type           text NOT NULL,
  currency              text NOT NULL CHECK (currency IN ('CNY', 'USD', 'HKD')),
  face_value            bigint NOT NULL CHECK (face_value > 0),
  code                  text NOT NULL,
  per_order_max         integer NOT NULL CHECK (per_order_max BETWEEN 1 AND 10000),
  deduction_account     text NOT NULL CHECK (deduction_account IN ('sup', 'reserve')),
  invoice_type          text NOT NULL,
  sales_scope           text NOT NULL CHECK (sales_scope IN ('all', 'domestic', 'international')),
  price                 bigint NOT NULL CHECK (price > 0),
  settlement_price      bigint NOT NULL CHECK (settlement_price >= 0 AND settlement_price <= price),
  weight                integer NOT NULL DEFAULT 0,
  description           text NOT NULL DEFAULT '',
  images                jsonb NOT NULL DEFAULT '[]'::jsonb,
  top_up_restrictions   text NOT NULL DEFAULT '',
  arrival_query_method  text NOT NULL,
  top_up_account_type   text NOT NULL,
  recommendation_index  integer NOT NULL DEFAULT 0 CHECK (recommendation_index BETWEEN 0 AND 100),
  sales_index           integer NOT NULL DEFAULT 0 CHECK (sales_index BETWEEN 0 AND 100),
  smart_purchase        boolean NOT NULL DEFAULT false,
  low_stock_threshold   integer NOT NULL DEFAULT 0 CHECK (low_stock_threshold >= 0),
  -- Set when the low-stock notice went out; cleared when stock rises above the threshold again.
  low_stock_notified_at timestamptz,
  state                 text NOT NULL DEFAULT 'available' CHECK (state IN ('available', 'disabled', 'void')),
  stock                 integer NOT NULL DEFAULT 0 CHECK (stock >= 0),
  sold                  integer NOT NULL DEFAULT 0 CHECK (sold >= 0),
  voided                integer NOT NULL DEFAULT 0 CHECK (voided >= 0),
  created_at            timestamptz NOT NULL DEFAULT now(),
  updated_at            timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX catalog_goods_code_uq ON catalog_goods (merchant_id, code) WHERE state <> 'void';
CREATE INDEX catalog_goods_merchant_idx ON catalog_goods (merchant_id, id DESC);
-- Counts of a supplier's filtered goods list as index-only scans.
CREATE INDEX catalog_goods_merchant_count_idx ON catalog_goods (merchant_id, state, business_type, brand_id, equity_type, invoice_type);
-- Goods selection: one list per selection type, filtered by brand, equity type, face value, invoice.
CREATE INDEX catalog_goods_selection_idx ON catalog_goods (selection, recommendation_index DESC, id DESC) WHERE state = 'available';
CREATE INDEX catalog_goods_selection_sales_idx ON catalog_goods (selection, sales_index DESC, id DESC) WHERE state = 'available';
-- Counts of a filtered selection list as index-only scans: every filter column of screen 10 but the keyword.
CREATE INDEX catalog_goods_selection_count_idx ON catalog_goods (selection, sales_scope, brand_id, equity_type, face_value, invoice_type) WHERE state = 'available';
CREATE INDEX catalog_goods_brand_idx ON catalog_goods (brand_id);

-- Child items of a combo goods (in-supply merchandise children).
CREATE TABLE catalog_goods_children (
  parent_id  bigint NOT NULL REFERENCES catalog_goods (id),
  child_id   bigint NOT NULL REFERENCES catalog_goods (id),
  quantity   integer NOT NULL CHECK (quantity BETWEEN 1 AND 100),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (parent_id, child_id),
  CHECK (parent_id <> child_id)
);

-- One card-secret import (sup/purchaseCardRecords).
CREATE TABLE supply_card_batches (
  id          bigserial PRIMARY KEY,
  merchant_id bigint NOT NULL REFERENCES merchants (id),
  goods_id    bigint NOT NULL REFERENCES catalog_goods (id),
  file_name   text NOT NULL,
  status      text NOT NULL DEFAULT 'importing' CHECK (status IN ('importing', 'done', 'failed')),
  total_rows  integer NOT NULL DEFAULT 0,
  imported    integer NOT NULL DEFAULT 0,
  rejected    integer NOT NULL DEFAULT 0,
  created_by  bigint,
  created_at  timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE INDEX supply_card_batches_merchant_idx ON supply_card_batches (merchant_id, id DESC);

-- Rows of an import that were refused, with the reason: the source of the reject report.
CREATE TABLE supply_card_rejects (
  batch_id    bigint NOT NULL REFERENCES supply_card_batches (id),
  row_no      integer NOT NULL,
  reason      text NOT NULL,
  -- The refused number, masked: enough for the supplier to find the row, nothing more.
  number_mask text NOT NULL DEFAULT '',
  PRIMARY KEY (batch_id, row_no)
);

-- Card secrets. Number and secret are encrypted together (AES-256-GCM); number_hash is a keyed hash of
-- the number that deduplicates per goods and finds a card by number without decrypting.
CREATE TABLE supply_cards (
  id                bigserial PRIMARY KEY,
  merchant_id       bigint NOT NULL REFERENCES merchants (id),
  goods_id          bigint NOT NULL REFERENCES catalog_goods (id),
  batch_id          bigint NOT NULL REFERENCES supply_card_batches (id),
  row_no            integer NOT NULL,
  number_hash       text NOT NULL,
  number_mask       text NOT NULL,
  sealed            text NOT NULL,
  expires_on        date,
  state             text NOT NULL DEFAULT 'available' CHECK (state IN ('available', 'sold', 'void')),
  order_id          text,
  buyer_merchant_id bigint,
  sold_at           timestamptz,
  voided_at         timestamptz,
  created_at        timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX supply_cards_number_uq ON supply_cards (goods_id, number_hash);
-- Allocation takes the oldest available codes of a goods. (No separate (goods_id, id) index: a code list
-- of one goods uses this index or the number index; every index here is paid for by each imported code.)
CREATE INDEX supply_cards_available_idx ON supply_cards (goods_id, id) WHERE state = 'available';
CREATE INDEX supply_cards_buyer_idx ON supply_cards (buyer_merchant_id, id DESC) WHERE buyer_merchant_id IS NOT NULL;
CREATE INDEX supply_cards_order_idx ON supply_cards (order_id) WHERE order_id IS NOT NULL;
