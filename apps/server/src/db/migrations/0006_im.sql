-- The IM service (module im/): users and tokens, groups and chat rooms with their members and roles,
-- contacts, messages with a per-conversation order and a per-recipient sync queue, conversations,
-- reactions, threads, presence, silent mode, attributes and files. Usernames are the keys the published
-- protocol speaks in, so they are the keys here too (lower-case, at most 64 characters).

CREATE TABLE im_users (
  username      text PRIMARY KEY CHECK (username ~ '^[a-z0-9_.-]{1,64}$'),
  uuid          uuid NOT NULL UNIQUE,
  -- Null for users the back-office provisions: they only ever get tokens issued for them.
  password_hash text,
  nickname      text NOT NULL DEFAULT '',
  activated     boolean NOT NULL DEFAULT true,
  -- User info (nickname, avatarurl, mail, phone, gender, sign, birth, ext), as the client set it.
  profile       jsonb NOT NULL DEFAULT '{}',
  push_language text,
  device_id     text,
  device_token  text,
  notifier_name text,
  -- Tokens are signed, not stored; those issued before this instant (ms) are void (password change,
  -- deactivation).
  token_epoch_ms bigint NOT NULL DEFAULT 0,
  created_at    timestamptz NOT NULL,
  modified_at   timestamptz NOT NULL
);

-- Group, chat-room and thread ids: 15-digit decimal strings on the wire, like the published service's.
CREATE SEQUENCE im_id_seq START WITH 200000000000001;

-- Groups and chat rooms share one table and one set of member tables ("muc"), as the protocol does.
CREATE TABLE im_mucs (
  id                  bigint PRIMARY KEY,
  kind                text NOT NULL CHECK (kind IN ('group', 'room')),
  name                text NOT NULL,
  description         text NOT NULL DEFAULT '',
  owner               text NOT NULL REFERENCES im_users (username),
  public              boolean NOT NULL DEFAULT false,
  -- "approval": joining needs an owner's or admin's approval.
  members_only        boolean NOT NULL DEFAULT false,
  allow_invites       boolean NOT NULL DEFAULT false,
  invite_need_confirm boolean NOT NULL DEFAULT false,
  max_users           integer NOT NULL CHECK (max_users > 0),
  custom              text NOT NULL DEFAULT '',
  avatar              text NOT NULL DEFAULT '',
  announcement        text NOT NULL DEFAULT '',
  -- Whole-group sending ban ("mute all"); the allowlist may still speak.
  mute_all            boolean NOT NULL DEFAULT false,
  disabled            boolean NOT NULL DEFAULT false,
  member_count        integer NOT NULL DEFAULT 0,
  created_at          timestamptz NOT NULL,
  modified_at         timestamptz NOT NULL
);
CREATE INDEX im_mucs_public_idx ON im_mucs (kind, id) WHERE public;
CREATE INDEX im_mucs_kind_idx ON im_mucs (kind, id);

CREATE TABLE im_muc_members (
  muc_id    bigint NOT NULL REFERENCES im_mucs (id) ON DELETE CASCADE,
  username  text NOT NULL REFERENCES im_users (username) ON DELETE CASCADE,
  role      text NOT NULL CHECK (role IN ('owner', 'admin', 'member')),
  joined_at timestamptz NOT NULL,
  -- The member blocks the group's messages (notification_ignore / shield).
  shielded  boolean NOT NULL DEFAULT false,
  PRIMARY KEY (muc_id, username)
);
CREATE INDEX im_muc_members_user_idx ON im_muc_members (username, muc_id);
CREATE INDEX im_muc_members_order_idx ON im_muc_members (muc_id, joined_at, username);

-- Muted members; a mute ends at `until` (app clock), far future for "forever".
CREATE TABLE im_muc_mutes (
  muc_id   bigint NOT NULL REFERENCES im_mucs (id) ON DELETE CASCADE,
  username text NOT NULL,
  until    timestamptz NOT NULL,
  PRIMARY KEY (muc_id, username)
);

