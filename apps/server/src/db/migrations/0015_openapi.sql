-- The open API (module openapi): nonces of signed requests, kept long enough to refuse a replay within
-- the accepted clock skew.
CREATE TABLE openapi_nonces (
  app_key    text NOT NULL,
  nonce      text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (app_key, nonce)
);
CREATE INDEX openapi_nonces_created_idx ON openapi_nonces (created_at);

-- Order result callbacks to the purchaser's URL (an outbox: written in the order's transaction,
-- delivered after it by the dispatcher, retried on a fixed backoff until acknowledged).
CREATE TABLE openapi_callbacks (
  id              bigserial PRIMARY KEY,
  merchant_id     bigint NOT NULL REFERENCES merchants (id),
  event_id        text NOT NULL UNIQUE,
  order_id        bigint NOT NULL,
  url             text NOT NULL,
  payload         text NOT NULL,
  state           text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'failed')),
  attempts        integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  last_status     integer,
  last_error      text,
  created_at      timestamptz NOT NULL DEFAULT now(),
  delivered_at    timestamptz
);
CREATE INDEX openapi_callbacks_due_idx ON openapi_callbacks (next_attempt_at) WHERE state = 'pending';
CREATE INDEX openapi_callbacks_merchant_idx ON openapi_callbacks (merchant_id, id DESC);
