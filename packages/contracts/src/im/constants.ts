/**
 * Constants of the IM service that server and client SDK share: defaults and limits (spec 02 §9,
 * spec 03 §9), the user-info keys, silent-mode kinds and the event codes of spec 03 §4.
 */

/** The keys a user's info may hold (spec 02 §5); any other key is refused. */
export const IM_USER_INFO_KEYS = ["nickname", "avatarurl", "mail", "phone", "gender", "sign", "birth", "ext"] as const;
export type ImUserInfoKey = (typeof IM_USER_INFO_KEYS)[number];

/** Usernames: letters, digits, `_`, `-`, `.`; 1-64 characters; case-insensitive (stored lower-case). */
export const IM_USERNAME_RE = /^[a-zA-Z0-9_.-]{1,64}$/;
export const IM_PASSWORD_MAX = 64;

/** Page defaults of spec 02 §9 and spec 03 §9. */
export const IM_PAGE = {
  roomPageNum: 1,
  roomPageSize: 20,
  historyPageSize: 20,
  /** Largest history page the server hands out at once. */
  historyMaxPageSize: 50,
  conversationPageSize: 20,
  conversationMaxPageSize: 100,
  contactPageSize: 20,
  groupSharedFilesPage: 1,
  groupSharedFilesPageSize: 10,
  groupReadAckLimit: 500,
  reactionDetailPageSize: 20,
  threadPageSize: 20,
  memberPageSize: 50,
  publicGroupPageSize: 20,
  maxPageSize: 1000,
} as const;

/** Remove-history accepts 1 to 20 message ids; the timestamp has at most 18 digits (spec 02 §5, §9). */
export const IM_REMOVE_HISTORY_MAX_IDS = 20;
/** Remove-history timestamps have at most 18 digits (above 2^53, so compare as text). */
export const IM_TIMESTAMP_MAX_DIGITS = 18;

/**
 * Limits the server enforces, with their defaults; the server's configuration may change the ones
 * marked configurable (README, configuration table).
 */
export const IM_LIMITS = {
  /** Configurable: IM_MAX_GROUP_USERS. Also the largest `maxusers` a group may be created with. */
  groupMaxUsers: 3000,
  groupDefaultMaxUsers: 200,
  /** Configurable: IM_MAX_ROOM_USERS. */
  roomMaxUsers: 10000,
  roomDefaultMaxUsers: 1000,
  /** Configurable: IM_MAX_ADMINS (per group or room, the owner not counted). */
  admins: 99,
  /** Configurable: IM_MAX_ROOM_ATTRIBUTES (keys per chat room). */
  roomAttributes: 100,
  roomAttributeKeyLength: 128,
  roomAttributeValueLength: 4096,
  /** Configurable: IM_MAX_MEMBER_ATTRIBUTES_BYTES (all of one member's attributes in one group). */
  memberAttributesBytes: 4096,
  memberAttributeKeyLength: 16,
  memberAttributeValueLength: 512,
  /** Configurable: IM_MAX_REACTIONS (distinct reactions on one message). */
  reactionsPerMessage: 20,
  reactionLength: 128,
  /** Configurable: IM_MAX_THREAD_MEMBERS. */
  threadMembers: 10000,
  threadNameLength: 64,
  contacts: 3000,
  blocklist: 500,
  pinnedConversations: 50,
  /** Pinned messages in one conversation. */
  pinnedMessages: 20,
  presenceSubscriptions: 3000,
  /** Longest subscription: 30 days, in seconds. */
  presenceExpirySeconds: 30 * 24 * 3600,
  presenceExtLength: 64,
  announcementLength: 512,
  remarkLength: 100,
  groupNameLength: 128,
  descriptionLength: 512,
  customLength: 1024,
  reportReasonLength: 512,
  translateTextLength: 5000,
  translateTargets: 10,
  /** Configurable: IM_FILE_MAX_BYTES. */
  fileMaxBytes: 10 * 1024 * 1024,
  /** Images larger than this get a thumbnail (spec 03 §9). */
  thumbnailThresholdBytes: 204800,
  thumbnailDefaultSize: 170,
  thumbnailMaxSize: 1024,
  /** A combined message: 1 to 300 messages, nested at most 10 levels (spec 03 §5, §9). */
  combineMaxMessages: 300,
  combineMaxLevel: 10,
} as const;

/** Silent mode: paramType 0 remindType, 1 duration, 2 interval (spec 03 §9). */
export const IM_REMIND_TYPES = ["ALL", "AT", "NONE"] as const;
export type ImRemindType = (typeof IM_REMIND_TYPES)[number];

/** Conversation kinds of the REST API ("chat" is one-to-one). */
export const IM_CHAT_TYPES = ["chat", "groupchat", "chatroom"] as const;
export type ImChatType = (typeof IM_CHAT_TYPES)[number];

/** Message body types (spec 02 §3, spec 03 §3). */
export const IM_MESSAGE_TYPES = ["txt", "img", "video", "audio", "file", "loc", "cmd", "custom", "combine"] as const;
export type ImMessageType = (typeof IM_MESSAGE_TYPES)[number];

/** Group and chat-room operation codes (spec 03 §4); the gateway encodes notices with them. */
export const IM_MUC_OPS = {
  create: 0,
  destroy: 1,
  join: 2,
  leave: 3,
  apply: 4,
  applyAccept: 5,
  applyDecline: 6,
  invite: 7,
  inviteAccept: 8,
  inviteDecline: 9,
  kick: 10,
  getBlacklist: 11,
  ban: 12,
  allow: 13,
  updateInfo: 14,
  block: 15,
  unblock: 16,
  presence: 17,
  absence: 18,
  directJoined: 19,
  assignOwner: 20,
  addAdmin: 21,
  removeAdmin: 22,
  addMute: 23,
  removeMute: 24,
  updateAnnouncement: 25,
  deleteAnnouncement: 26,
  uploadFile: 27,
  deleteFile: 28,
  addUserToAllowlist: 29,
  removeAllowlistMember: 30,
  muteAll: 31,
  unmuteAll: 32,
  createThread: 33,
  destroyThread: 34,
  joinThread: 35,
  leaveThread: 36,
  kickThreadMember: 37,
  updateThreadName: 38,
  roomAttributesUpdate: 43,
  roomAttributesRemove: 44,
  memberAttributesUpdate: 45,
} as const;
export type ImMucOp = keyof typeof IM_MUC_OPS;

/** Contact (roster) operation codes (spec 03 §4). */
export const IM_ROSTER_OPS = { invite: 2, remove: 3, accept: 4, decline: 5, agreed: 8, refused: 9 } as const;
export type ImRosterOp = keyof typeof IM_ROSTER_OPS;

/** Sync-queue names, as the protocol's JIDs: `<user>@easemob.com`, `<group>@conference.easemob.com`. */
export const IM_USER_DOMAIN = "easemob.com";
export const IM_MUC_DOMAIN = "conference.easemob.com";

/** Conversation marks the client offers: mark_0 .. mark_19. */
export const IM_CONVERSATION_MARKS = 20;