-- Blocked users are removed and cannot join again until unblocked.
CREATE TABLE im_muc_blocks (
  muc_id     bigint NOT NULL REFERENCES im_mucs (id) ON DELETE CASCADE,
  username   text NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (muc_id, username)
);

-- Members who may speak while the whole group is banned from sending.
CREATE TABLE im_muc_allowlist (
  muc_id     bigint NOT NULL REFERENCES im_mucs (id) ON DELETE CASCADE,
  username   text NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (muc_id, username)
);

-- Pending join applications ('apply', waiting for an admin) and invitations ('invite', waiting for the
-- invitee's confirmation).
CREATE TABLE im_muc_requests (
  muc_id     bigint NOT NULL REFERENCES im_mucs (id) ON DELETE CASCADE,
  username   text NOT NULL REFERENCES im_users (username) ON DELETE CASCADE,
  kind       text NOT NULL CHECK (kind IN ('apply', 'invite')),
  inviter    text,
  reason     text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL,
  PRIMARY KEY (muc_id, username, kind)
);

-- Per-member key/value attributes of a group.
CREATE TABLE im_muc_member_attrs (
  muc_id   bigint NOT NULL REFERENCES im_mucs (id) ON DELETE CASCADE,
  username text NOT NULL,
  key      text NOT NULL,
  value    text NOT NULL,
  PRIMARY KEY (muc_id, username, key)
);

-- Chat-room attributes; auto_delete ones go when their owner leaves the room.
CREATE TABLE im_room_attrs (
  muc_id      bigint NOT NULL REFERENCES im_mucs (id) ON DELETE CASCADE,
  key         text NOT NULL,
  value       text NOT NULL,
  owner       text NOT NULL,
  auto_delete boolean NOT NULL DEFAULT true,
  updated_at  timestamptz NOT NULL,
  PRIMARY KEY (muc_id, key)
);

-- Uploaded files (chatfiles and shared files). The bytes live in the storage adapter under storage_key.
CREATE TABLE im_files (
  uuid          uuid PRIMARY KEY,
  owner         text NOT NULL,
  share_secret  text NOT NULL,
  filename      text NOT NULL,
  content_type  text NOT NULL,
  size          bigint NOT NULL,
  storage_key   text NOT NULL,
  width         integer,
  height        integer,
  restricted    boolean NOT NULL DEFAULT true,
  chat_type     text,
  chat_target   text,
  created_at    timestamptz NOT NULL,
  deleted_at    timestamptz
);

CREATE TABLE im_muc_files (
  muc_id     bigint NOT NULL REFERENCES im_mucs (id) ON DELETE CASCADE,
  file_uuid  uuid NOT NULL REFERENCES im_files (uuid),
  owner      text NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (muc_id, file_uuid)
);
CREATE INDEX im_muc_files_order_idx ON im_muc_files (muc_id, created_at DESC);

-- Contacts: one row per direction of a friendship, with the owner's remark.
CREATE TABLE im_contacts (
  owner      text NOT NULL REFERENCES im_users (username) ON DELETE CASCADE,
  contact    text NOT NULL REFERENCES im_users (username) ON DELETE CASCADE,
  remark     text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL,
  PRIMARY KEY (owner, contact)
);

CREATE TABLE im_contact_requests (
  requester  text NOT NULL REFERENCES im_users (username) ON DELETE CASCADE,
  target     text NOT NULL REFERENCES im_users (username) ON DELETE CASCADE,
  reason     text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL,
  PRIMARY KEY (requester, target)
);
CREATE INDEX im_contact_requests_target_idx ON im_contact_requests (target);

CREATE TABLE im_user_blocks (
  owner      text NOT NULL REFERENCES im_users (username) ON DELETE CASCADE,
  blocked    text NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (owner, blocked)
);

-- Messages. conv_key names the conversation ('c:<a>:<b>' with a < b, 'g:<group>', 'r:<room>',
-- 't:<thread>'); seq is its server-assigned order, allocated from im_conv_heads in the inserting
-- transaction, so it has no gaps and no duplicates.
CREATE TABLE im_conv_heads (
  conv_key text PRIMARY KEY,
  last_seq bigint NOT NULL DEFAULT 0,
  -- Message times never go backwards within a conversation, so time ranges follow seq order.
  last_ms  bigint NOT NULL DEFAULT 0
);

CREATE TABLE im_messages (
  id            bigserial PRIMARY KEY,
  conv_key      text NOT NULL,
  seq           bigint NOT NULL,
  chat_type     text NOT NULL CHECK (chat_type IN ('chat', 'groupchat', 'chatroom')),
  from_user     text NOT NULL,
  from_resource text,
  to_target     text NOT NULL,
  thread_id     bigint,
  msg_type      text NOT NULL,
  -- Server time in ms since the epoch: the order clients show and the time range searches use.
  created_ms    bigint NOT NULL,
  -- The message as JSON (the REST "payload": type, from, to, bodies, ext, meta, msgConfig). json, not
  -- jsonb: the sender's key order in ext is kept as sent.
  payload       json NOT NULL,
  -- The MessageBody bytes exactly as a socket client sent them, replayed verbatim when present.
  body_pb       bytea,
  -- The sender's own id of the message, for exactly-once acceptance of resends.
  client_id     text,
  recalled_at   timestamptz,
  UNIQUE (conv_key, seq)
);
CREATE UNIQUE INDEX im_messages_client_idx ON im_messages (from_user, client_id) WHERE client_id IS NOT NULL;
CREATE INDEX im_messages_sender_idx ON im_messages (conv_key, from_user, seq);
CREATE INDEX im_messages_type_idx ON im_messages (conv_key, msg_type, seq);
CREATE INDEX im_messages_time_idx ON im_messages (created_ms);

-- Messages a user removed from their own history (by id).
CREATE TABLE im_message_deletions (
  username   text NOT NULL,
  message_id bigint NOT NULL REFERENCES im_messages (id) ON DELETE CASCADE,
  PRIMARY KEY (username, message_id)
);

-- Each user's conversations (one-to-one and groups; chat rooms keep none): last message, unread count,
-- pin, and how much of the history the user has cleared.
CREATE TABLE im_conversations (
  username        text NOT NULL,
  conv_key        text NOT NULL,
  peer            text NOT NULL,
  chat_type       text NOT NULL CHECK (chat_type IN ('chat', 'groupchat')),
  last_message_id bigint,
  last_ms         bigint NOT NULL,
  unread          integer NOT NULL DEFAULT 0 CHECK (unread >= 0),
  read_seq        bigint NOT NULL DEFAULT 0,
  pinned_ms       bigint,
  visible         boolean NOT NULL DEFAULT true,
  cleared_seq     bigint NOT NULL DEFAULT 0,
  cleared_ms      bigint NOT NULL DEFAULT 0,
  -- The client's conversation marks mark_0 .. mark_19, one bit each.
  marks           integer NOT NULL DEFAULT 0,
  PRIMARY KEY (username, conv_key)
);
CREATE INDEX im_conversations_list_idx ON im_conversations (username, last_ms DESC, conv_key) WHERE visible;
CREATE INDEX im_conversations_pinned_idx ON im_conversations (username, pinned_ms DESC, conv_key) WHERE visible AND pinned_ms IS NOT NULL;

-- Pinned messages of a conversation (one-to-one or group), shared by its participants.
CREATE TABLE im_pinned_messages (
  conv_key   text NOT NULL,
  message_id bigint NOT NULL REFERENCES im_messages (id) ON DELETE CASCADE,
  pinned_by  text NOT NULL,
  pinned_ms  bigint NOT NULL,
  PRIMARY KEY (conv_key, message_id)
);
CREATE INDEX im_pinned_messages_order_idx ON im_pinned_messages (conv_key, pinned_ms DESC, message_id DESC);

-- The per-recipient sync queue: what each user's devices have yet to receive, in order. A message or a
-- notice (group, contact or notify event as JSON). skip_resource is the sending device, which already
-- has it. The gateway deletes entries as devices acknowledge them.
CREATE TABLE im_inbox (
  id            bigserial PRIMARY KEY,
  username      text NOT NULL,
  queue         text NOT NULL,
  message_id    bigint REFERENCES im_messages (id) ON DELETE CASCADE,
  notice        jsonb,
  skip_resource text,
  created_at    timestamptz NOT NULL,
  CHECK ((message_id IS NULL) <> (notice IS NULL))
);
CREATE INDEX im_inbox_user_queue_idx ON im_inbox (username, queue, id);

-- Who read a group message (group read receipts).
CREATE TABLE im_group_read_acks (
  message_id bigint NOT NULL REFERENCES im_messages (id) ON DELETE CASCADE,
  username   text NOT NULL,
  read_at    timestamptz NOT NULL,
  PRIMARY KEY (message_id, username)
);

CREATE TABLE im_reactions (
  message_id bigint NOT NULL REFERENCES im_messages (id) ON DELETE CASCADE,
  reaction   text NOT NULL,
  username   text NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (message_id, reaction, username)
);
CREATE INDEX im_reactions_order_idx ON im_reactions (message_id, reaction, created_at, username);

CREATE TABLE im_reports (
  id          bigserial PRIMARY KEY,
  reporter    text NOT NULL,
  message_id  bigint NOT NULL REFERENCES im_messages (id) ON DELETE CASCADE,
  report_type text NOT NULL,
  reason      text NOT NULL,
  state       text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'handled')),
  created_at  timestamptz NOT NULL
);

