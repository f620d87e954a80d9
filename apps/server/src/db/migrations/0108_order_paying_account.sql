-- The account a purchase order was paid from (module purchasing, issue 29): the purchaser's SUP account
-- (every order until now, and the default) or its rebate fund account. A refund of the order, and the
-- return of a failed direct top-up, go back to the account that paid.
ALTER TABLE purchase_orders ADD COLUMN paid_from text NOT NULL DEFAULT 'sup' CHECK (paid_from IN ('sup', 'rebate'));
