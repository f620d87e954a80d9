-- Issue 27 follow-ups (module collection): a refund gives back its share of the payment's fee (the fee
-- share each refund returned, so the last one returns exactly what remains); the legal person's ID card
-- images (front: id_card_copy, back: id_card_national in WeChat Pay's applyment4sub) beside the licence;
-- collection codes looked up by store (a store's delete checks and retires them).

ALTER TABLE pay_refunds ADD COLUMN fee bigint NOT NULL DEFAULT 0 CHECK (fee >= 0);
ALTER TABLE pay_orders ADD COLUMN fee_refunded bigint NOT NULL DEFAULT 0 CHECK (fee_refunded >= 0 AND fee_refunded <= fee);

ALTER TABLE pay_applications
  ADD COLUMN id_card_front text NOT NULL DEFAULT '',
  ADD COLUMN id_card_back  text NOT NULL DEFAULT '';

CREATE INDEX pay_codes_store_idx ON pay_codes (store_id) WHERE store_id IS NOT NULL;
