-- The text keys a message looks up and inserts in indexes (conversation keys, usernames, device
-- resources, queue names, client ids) compare bytewise (module im, issue 9). With a database collation
-- other than C (C.UTF-8 included, on PostgreSQL before 17) every index comparison goes through the C
-- library's strcoll (twice the cost of a bytewise comparison; several per cent of PostgreSQL's work
-- per delivered message went to it). These are identifiers, not words: usernames are [a-z0-9_.-],
-- conversation keys and queue names are built from them, and their order only breaks ties (bytewise
-- order is codepoint order, which C.UTF-8 sorts by anyway).
ALTER TABLE im_messages ALTER COLUMN conv_key TYPE text COLLATE "C", ALTER COLUMN from_user TYPE text COLLATE "C",
  ALTER COLUMN client_id TYPE text COLLATE "C";
ALTER TABLE im_conv_heads ALTER COLUMN conv_key TYPE text COLLATE "C";
ALTER TABLE im_conversations ALTER COLUMN username TYPE text COLLATE "C", ALTER COLUMN conv_key TYPE text COLLATE "C";
ALTER TABLE im_inbox ALTER COLUMN username TYPE text COLLATE "C", ALTER COLUMN queue TYPE text COLLATE "C";
ALTER TABLE im_inbox_acks ALTER COLUMN resource TYPE text COLLATE "C";
ALTER TABLE im_devices ALTER COLUMN username TYPE text COLLATE "C", ALTER COLUMN resource TYPE text COLLATE "C";

