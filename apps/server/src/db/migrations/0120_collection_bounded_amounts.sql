-- Bounded payer-page amounts (issue 37): a collection code may fix the amount it collects (a price tag),
-- and every collection account has a per-payment limit, so a payer cannot be charged, nor a merchant
-- credited, an arbitrary amount typed into an open page.
ALTER TABLE pay_codes ADD COLUMN amount bigint CHECK (amount > 0);
ALTER TABLE pay_applications ADD COLUMN per_payment_limit bigint NOT NULL DEFAULT 500000 CHECK (per_payment_limit > 0);
