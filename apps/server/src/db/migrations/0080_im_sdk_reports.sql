-- Data reports of the IM client SDKs (module im, spec 03 §7): batches of events a logged-in client posts
-- (logins, sends, reconnects, REST calls, with durations and results), kept so that an app admin can see
-- what clients reported. One row per event; the body is the event as the client sent it.
CREATE TABLE im_sdk_reports (
  id          bigserial PRIMARY KEY,
  username    text NOT NULL REFERENCES im_users (username) ON DELETE CASCADE,
  app_id      text NOT NULL,
  biz         text NOT NULL,
  debug       boolean NOT NULL,
  event_id    integer NOT NULL,
  body        jsonb NOT NULL,
  sent_at     timestamptz NOT NULL,
  received_at timestamptz NOT NULL
);
-- The admin's list filters by user and by event, newest first.
CREATE INDEX im_sdk_reports_user ON im_sdk_reports (username, id);
CREATE INDEX im_sdk_reports_event ON im_sdk_reports (event_id, id);
