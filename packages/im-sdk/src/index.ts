/**
 * @tessera/im-sdk: the IM client for browsers and Node 20+. Method and event names follow the published
 * `easemob-websdk` connection, so an app can switch between the two.
 *
 * ```ts
 * import { connection, message } from "@tessera/im-sdk";
 * const conn = new connection({ appKey: "org#app", apiUrl: "https://im.example.com", url: "wss://im.example.com/websocket" });
 * conn.addEventHandler("app", { onTextMessage: (m) => console.log(m.from, m.msg) });
 * await conn.open({ user: "alice", pwd: "secret" });
 * await conn.send(message.create({ type: "txt", chatType: "singleChat", to: "bob", msg: "hello" }));
 * ```
 */
import { aliasesApi } from "./api/aliases.js";
import { conversationsApi } from "./api/conversations.js";
import { filesApi, uploadCombineFile, uploadMessageFile } from "./api/files.js";
import { groupsApi } from "./api/groups.js";
import { roomsApi } from "./api/rooms.js";
import { threadsApi } from "./api/threads.js";
import { usersApi } from "./api/users.js";
import { Connection } from "./connection.js";
import { create } from "./message.js";

type Api = typeof usersApi &
  typeof groupsApi &
  typeof roomsApi &
  typeof conversationsApi &
  typeof threadsApi &
  typeof filesApi &
  typeof aliasesApi;
/** The methods of the API modules, without their `this` parameter. */
type Methods<T> = {
  [K in keyof T]: T[K] extends (this: Connection, ...args: infer A) => infer R ? (...args: A) => R : never;
};

declare module "./connection.js" {
  // The REST capabilities are mixed into the connection below.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Connection extends Methods<Api> {}
}

Object.assign(Connection.prototype, usersApi, groupsApi, roomsApi, conversationsApi, threadsApi, filesApi, aliasesApi, {
  uploadMessageFile,
  uploadCombineFile,
});

/** The connection class (`new connection(options)`), named as in the published client. */
export const connection = Connection;
export { Connection };
/** Message helpers: `message.create(options)`. */
export const message = { create };

export { STATUS, type ConnectionOptions, type WebSocketClass, type WebSocketLike } from "./connection.js";
export { statusCode, type StatusName } from "./status.js";
export {
  ChatSdkError,
  restError,
  sendError,
  provisionError,
  downloadError,
  metadataError,
  clientErrors,
} from "./errors.js";
export { Logger, logger, LOG_LEVELS, LOG_CACHE_MAX, type LogLevel } from "./logger.js";
export {
  LocalCache,
  memoryBackend,
  indexedDbBackend,
  CACHE_SCHEMA_VERSION,
  DEFAULT_MAX_CACHE_LENGTH,
  type CacheBackend,
  type CachedConversation,
} from "./cache.js";
export { uniqueId, ID_BASE_MS } from "./ids.js";
export {
  Reporter,
  REPORT_EVENT,
  REPORT_MAX_PER_MINUTE,
  REPORT_BATCH_SIZE,
  REPORT_DELAY_MS,
  REPORT_PENDING_MAX,
  type ReportEvent,
  type ReportOutcome,
  type ReportFetch,
  type ReporterOptions,
} from "./reporter.js";
export {
  encodeCombineFile,
  decodeCombineFile,
  combineLevel,
  THUMBNAIL_THRESHOLD,
  COMBINE_MAX_MESSAGES,
  COMBINE_MAX_LEVEL,
} from "./api/files.js";
export { USER_INFO_KEYS, type SilentOptions } from "./api/users.js";
export type { Conversation } from "./api/conversations.js";
export type { RestReply } from "./api/check.js";
export type { CreateGroupData } from "./api/groups.js";
export type {
  ChatMessage,
  ChatType,
  MessageFields,
  MessageStatus,
  MessageType,
  FileObject,
  ModifiedInfo,
  Priority,
} from "./message.js";
export type {
  ConnectionEvents,
  EventHandlers,
  EventName,
  AckEvent,
  MucEvent,
  ContactEvent,
  PresenceEvent,
} from "./events.js";
export type { Progress } from "./http.js";
