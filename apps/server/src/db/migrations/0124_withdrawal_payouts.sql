-- Issue 44, item 1: a payout instruction is never lost. The instruction to the bank is written in the
-- transaction that moves a withdrawal to `bank_paying` (the second review, or the T+1 payout), as a row of
-- this outbox, and a job submits every pending one, keyed by its reference (the bank adapter treats a second
-- submission of a reference as done). Before, the file was written only after the commit, so a crash in
-- between lost the instruction for good.
--   pending      written, not yet handed to the bank (or the last try failed: `last_error`, `next_attempt_at`)
--   submitted    the bank adapter took it; the bank's result is still to come
--   acknowledged the withdrawal ended (marked paid or failed) after the instruction was submitted
--   cancelled    the withdrawal ended before the instruction was ever submitted: it is never sent
CREATE TABLE withdrawal_payouts (
  id              bigserial PRIMARY KEY,
  withdrawal_id   bigint NOT NULL UNIQUE REFERENCES withdrawals (id),
  reference       text NOT NULL UNIQUE,
  amount          bigint NOT NULL CHECK (amount > 0),
  currency        text NOT NULL CHECK (currency IN ('CNY', 'USD', 'HKD')),
  company_name    text NOT NULL,
  bank            text NOT NULL,
  city            text NOT NULL,
  account         text NOT NULL,
  -- The platform day (UTC+8) of the instruction, as the bank file names it.
  day             text NOT NULL,
  state           text NOT NULL DEFAULT 'pending'
                  CHECK (state IN ('pending', 'submitted', 'acknowledged', 'cancelled')),
  -- Tries so far, counted when a sender claims the row (a sender that died mid-way counts too).
  attempts        integer NOT NULL DEFAULT 0,
  last_error      text,
  -- A pending row is due from this time; a sender claiming it moves it one lease ahead.
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  created_at      timestamptz NOT NULL DEFAULT now(),
  submitted_at    timestamptz,
  acknowledged_at timestamptz
);
CREATE INDEX withdrawal_payouts_due ON withdrawal_payouts (next_attempt_at) WHERE state = 'pending';
CREATE INDEX withdrawal_payouts_open ON withdrawal_payouts (id) WHERE state IN ('pending', 'submitted');

-- Withdrawals already paying when this runs may have lost their instruction: queue each again. A reference
-- the bank already has is taken as done, so one that was sent is not paid twice.
INSERT INTO withdrawal_payouts (withdrawal_id, reference, amount, currency, company_name, bank, city, account, day)
SELECT w.id, w.payout_reference, w.amount, w.currency, c.company_name, c.bank, c.city, c.account,
       to_char((w.created_at AT TIME ZONE 'UTC') + interval '8 hours', 'YYYY-MM-DD')
  FROM withdrawals w JOIN withdrawal_cards c ON c.id = w.card_id
 WHERE w.state = 'bank_paying' AND w.payout_reference IS NOT NULL;
