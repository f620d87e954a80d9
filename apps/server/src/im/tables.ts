import type { ColumnType, Generated } from "kysely";
import type { ImMessagePayload } from "@tessera/contracts";
import type { Timestamp } from "../db/columns";

/** Tables owned by the IM service (migration 0006). Only im/store queries them. */

type Json<T> = ColumnType<T, string, string>;
type NullableJson<T> = ColumnType<T | null, string | null, string | null>;
type BigSerial = ColumnType<number, number | undefined, never>;

export interface ImUsersTable {
  username: string;
  uuid: string;
  password_hash: string | null;
  nickname: Generated<string>;
  activated: Generated<boolean>;
  profile: ColumnType<Record<string, string>, string | undefined, string>;
  push_language: string | null;
  device_id: string | null;
  device_token: string | null;
  notifier_name: string | null;
  token_epoch_ms: Generated<number>;
  created_at: Timestamp;
  modified_at: Timestamp;
}

export type MucKind = "group" | "room";
export type MucRole = "owner" | "admin" | "member";

export interface ImMucsTable {
  id: number;
  kind: MucKind;
  name: string;
  description: Generated<string>;
  owner: string;
  public: Generated<boolean>;
  members_only: Generated<boolean>;
  allow_invites: Generated<boolean>;
  invite_need_confirm: Generated<boolean>;
  max_users: number;
  custom: Generated<string>;
  avatar: Generated<string>;
  announcement: Generated<string>;
  mute_all: Generated<boolean>;
  disabled: Generated<boolean>;
  member_count: Generated<number>;
  created_at: Timestamp;
  modified_at: Timestamp;
}

export interface ImMucMembersTable {
  muc_id: number;
  username: string;
  role: MucRole;
  joined_at: Timestamp;
  shielded: Generated<boolean>;
}

export interface ImMucMutesTable {
  muc_id: number;
  username: string;
  until: Timestamp;
}

export interface ImMucBlocksTable {
  muc_id: number;
  username: string;
  created_at: Timestamp;
}

export type ImMucAllowlistTable = ImMucBlocksTable;

export interface ImMucRequestsTable {
  muc_id: number;
  username: string;
  kind: "apply" | "invite";
  inviter: string | null;
  reason: Generated<string>;
  created_at: Timestamp;
}

export interface ImMucMemberAttrsTable {
  muc_id: number;
  username: string;
  key: string;
  value: string;
}

export interface ImRoomAttrsTable {
  muc_id: number;
  key: string;
  value: string;
  owner: string;
  auto_delete: boolean;
  updated_at: Timestamp;
}

export interface ImFilesTable {
  uuid: string;
  owner: string;
  share_secret: string;
  filename: string;
  content_type: string;
  size: number;
  storage_key: string;
  width: number | null;
  height: number | null;
  restricted: boolean;
  chat_type: string | null;
  chat_target: string | null;
  created_at: Timestamp;
  deleted_at: Timestamp | null;
}

export interface ImMucFilesTable {
  muc_id: number;
  file_uuid: string;
  owner: string;
  created_at: Timestamp;
}

export interface ImContactsTable {
  owner: string;
  contact: string;
  remark: Generated<string>;
  created_at: Timestamp;
}

export interface ImContactRequestsTable {
  requester: string;
  target: string;
  reason: Generated<string>;
  created_at: Timestamp;
}

export interface ImUserBlocksTable {
  owner: string;
  blocked: string;
  created_at: Timestamp;
}

export interface ImConvHeadsTable {
  conv_key: string;
  last_seq: Generated<number>;
  last_ms: Generated<number>;
}

export type ChatType = "chat" | "groupchat" | "chatroom";

export interface ImMessagesTable {
  id: BigSerial;
  conv_key: string;
  seq: number;
  chat_type: ChatType;
  from_user: string;
  from_resource: string | null;
  to_target: string;
  thread_id: number | null;
  msg_type: string;
  created_ms: number;
  /** The JSON form; null for a message the gateway stored as the client's protobuf bytes (body_pb, migration 0088). */
  payload: NullableJson<ImMessagePayload>;
  body_pb: Uint8Array | null;
  client_id: string | null;
  recalled_at: Timestamp | null;
  /** Delivered from its conversation, not by queue entries (one-to-one, not online-only; migration 0089). */
  synced: Generated<boolean>;
}

export interface ImMessageDeletionsTable {
  username: string;
  message_id: number;
}

