import { statusCode as C } from "./status.js";

/**
 * Every failure the SDK reports: `type` is a code of `statusCode`, `message` the text (spec 03 §8), `data`
 * the server reply or the message ids concerned.
 */
export class ChatSdkError extends Error {
  readonly type: number;
  readonly data?: unknown;
  /** The HTTP status of a failed REST reply. */
  httpStatus?: number;
  constructor(type: number, message: string, data?: unknown) {
    super(message);
    this.name = "ChatSdkError";
    this.type = type;
    if (data !== undefined) this.data = data;
  }
}

export const err = (type: number, message: string, data?: unknown): ChatSdkError =>
  new ChatSdkError(type, message, data);

/** A parameter check failed (spec 02 §5, spec 03 §5): rejected before any network call. */
export const invalid = (message: string): ChatSdkError => new ChatSdkError(C.REQUEST_PARAMETER_ERROR, message);

/** The error body fields a REST reply may carry. */
export interface RestErrorBody {
  error?: string;
  error_description?: string;
  error_code?: number;
  desc?: string;
  exception?: string;
  result?: string;
}

const has = (text: string | undefined, part: string): boolean => (text ?? "").includes(part);

/** 400 replies whose description names the failure (spec 03 §8, REST status mapping). */
const BAD_REQUEST_TEXTS: readonly [string, number][] = [
  ["the user is already operation this message", C.REACTION_ALREADY_ADDED],
  ["The quantity has exceeded the limit!", C.MAX_LIMIT],
  ["The user not in this group!", C.GROUP_NOT_JOINED],
  ["the user operation is illegal!", C.REACTION_OPERATION_IS_ILLEGAL],
  ["this appKey is not open reaction service!", C.SERVICE_NOT_ENABLED],
  ["this appKey not open message roaming", C.SERVICE_NOT_ENABLED],
  ["this message is creating reaction, please try again.", C.REACTION_CREATING],
  ["groupId can not be null!", C.GROUP_NOT_EXIST],
  ["The input text is too long.", C.TRANSLATION_TEXT_TOO_LONG],
  ["The target language is not valid.", C.TRANSLATION_NOT_VALID],
  ["report failed, get message by id failed", C.MESSAGE_NOT_FOUND],
  ["ext is too big ", C.PRESENCE_PARAM_EXCEED],
  ["Request body not readable.Please check content type is correct!", C.REQUEST_PARAMETER_ERROR],
  ["param mark must be not empty, please check!", C.REQUEST_PARAMETER_ERROR],
  ["param mark illegal, please check it!", C.REQUEST_PARAMETER_ERROR],
  ["param pin_msg_id illegal, please check it!", C.REQUEST_PARAMETER_ERROR],
  ["updateRemark | they are not friends, please add as a friend first.", C.USER_NOT_FRIEND],
];

/**
 * A failed REST reply as an SDK error, by HTTP status, `error_code` and `error_description` (spec 03 §8).
 * `url` decides between group and chat-room codes. `raw` is the reply text (401 without a known code).
 */
export function restError(status: number, body: RestErrorBody, url: string, raw = ""): ChatSdkError {
  const mapped = mapRestError(status, body, url, raw);
  mapped.httpStatus = status;
  return mapped;
}

