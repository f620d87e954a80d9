-- The local mail adapter keeps what it would have sent, attachments included (issue 29: the invoice
-- mail carries its PDF). One row per attachment of an outbox mail; the mail's body lists their names
-- and sizes so the dev mailbox shows them.
CREATE TABLE dev_outbox_attachments (
  id            bigserial PRIMARY KEY,
  outbox_id     bigint NOT NULL REFERENCES dev_outbox (id) ON DELETE CASCADE,
  filename      text NOT NULL,
  content_type  text NOT NULL,
  size          integer NOT NULL CHECK (size >= 0),
  content       bytea NOT NULL
);
CREATE INDEX dev_outbox_attachments_outbox_idx ON dev_outbox_attachments (outbox_id);
