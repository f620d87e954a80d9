/**
 * The IM service's REST errors: HTTP status, `error`, `error_description` and `error_code`, chosen so the
 * published client maps each to the status spec 03 §8 names (shown after each entry). Descriptions are
 * matched by the client as English text, so they are fixed strings; `{name}` marks a value filled in.
 * Our own SDK (issue 10) maps replies with the same table.
 */
export interface ImErrorDef {
  status: number;
  error: string;
  description: string;
  code?: number;
  exception?: string;
}

export const IM_ERRORS = {
  /** 401 → no permission (52). */
  unauthorized: { status: 401, error: "unauthorized", description: "Unable to authenticate (OAuth)" },
  /** 400 → request parameter error (17 on most calls). */
  invalidParameter: { status: 400, error: "illegal_argument", description: "Invalid parameter: {field}" },
  /** Group member attributes: 400 with error_code 60010 (no permission, or max limit when the value is too long) or 60006 (max limit); the description is set per case. */
  memberAttributes: {
    status: 400,
    error: "forbidden_op",
    description: "group member attributes set failed",
    code: 60005,
  },
  /** 400 → request parameter error (-3). */
  unreadableBody: {
    status: 400,
    error: "json_parse",
    description: "Request body not readable.Please check content type is correct!",
  },
  /** Register: not retried on another host. */
  usernameIllegal: { status: 400, error: "illegal_argument", description: "USERNAME {username} is not legal" },
  passwordIllegal: { status: 400, error: "illegal_argument", description: "password is not legal" },
  usernameTaken: {
    status: 400,
    error: "duplicate_unique_property_exists",
    description: "Entity user requires that property named username be unique, value of {username} exists",
  },
  openRegistrationClosed: {
    status: 400,
    error: "unauthorized",
    description: "Open registration doesn't allow, so register user need token",
  },
  /** Login with an unknown user → user not found (204), not retried. */
  loginUserNotFound: {
    status: 404,
    error: "service_resource_not_found",
    description: "user not found",
    exception: "UserNotFoundException",
  },
  /** Login with a wrong password, not retried. */
  invalidPassword: { status: 400, error: "invalid_grant", description: "invalid password" },
  unsupportedGrant: { status: 400, error: "unsupported_grant_type", description: "unsupported grant type: {grant}" },
  invalidClient: { status: 401, error: "invalid_client", description: "invalid client credentials" },
  userDeactivated: { status: 401, error: "unauthorized", description: "Unable to authenticate (OAuth)" },
  /** 404 → user not found (204). */
  userNotFound: {
    status: 404,
    error: "service_resource_not_found",
    description: "user not found: {username}",
    exception: "UserNotFoundException",
  },
  /** 404 on a chatgroups URL → group not exist (605). */
  groupNotFound: { status: 404, error: "resource_not_found", description: "do not find this group:{id}" },
  /** 404 on a chatrooms URL → chat room not exist (705). */
  roomNotFound: { status: 404, error: "resource_not_found", description: "chatroom {id} does not exist" },
  /** 403 → group not joined (602) on chatgroups URLs, chat room not joined (702) otherwise. */
  notMember: { status: 403, error: "forbidden_op", description: "user: {username} are not members of this group!" },
  /**
   * 404 with 60003 → group not joined (602). For group calls whose URL lacks "chatgroups" (member
   * attributes under metadata/chatgroup), where the text alone would map to chat room not joined (702).
   */
  groupNotJoined: {
    status: 404,
    error: "resource_not_found",
    description: "user: {username} are not members of this group!",
    code: 60003,
  },
  /** 403 → permission denied (603). */
  permissionDenied: { status: 403, error: "forbidden_op", description: "permission denied: {reason}" },
  /** 403 → group members full (606) / chat room members full (704). */
  mucFull: { status: 403, error: "forbidden_op", description: "group member list is full!" },
  /** 403 → group members limit (607). */
  membersOverMax: { status: 403, error: "forbidden_op", description: "members size is greater than max user size !" },
  /** 403 → already in group (601) on chatgroups URLs. */
  alreadyMember: {
    status: 403,
    error: "forbidden_op",
    description: "invite users to join group failed, user {username} already in group",
  },
  /** 403 → permission denied (603). */
  blockedFromMuc: {
    status: 403,
    error: "forbidden_op",
    description: "permission denied: user {username} is blocked from {id}",
  },
  /** 403 → group is disabled (608). */
  groupDisabled: {
    status: 403,
    error: "forbidden_op",
    description: "can not operate this group, reason: group is disabled",
  },
  /** 403 with 91002 → max limit (50). */
  maxLimit: {
    status: 403,
    error: "forbidden_op",
    description: "{what} exceeds the maximum limit of {max}",
    code: 91002,
  },
  /** 400 with 60006 → max limit (50): too many admins. */
  adminLimit: {
    status: 400,
    error: "forbidden_op",
    description: "admin count exceeds the maximum limit of {max}",
    code: 60006,
  },
  /** 403 with 15002 → service not enabled (505). */
  serviceNotEnabled: { status: 403, error: "forbidden_op", description: "{service} service not open!", code: 15002 },
  /** 429 → max limit (50): the client matches this text; any other 429 text reads as 'Server is busy.' (500). */
  rateLimited: {
    status: 429,
    error: "too_many_requests",
    description: "The request has reached the maximum limit of {max} per second",
  },
  /** 400 with 40002 → thread already exists (1301). */
  threadExists: {
    status: 400,
    error: "forbidden_op",
    description: "a thread already exists on message {id}",
    code: 40002,
  },
  /** 404 with 40011 → thread not exist (1300). */
  threadNotFound: { status: 404, error: "resource_not_found", description: "thread not found: {id}", code: 40011 },
  /** 403 with 40005 → max limit (50). */
  threadFull: {
    status: 403,
    error: "forbidden_op",
    description: "thread member count exceeds the maximum limit of {max}",
    code: 40005,
  },
  /** 404 with 91001 → conversation not exist (1400). */
  conversationNotFound: {
    status: 404,
    error: "resource_not_found",
    description: "conversation not exist",
    code: 91001,
  },
  messageNotFound: { status: 404, error: "resource_not_found", description: "message not found: {id}" },
  /** 404 → message not found (51): unpinning or pinning a message the conversation does not have. */
  pinNotFound: { status: 404, error: "resource_not_found", description: "user session pin message not exist" },
  /** 400 → request parameter error (-3). */
  pinIdIllegal: { status: 400, error: "illegal_argument", description: "param pin_msg_id illegal, please check it!" },
  /** 400 → message not found (51). */
  reportMessageNotFound: {
    status: 400,
    error: "illegal_argument",
    description: "report failed, get message by id failed",
  },
  /** 400 → reaction already added (1101). */
  reactionAlreadyAdded: {
    status: 400,
    error: "illegal_argument",
    description: "the user is already operation this message",
  },
  /** 400 → max limit (50). */
  reactionLimit: { status: 400, error: "illegal_argument", description: "The quantity has exceeded the limit!" },
  /** 400 → reaction operation is illegal (1103). */
  reactionIllegal: { status: 400, error: "illegal_argument", description: "the user operation is illegal!" },
  /** 400 → group not joined (602). */
  reactionNotInGroup: { status: 400, error: "illegal_argument", description: "The user not in this group!" },
  /** 400 → presence param exceed (1100). Note the trailing space the client matches. */
  presenceExtTooBig: { status: 400, error: "illegal_argument", description: "ext is too big " },
  /** 400 → max limit (50). */
  remarkTooLong: { status: 400, error: "illegal_argument", description: "remark length must less than {max}" },
  /** 400 → user not friend (221). */
  notFriends: {
    status: 400,
    error: "illegal_argument",
    description: "updateRemark | they are not friends, please add as a friend first.",
  },
  /** 403 → max limit (50). */
  contactLimit: { status: 403, error: "forbidden_op", description: "Inviter's contact max count {max} exceeded" },
  inviteeContactLimit: {
    status: 403,
    error: "forbidden_op",
    description: "Invitee's contact max count {max} exceeded",
  },
  /** 400 → translation text too long (1201). */
  translateTooLong: { status: 400, error: "illegal_argument", description: "The input text is too long." },
  /** 400 → translation not valid (1200). */
  translateLanguageInvalid: {
    status: 400,
    error: "illegal_argument",
    description: "The target language is not valid.",
  },
  /** 500 → translation failed (1204); the client matches this spelling. */
  translateFailed: { status: 500, error: "translate_failed", description: "translte failed! {reason}" },
  /** Uploads: every failure is a 400 (the client treats any other status as complete); 14403 → upload error (101). */
  uploadFailed: { status: 400, error: "upload_failed", description: "{reason}", code: 14403 },
  /** 403 → no permission to download (222). */
  fileNoPermission: { status: 403, error: "forbidden_op", description: "chatfile no permission" },
  /** 404 → file expired (223). */
  fileExpired: { status: 404, error: "file_expired", description: "file {id} was deleted" },
  /** 404 → download error (200). */
  fileNotFound: { status: 404, error: "resource_not_found", description: "file not found: {id}" },
  /** Room attributes are reported in data.errorKeys of a 200 reply; these are the texts the client maps. */
  routeNotFound: { status: 404, error: "resource_not_found", description: "Service resource not found: {path}" },
  internal: { status: 500, error: "internal_server_error", description: "internal server error" },
} as const satisfies Record<string, ImErrorDef>;
export type ImErrorKey = keyof typeof IM_ERRORS;

/** Texts of room-attribute failures, per key, in `data.errorKeys` (client maps them, spec 03 §8). */
export const IM_ATTRIBUTE_ERRORS = {
  notOwner: "{key} is not part of you",
  tooMany: "the number of attributes of this chatroom is exceeding maximum limit",
  tooLong: "{key} size of metadata for this single chatroom exceeds the user defined limit",
  illegal: "{key} is not Legal",
} as const;

/** Fills `{name}` placeholders. */
export function imErrorText(template: string, params: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => (name in params ? String(params[name]) : `{${name}}`));
}