function mapRestError(status: number, body: RestErrorBody, url: string, raw: string): ChatSdkError {
  const code = body.error_code;
  const d = body.error_description ?? "";
  const group = url.includes("chatgroups");
  const e = (type: number, message: string = d): ChatSdkError => err(type, message, body);
  switch (status) {
    case 400: {
      if (code === 40002) return e(C.THREAD_ALREADY_EXIST);
      if (code === 40009) return e(C.OPERATION_UNSUPPORTED);
      if (code === 60005) return e(C.GROUP_MEMBER_ATTRIBUTES_SET_FAILED, body.desc || d);
      if (code === 60010) {
        return e(has(d, "exceeds chatgroup user metadata single value limit") ? C.MAX_LIMIT : C.NO_PERMISSION);
      }
      if (code === 60011) return e(C.CHATROOM_NOT_JOINED, body.desc ?? d);
      if (code === 14403) return e(C.WEBIM_UPLOADFILE_ERROR);
      if (code === 60006 || code === 60007 || code === 60009 || code === 60012) return e(C.MAX_LIMIT);
      if (code === 91104) return e(C.NO_PERMISSION);
      if (has(d, "are not members of this group")) return e(group ? C.GROUP_NOT_JOINED : C.CHATROOM_NOT_JOINED);
      if (body.result === "the app not open presence") return e(C.SERVICE_NOT_ENABLED, body.result);
      if (has(d, "remark length must less")) return e(C.MAX_LIMIT);
      const known = BAD_REQUEST_TEXTS.find(([text]) => d === text);
      if (known) return e(known[1]);
      return e(C.WEBIM_CONNCTION_AJAX_ERROR);
    }
    case 401:
      if (code === 40001 || code === 60001 || d === "Unable to authenticate (OAuth)") return e(C.NO_PERMISSION);
      return e(C.WEBIM_CONNCTION_AJAX_ERROR, raw || d);
    case 403: {
      if (code === 40000 || code === 60004 || code === 15002) return e(C.SERVICE_NOT_ENABLED);
      if (code === 40003 || code === 40004) return e(C.THREAD_ALREADY_EXIST);
      if (code === 40005 || code === 40007 || code === 91002 || code === 91101) return e(C.MAX_LIMIT);
      if (code === 60002) return e(C.PERMISSION_DENIED);
      if (code === 91102) return e(C.REQUEST_PARAMETER_ERROR);
      if (d === "group member list is full!") return e(group ? C.GROUP_MEMBERS_FULL : C.CHATROOM_MEMBERS_FULL);
      if (has(d, "invite users to join group failed") && has(d, "already in group")) return e(C.GROUP_ALREADY_JOINED);
      if (has(d, "are not members of this group")) return e(group ? C.GROUP_NOT_JOINED : C.CHATROOM_NOT_JOINED);
      if (
        has(d, "service not open!") ||
        has(d, "message report not open") ||
        has(d, "messageroaming function not open")
      ) {
        return e(C.SERVICE_NOT_ENABLED);
      }
      if (has(d, "members size is greater than max user size !")) return e(C.GROUP_MEMBERS_LIMIT);
      if (has(d, "can not operate this group, reason: group is disabled")) return e(C.GROUP_IS_DISABLED);
      if (has(d, "Invitee's contact max count") || has(d, "Inviter's contact max count")) return e(C.MAX_LIMIT);
      return e(C.PERMISSION_DENIED, "permission denied");
    }
    case 404:
      if (code === 40011) return e(C.THREAD_NOT_EXIST);
      if (code === 40012) return e(C.NO_PERMISSION);
      if (code === 60003 || code === 20004) return e(C.GROUP_NOT_JOINED);
      if (code === 91001) return e(C.CONVERSATION_NOT_EXIST);
      if (has(d, "do not find this group") || has(d, "does not exist")) {
        return group ? e(C.GROUP_NOT_EXIST) : e(C.CHATROOM_NOT_EXIST, "The chat room dose not exist.");
      }
      if (
        (has(d, "username") && has(d, "doesn't exist!")) ||
        has(d, "user not found") ||
        (has(d, "Service resource not found") && body.exception === "UserNotFoundException")
      ) {
        return e(C.USER_NOT_FOUND);
      }
      if (d === "user session pin message not exist") return e(C.MESSAGE_NOT_FOUND);
      return e(C.WEBIM_CONNCTION_AJAX_ERROR);
    case 406:
      if (code === 90004) return e(C.OPERATION_NOT_ALLOWED);
      return e(C.WEBIM_CONNCTION_AJAX_ERROR);
    case 429:
    case 503:
      if (has(d, "The request has reached the maximum limit") || has(d, "upload client logs reached limit")) {
        return e(C.MAX_LIMIT);
      }
      return e(C.SERVER_BUSY, "Server is busy.");
    case 500:
      if (code === 40006 || code === 40008 || code === 40010) return e(C.SERVER_UNKNOWN_ERROR);
      if (code === 90005 || code === 99999) return e(C.REQUEST_UNKNOWN);
      if (has(d, "translte failed!")) return e(C.TRANSLATION_FAILED);
      return e(C.WEBIM_CONNCTION_AJAX_ERROR);
    default:
      return e(C.WEBIM_CONNCTION_AJAX_ERROR, d || "ajax error");
  }
}

/** Statuses that are ordinary REST failures; any other one counts towards a server discovery refresh. */
export const CONVENTIONAL_STATUSES: readonly number[] = [400, 401, 403, 404, 429, 500, 503];

