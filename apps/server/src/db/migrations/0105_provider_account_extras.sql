-- Issue 29, the provider's remaining pages and two account calls (modules providerops and announcements).
--
-- provider_batch_purchases: one uploaded BatchPurchase file of a service provider and the result of each
-- of its lines (an order number, or the reason it was refused), kept for the result download. The orders
-- themselves are ordinary purchase orders of the served purchasers (module purchasing).
CREATE TABLE provider_batch_purchases (
  id            bigserial PRIMARY KEY,
  provider_id   bigint NOT NULL REFERENCES merchants (id),
  file_name     text NOT NULL,
  lines         jsonb NOT NULL,
  ordered       integer NOT NULL,
  refused       integer NOT NULL,
  created_by    bigint NOT NULL REFERENCES users (id),
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX provider_batch_purchases_list ON provider_batch_purchases (provider_id, id DESC);

-- The platform's customer-service contact shown to merchants (getQwContact): one row, set by the operator.
CREATE TABLE platform_service_contact (
  id            smallint PRIMARY KEY CHECK (id = 1),
  name          text NOT NULL,
  qr_url        text NOT NULL,
  phone         text NOT NULL,
  updated_by    bigint REFERENCES users (id),
  updated_at    timestamptz NOT NULL DEFAULT now()
);

-- Platform announcements to merchants (textMess), published by the operator, and who has read which.
CREATE TABLE platform_announcements (
  id            bigserial PRIMARY KEY,
  title         text NOT NULL,
  body          text NOT NULL,
  audience      text NOT NULL CHECK (audience IN ('all', 'sale', 'business', 'providers')),
  published_by  bigint REFERENCES users (id),
  published_at  timestamptz NOT NULL DEFAULT now(),
  withdrawn_at  timestamptz
);
CREATE INDEX platform_announcements_live ON platform_announcements (published_at DESC) WHERE withdrawn_at IS NULL;

CREATE TABLE platform_announcement_reads (
  announcement_id bigint NOT NULL REFERENCES platform_announcements (id),
  merchant_id     bigint NOT NULL REFERENCES merchants (id),
  read_at         timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (merchant_id, announcement_id)
);
