-- The open API (module openapi): nonces of signed requests, kept long enough to refuse a replay within
-- the accepted clock skew.
CREATE TABLE openapi_nonces (
  app_key    text NOT NULL,
  nonce      text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (app_key, nonce)
);
CREATE INDEX openapi_nonces_created_idx ON openapi_nonces (created_at);
