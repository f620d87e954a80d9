-- Gift packages (GiftPackage): a purchaser's named set of card products and counts, sent as one gift per
-- recipient from its activated cards. Gifts may now go by link instead of to a phone: whoever opens the
-- link first, logged in as a customer, claims it (the link carries a keyed MAC of the gift's id).
CREATE TABLE onecard_gift_packages (
  id            bigserial PRIMARY KEY,
  purchaser_id  bigint NOT NULL REFERENCES merchants (id),
  name          text NOT NULL,
  message       text NOT NULL DEFAULT '',
  -- [{"productId": 1, "count": 2}, ...]
  items         jsonb NOT NULL,
  archived      boolean NOT NULL DEFAULT false,
  created_by    bigint NOT NULL REFERENCES users (id),
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX onecard_gift_packages_purchaser_idx ON onecard_gift_packages (purchaser_id, id DESC);
ALTER TABLE onecard_gifts ADD COLUMN package_id bigint REFERENCES onecard_gift_packages (id);
ALTER TABLE onecard_gifts ALTER COLUMN phone DROP NOT NULL;
CREATE INDEX onecard_gifts_package_idx ON onecard_gifts (package_id) WHERE package_id IS NOT NULL;
