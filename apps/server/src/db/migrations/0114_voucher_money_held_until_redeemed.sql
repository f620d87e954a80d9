-- Store vouchers are paid to the brand when they are redeemed (issue 27), as group-buying platforms pay
-- merchants after the customer has used the voucher. A purchase order of card vouchers (business type
-- card_voucher) puts the purchaser's money in the platform's order escrow instead of the supplier's
-- income; each redemption records what the escrow holds for its code, and the store's settlement
-- document (T+1) moves the sum from the escrow to the brand's income, once (the document's ledger key).
-- Orders placed before this migration paid the supplier at sale: false, and their redemptions hold 0.
ALTER TABLE purchase_orders ADD COLUMN held_until_redeemed boolean NOT NULL DEFAULT false;
ALTER TABLE store_redemptions ADD COLUMN held_amount bigint NOT NULL DEFAULT 0 CHECK (held_amount >= 0);
-- What a settlement document paid into the brand's income (the held money of its voucher lines).
ALTER TABLE store_settlement_docs ADD COLUMN paid bigint NOT NULL DEFAULT 0 CHECK (paid >= 0);
