-- Supplier whitelists (module purchasing; business/VendorWhiteList and business/PurchaseWhiteList): a
-- whitelisted purchaser may buy without a docking. Scope 'vendor': every goods of the supplier; scope
-- 'goods': the one goods named. Entries are removed, never deleted, so the list keeps its history.
CREATE TABLE purchase_whitelists (
  id                    bigserial PRIMARY KEY,
  supplier_merchant_id  bigint NOT NULL REFERENCES merchants (id),
  purchaser_merchant_id bigint NOT NULL REFERENCES merchants (id),
  scope                 text NOT NULL CHECK (scope IN ('vendor', 'goods')),
  goods_id              bigint,
  remark                text NOT NULL DEFAULT '',
  created_by            bigint NOT NULL REFERENCES users (id),
  created_at            timestamptz NOT NULL DEFAULT now(),
  removed_at            timestamptz,
  removed_by            bigint REFERENCES users (id),
  CHECK (supplier_merchant_id <> purchaser_merchant_id),
  CHECK ((scope = 'vendor') = (goods_id IS NULL))
);
-- One live entry per supplier, purchaser and goods (0 for the whole vendor).
CREATE UNIQUE INDEX purchase_whitelists_live ON purchase_whitelists (supplier_merchant_id, purchaser_merchant_id, COALESCE(goods_id, 0)) WHERE removed_at IS NULL;
CREATE INDEX purchase_whitelists_supplier_idx ON purchase_whitelists (supplier_merchant_id, scope, id DESC);
