-- Per-device delivery (module im): a user's sync-queue entry stays until every device of the user that
-- existed when it was queued and has logged in within the last DEVICE_DAYS has acknowledged it, so a
-- device that was offline still gets what another device of the same user already read. A device seen
-- for the first time gets what nobody has read yet; what others already read it finds in history.
CREATE TABLE im_devices (
  username      text NOT NULL,
  resource      text NOT NULL,
  -- The newest queue entry when the device first logged in: later entries are owed to it.
  first_inbox_id bigint NOT NULL,
  last_seen_at  timestamptz NOT NULL,
  PRIMARY KEY (username, resource)
);

CREATE TABLE im_inbox_acks (
  inbox_id bigint NOT NULL REFERENCES im_inbox (id) ON DELETE CASCADE,
  resource text NOT NULL,
  PRIMARY KEY (inbox_id, resource)
);
