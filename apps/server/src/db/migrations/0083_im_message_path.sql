-- What one delivered message costs PostgreSQL (module im, issue 9): each message writes a message, two
-- conversation rows and a sync-queue entry, and its acknowledgement removes the entry.

-- No foreign keys on the sync queue: each checked one row at a time (a query and a row lock on the
-- message per entry written, a cascading delete per entry removed). The code keeps them whole instead:
-- the retention purge removes the entries of the messages it removes, and removing an entry removes the
-- devices' marks on it (store/inbox.ts). An entry whose message is gone is skipped by a pull anyway.
ALTER TABLE im_inbox DROP CONSTRAINT im_inbox_message_id_fkey;
ALTER TABLE im_inbox_acks DROP CONSTRAINT im_inbox_acks_inbox_id_fkey;

-- History filtered by sender or type walks the conversation's (conv_key, seq) index and filters: these
-- two indexes cost every message two index insertions for searches that are rare.
DROP INDEX im_messages_sender_idx;
DROP INDEX im_messages_type_idx;

-- A conversation row changes with every message (last message, time, unread). With last_ms out of every
-- index the change is a HOT update (no index insertions, old versions pruned within the page, which
-- matters where nothing vacuums); a user's list is sorted at read time from the primary key.
DROP INDEX im_conversations_list_idx;
ALTER TABLE im_conversations SET (fillfactor = 70);
ALTER TABLE im_conv_heads SET (fillfactor = 70);