-- Presence: a status and description per device; subscriptions expire.
CREATE TABLE im_presence (
  username   text NOT NULL REFERENCES im_users (username) ON DELETE CASCADE,
  resource   text NOT NULL,
  ext        text NOT NULL DEFAULT '',
  status     smallint NOT NULL DEFAULT 1,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (username, resource)
);

CREATE TABLE im_presence_subs (
  subscriber text NOT NULL REFERENCES im_users (username) ON DELETE CASCADE,
  target     text NOT NULL,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (subscriber, target)
);
CREATE INDEX im_presence_subs_target_idx ON im_presence_subs (target, expires_at);

-- Silent mode (push settings): scope 'all' (target ''), or per conversation 'chat' / 'group'.
CREATE TABLE im_silent (
  username    text NOT NULL REFERENCES im_users (username) ON DELETE CASCADE,
  scope       text NOT NULL CHECK (scope IN ('all', 'chat', 'group')),
  target      text NOT NULL,
  remind_type text CHECK (remind_type IN ('ALL', 'AT', 'NONE')),
  ignore_until_ms bigint,
  ignore_interval text,
  updated_at  timestamptz NOT NULL,
  PRIMARY KEY (username, scope, target)
);

-- Threads: a sub-conversation under one group message.
CREATE TABLE im_threads (
  id              bigint PRIMARY KEY,
  muc_id          bigint NOT NULL REFERENCES im_mucs (id) ON DELETE CASCADE,
  parent_msg_id   bigint NOT NULL UNIQUE,
  name            text NOT NULL,
  owner           text NOT NULL,
  member_count    integer NOT NULL DEFAULT 0,
  message_count   integer NOT NULL DEFAULT 0,
  last_message_id bigint,
  created_at      timestamptz NOT NULL,
  updated_at      timestamptz NOT NULL
);
CREATE INDEX im_threads_muc_idx ON im_threads (muc_id, id DESC);

CREATE TABLE im_thread_members (
  thread_id bigint NOT NULL REFERENCES im_threads (id) ON DELETE CASCADE,
  username  text NOT NULL,
  joined_at timestamptz NOT NULL,
  PRIMARY KEY (thread_id, username)
);
CREATE INDEX im_thread_members_user_idx ON im_thread_members (username, thread_id DESC);
