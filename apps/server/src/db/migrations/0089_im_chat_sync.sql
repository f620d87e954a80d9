-- One-to-one messages are delivered from their conversation (module im, issue 9): a queue entry per
-- recipient, and its removal when a device acknowledged it, were half of what a message cost
-- PostgreSQL. A device's sync queue of a one-to-one conversation is now the conversation's messages
-- after the device's cursor, merged with the queue entries that remain (receipts, recalls, edits and
-- other notices) by id; acknowledging moves the cursor (gateway/sync.ts, gateway/acks.ts).
--
-- Within one conversation, seq order is commit order (the conversation's head row is locked from the
-- seq's allocation to the commit), so "every message up to seq N" is a safe acknowledgement.

-- Messages delivered this way (one-to-one, not online-only). Older messages still have their entries.
ALTER TABLE im_messages ADD COLUMN synced boolean NOT NULL DEFAULT false;

-- How far each device has acknowledged each one-to-one conversation. A device without a row starts
-- where the user's other devices are (what the user has read elsewhere is not owed to a new device).
CREATE TABLE im_sync_cursors (
  username text COLLATE "C" NOT NULL,
  resource text COLLATE "C" NOT NULL,
  conv_key text COLLATE "C" NOT NULL,
  seq      bigint NOT NULL,
  PRIMARY KEY (username, resource, conv_key)
) WITH (fillfactor = 70);

-- Messages and queue entries share one id sequence: a pull merges both by id, and a device's pending
-- entries are keyed by it.
SELECT setval('im_messages_id_seq', GREATEST(
  (SELECT COALESCE(max(id), 0) FROM im_messages), (SELECT COALESCE(max(id), 0) FROM im_inbox),
  (SELECT last_value FROM im_inbox_id_seq), (SELECT last_value FROM im_messages_id_seq)));
ALTER TABLE im_inbox ALTER COLUMN id SET DEFAULT nextval('im_messages_id_seq'::regclass);
