-- Platform tables: the local mail/SMS outbox and the audit log.

-- What the local mail and SMS adapters "sent". Read by the dev mailbox page and GET /api/dev/outbox.
CREATE TABLE dev_outbox (
  id          bigserial PRIMARY KEY,
  channel     text NOT NULL CHECK (channel IN ('email', 'sms')),
  recipient   text NOT NULL,
  subject     text NOT NULL DEFAULT '',
  body        text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
-- The outbox is read newest first, usually for one recipient.
CREATE INDEX dev_outbox_recipient_idx ON dev_outbox (recipient, id DESC);

-- Who did what to which record; written in the transaction of the change it describes.
CREATE TABLE audit_log (
  id            bigserial PRIMARY KEY,
  actor_user_id bigint,
  action        text NOT NULL,
  subject_type  text NOT NULL,
  subject_id    text NOT NULL,
  detail        jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_log_subject_idx ON audit_log (subject_type, subject_id, id DESC);
