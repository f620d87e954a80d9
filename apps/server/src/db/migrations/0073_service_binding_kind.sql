-- A stored kind on service-provider bindings (issue #4): a merchant binds a provider as a brand (from
-- business/ServiceBind) or as a vendor (from sale/ServiceBind); the provider's BrandsList and VendorList
-- show one kind each, and only a brand binding can be entered with a brand token. A merchant has at most
-- one active binding of each kind. Bindings made before this migration came from either page: 'brand'.
ALTER TABLE service_bindings ADD COLUMN kind text NOT NULL DEFAULT 'brand' CHECK (kind IN ('brand', 'vendor'));
ALTER TABLE service_bindings ALTER COLUMN kind DROP DEFAULT;
DROP INDEX service_bindings_active_key;
CREATE UNIQUE INDEX service_bindings_active_key ON service_bindings (merchant_id, kind) WHERE state = 'active';
DROP INDEX service_bindings_provider_idx;
CREATE INDEX service_bindings_provider_idx ON service_bindings (provider_id, kind, id DESC) WHERE state = 'active';