/** A failed send/recall/edit/room ack (`Status.errorCode` and `reason`) as an SDK error (spec 03 §8). */
export function sendError(errorCode: number, reason: string, data?: unknown): ChatSdkError {
  const e = (type: number, message: string = reason): ChatSdkError => err(type, message, data);
  if (errorCode === 1) {
    const exact: Record<string, [number, string?]> = {
      blocked: [C.PERMISSION_DENIED],
      "group not found": [C.GROUP_NOT_EXIST],
      "not in group or chatroom": [C.GROUP_NOT_JOINED],
      "exceed recall time limit": [C.MESSAGE_RECALL_TIME_LIMIT],
      "message recall disabled": [C.SERVICE_NOT_ENABLED],
      "not in group or chatroom white list": [C.SERVICE_NOT_ALLOW_MESSAGING],
      nonroster: [C.USER_NOT_FRIEND, "not contact"],
      "group is disabled": [C.GROUP_IS_DISABLED],
      "limit directed users": [C.MAX_LIMIT],
      "Sorry, edit limit reached": [C.MAX_LIMIT, "Modify message limit reached"],
      "Sorry, message does not exist": [C.MODIFY_MESSAGE_NOT_EXIST, "The message does not exist."],
      "Sorry, You do not have permission": [C.PERMISSION_DENIED, "You do not have the modified permission."],
      "Sorry, format is incorrect": [C.MODIFY_MESSAGE_FORMAT_ERROR, "The modify messaged format error."],
      "Sorry, edit is not available": [C.SERVICE_NOT_ENABLED, "The message modify function is not activated."],
      "Sorry, edit fail": [C.MODIFY_MESSAGE_FAILED, "Modify message failed."],
      "group member list is full!": [C.CHATROOM_MEMBERS_FULL],
      "can not operate this group, reason: group is disabled": [C.GROUP_IS_DISABLED],
    };
    const hit = exact[reason];
    if (hit) return e(hit[0], hit[1] ?? reason);
    if (has(reason, "grpID") && has(reason, "does not exist!")) {
      return e(C.CHATROOM_NOT_EXIST, "The chat room dose not exist.");
    }
    if (has(reason, "username") && has(reason, "doesn't exist!")) return e(C.USER_NOT_FOUND);
    if (has(reason, "can not join this group") && has(reason, "is in the blacklist")) return e(C.PERMISSION_DENIED);
    if (has(reason, "moderation")) return e(C.MESSAGE_MODERATION_BLOCKED);
    if (has(reason, "group ID illegal, please check it")) return e(C.REQUEST_PARAMETER_ERROR, "Invalid parameter");
    if (has(reason, "has create too many chatrooms") || has(reason, "has joined too many chatrooms")) {
      return e(C.MAX_LIMIT);
    }
    if (has(reason, "auto create failed")) return e(C.SERVER_BUSY);
    return e(C.SERVER_UNKNOWN_ERROR);
  }
  if (errorCode === 7) {
    if (reason === "sensitive words" || reason === "blocked by mod_antispam") {
      return e(C.MESSAGE_INCLUDE_ILLEGAL_CONTENT);
    }
    if (reason === "user is mute") return e(C.USER_MUTED_BY_ADMIN);
    if (reason === "traffic limit") return e(C.MESSAGE_CURRENT_LIMITING);
    if (reason === "Sorry, data is too large") return e(C.MESSAGE_SIZE_LIMIT);
    return e(C.WEBIM_LOAD_MSG_ERROR);
  }
  if (errorCode === 15) return e(C.SERVICE_NOT_ALLOW_MESSAGING_MUTE, "you were muted");
  if (errorCode === 19) return e(C.MESSAGE_EXTERNAL_LOGIC_BLOCKED);
  return e(C.WEBIM_LOAD_MSG_ERROR);
}

