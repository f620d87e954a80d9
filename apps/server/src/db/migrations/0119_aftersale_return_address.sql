-- Issue 37: the address a brand takes returned goods back at, given when it agrees to a return, so the
-- buyer is shown where to send them.
ALTER TABLE commerce_aftersales ADD COLUMN return_address text;