export interface ImConversationsTable {
  username: string;
  conv_key: string;
  peer: string;
  chat_type: "chat" | "groupchat";
  last_message_id: number | null;
  last_ms: number;
  unread: Generated<number>;
  read_seq: Generated<number>;
  pinned_ms: number | null;
  visible: Generated<boolean>;
  cleared_seq: Generated<number>;
  cleared_ms: Generated<number>;
  /** Conversation marks mark_0 .. mark_19 as bits. */
  marks: Generated<number>;
}

export interface ImPinnedMessagesTable {
  conv_key: string;
  message_id: number;
  pinned_by: string;
  pinned_ms: number;
}

export interface ImInboxTable {
  id: BigSerial;
  username: string;
  queue: string;
  message_id: number | null;
  notice: ColumnType<Record<string, unknown> | null, string | null, string | null>;
  skip_resource: string | null;
  created_at: Timestamp;
}

export interface ImGroupReadAcksTable {
  message_id: number;
  username: string;
  read_at: Timestamp;
}

export interface ImReactionsTable {
  message_id: number;
  reaction: string;
  username: string;
  created_at: Timestamp;
}

export interface ImReportsTable {
  id: BigSerial;
  reporter: string;
  message_id: number;
  report_type: string;
  reason: string;
  state: Generated<"pending" | "handled">;
  created_at: Timestamp;
}

/** Data reports of the client SDKs (migration 0080): one row per reported event. */
export interface ImSdkReportsTable {
  id: BigSerial;
  username: string;
  app_id: string;
  biz: string;
  debug: boolean;
  event_id: number;
  body: Json<Record<string, unknown>>;
  sent_at: Timestamp;
  received_at: Timestamp;
}

export interface ImPresenceTable {
  username: string;
  resource: string;
  ext: Generated<string>;
  status: Generated<number>;
  updated_at: Timestamp;
}

export interface ImPresenceSubsTable {
  subscriber: string;
  target: string;
  expires_at: Timestamp;
  created_at: Timestamp;
}

export interface ImSilentTable {
  username: string;
  scope: "all" | "chat" | "group";
  target: string;
  remind_type: "ALL" | "AT" | "NONE" | null;
  ignore_until_ms: number | null;
  ignore_interval: string | null;
  updated_at: Timestamp;
}

export interface ImThreadsTable {
  id: number;
  muc_id: number;
  parent_msg_id: number;
  name: string;
  owner: string;
  member_count: Generated<number>;
  message_count: Generated<number>;
  last_message_id: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ImThreadMembersTable {
  thread_id: number;
  username: string;
  joined_at: Timestamp;
}

/** A device (login resource) of a user, and when it last logged in (migration 0016). */
export interface ImDevicesTable {
  username: string;
  resource: string;
  first_inbox_id: number;
  last_seen_at: Date;
  /** The gateway process that has the device connected, while its lease runs (migration 0031). */
  online_node: string | null;
  online_until: Date | null;
}

/** How far a device has acknowledged a one-to-one conversation's messages (migration 0089). */
export interface ImSyncCursorsTable {
  username: string;
  resource: string;
  conv_key: string;
  seq: number;
}

/** Which device has acknowledged which sync-queue entry (migration 0016). */
export interface ImInboxAcksTable {
  inbox_id: number;
  resource: string;
}

export interface ImTables {
  im_devices: ImDevicesTable;
  im_inbox_acks: ImInboxAcksTable;
  im_sync_cursors: ImSyncCursorsTable;
  im_users: ImUsersTable;
  im_mucs: ImMucsTable;
  im_muc_members: ImMucMembersTable;
  im_muc_mutes: ImMucMutesTable;
  im_muc_blocks: ImMucBlocksTable;
  im_muc_allowlist: ImMucAllowlistTable;
  im_muc_requests: ImMucRequestsTable;
  im_muc_member_attrs: ImMucMemberAttrsTable;
  im_room_attrs: ImRoomAttrsTable;
  im_files: ImFilesTable;
  im_muc_files: ImMucFilesTable;
  im_contacts: ImContactsTable;
  im_contact_requests: ImContactRequestsTable;
  im_user_blocks: ImUserBlocksTable;
  im_conv_heads: ImConvHeadsTable;
  im_messages: ImMessagesTable;
  im_message_deletions: ImMessageDeletionsTable;
  im_conversations: ImConversationsTable;
  im_inbox: ImInboxTable;
  im_pinned_messages: ImPinnedMessagesTable;
  im_group_read_acks: ImGroupReadAcksTable;
  im_reactions: ImReactionsTable;
  im_reports: ImReportsTable;
  im_sdk_reports: ImSdkReportsTable;
  im_presence: ImPresenceTable;
  im_presence_subs: ImPresenceSubsTable;
  im_silent: ImSilentTable;
  im_threads: ImThreadsTable;
  im_thread_members: ImThreadMembersTable;
}