/** A failed provision (socket login) reply as an SDK error (spec 03 §8, login failures). */
export function provisionError(errorCode: number, reason: string): ChatSdkError {
  const limits: Record<string, string> = {
    "Sorry, the app day live count limit": "Sorry, the daily active user limit for this app has been reached",
    "Sorry, the app online count limit":
      "Sorry, the maximum number limit of online users for this app has been reached",
    "Sorry, the app month live count limit": "Sorry, the monthly active user limit for this app has been reached",
    "Sorry, user register limit": "Sorry, the number of user registrations limit has been reached",
    "Sorry, user register rate limit": "Sorry, user register rate limit",
  };
  const limit = limits[reason];
  switch (errorCode) {
    case 1:
      if (limit) return err(C.MAX_LIMIT, limit);
      if (reason === "Sorry, token expired") return err(C.WEBIM_TOKEN_EXPIRED, reason);
      if (reason === "Sorry, token or password does not match login info") {
        return err(C.WEBIM_CONNCTION_TOKEN_NOT_ASSIGN_ERROR, "INVALID_TOKEN");
      }
      if (reason === "Sorry, user not found") return err(C.USER_NOT_FOUND, "User not found");
      return err(C.WEBIM_CONNCTION_AUTH_ERROR, "Auth failed");
    case 2:
      return err(C.WEBIM_CONNCTION_AUTH_ERROR, "Auth failed");
    case 4:
      return err(C.REQUEST_PARAMETER_ERROR, "Invalid parameter");
    case 7:
      if (limit) return err(C.MAX_LIMIT, limit);
      return err(C.WEBIM_CONNCTION_AUTH_ERROR, "Auth failed");
    case 12:
      return err(C.WEBIM_SERVER_SERVING_DISABLED, "Server serving disabled.");
    case 13:
      return err(C.USER_LOGIN_TOO_MANY_DEVICES, "the number of devices the user is logged in to exceeds the limit");
    case 20:
      return err(C.USER_DEVICE_CHANGED, "user device is changed");
    default:
      return err(C.WEBIM_CONNCTION_AUTH_ERROR, reason || "unknown server error");
  }
}

/** Login failures after which the connection does not retry. */
export const FATAL_LOGIN_TYPES: readonly number[] = [
  C.MAX_LIMIT,
  C.WEBIM_TOKEN_EXPIRED,
  C.WEBIM_CONNCTION_TOKEN_NOT_ASSIGN_ERROR,
  C.USER_NOT_FOUND,
  C.WEBIM_CONNCTION_AUTH_ERROR,
  C.REQUEST_PARAMETER_ERROR,
  C.WEBIM_SERVER_SERVING_DISABLED,
  C.USER_LOGIN_TOO_MANY_DEVICES,
  C.USER_DEVICE_CHANGED,
];

/** A failed file download (spec 03 §8, file parsing and download). */
export function downloadError(status: number, body: RestErrorBody): ChatSdkError {
  if (status === 403) {
    return body.error_description === "chatfile no permission"
      ? err(C.WEBIM_DOWNLOADFILE_ERROR_NO_PERMISSION, body.error_description, body)
      : err(C.PERMISSION_DENIED, "permission denied", body);
  }
  if (status === 404) {
    return body.error === "file_expired"
      ? err(C.WEBIM_DOWNLOADFILE_ERROR_EXPIRED, body.error_description ?? "file expired", body)
      : err(C.WEBIM_DOWNLOADFILE_ERROR, "Download failed, please try again", body);
  }
  if (status === 500) {
    return err(C.SERVER_UNKNOWN_ERROR, body.error_description ?? "Download failed, please try again", body);
  }
  return err(C.WEBIM_DOWNLOADFILE_ERROR, "Download failed, please try again", body);
}

/** A chat-room attribute the server refused, by its error text (spec 03 §8, metadata). */
export function metadataError(text: string, data?: unknown): ChatSdkError {
  if (has(text, "is not part of you")) return err(C.NO_PERMISSION, text, data);
  if (has(text, "size") || has(text, "limit")) return err(C.MAX_LIMIT, text, data);
  if (has(text, "is not Legal")) return err(C.REQUEST_PARAMETER_ERROR, text, data);
  if (has(text, "Concurrent updates not allowed")) return err(C.OPERATION_NOT_ALLOWED, text, data);
  return err(C.WEBIM_CONNCTION_AJAX_ERROR, text, data);
}

/** Client-side request failures. */
export const clientErrors = {
  timeout: () => err(C.REQUEST_TIMEOUT, "Request Timeout"),
  network: () => err(C.REQUEST_UNKNOWN, "Request Unknow Error"),
  abort: () => err(C.REQUEST_ABORT, "Request Abort"),
  dataType: () => err(C.REQUEST_PARAMETER_ERROR, "Invalid dataType"),
  notInitialized: () => err(C.REQUEST_UNKNOWN, "Request not initialized"),
};
