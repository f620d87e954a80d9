-- WeChat Pay API v3 through the payments seam (issue 41). An asynchronous provider answers `pending`
-- with what the payer does next (JSAPI's signed parameters, the H5 page, the QR code's URL), kept here so
-- that paying again serves the same prepay; the payment becomes `paid` only on the provider's verified
-- notification (or its query), once: a conditional update under the payment row.
ALTER TABLE payments ADD COLUMN action jsonb;

-- A refund the provider answered `processing` settles on its refund notification or a query.
ALTER TABLE payment_refunds ADD COLUMN provider_refund_id text;
ALTER TABLE payment_refunds ADD COLUMN settled_at timestamptz;

-- Every notification received, whatever became of it: credited, settled, a duplicate, refused (with why),
-- or paid after its order closed and refunded at once.
CREATE TABLE payment_notices (
  id           bigserial PRIMARY KEY,
  provider     text NOT NULL,
  notice_id    text,
  event_type   text,
  payment_no   text,
  outcome      text NOT NULL CHECK (outcome IN ('credited', 'settled', 'duplicate', 'refused', 'late_refunded')),
  detail       text NOT NULL DEFAULT '',
  received_at  timestamptz NOT NULL
);
CREATE INDEX payment_notices_payment_idx ON payment_notices (payment_no);
