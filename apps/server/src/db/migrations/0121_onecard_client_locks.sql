-- Wrong card passwords count per (card, client) (issue 38 item 7): a client is the calling merchant for a
-- brand's redemption, or the address of an anonymous or customer check. Counting them on the card itself
-- let anyone lock any card (five wrong guesses from anywhere) and told a locked real card from an unissued
-- number; now a client locks the card only for itself. The card's own wrong_attempts / locked_until stay
-- for rows written before this and are cleared by a reset as before.
CREATE TABLE onecard_card_failures (
  card_id        bigint NOT NULL REFERENCES onecard_cards (id) ON DELETE CASCADE,
  client         text NOT NULL,
  wrong_attempts integer NOT NULL DEFAULT 0,
  locked_until   timestamptz,
  updated_at     timestamptz NOT NULL,
  PRIMARY KEY (card_id, client)
);
CREATE INDEX onecard_card_failures_updated ON onecard_card_failures (updated_at);
