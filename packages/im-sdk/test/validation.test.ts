import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { connection, message, statusCode as C, type ChatMessage, type Connection } from "../src/index";

/**
 * Every validation rule of spec 02 §5 and spec 03 §5: the call rejects with the specified type and
 * message, and no request leaves the client (fetch is a spy that fails the test if called).
 */
let fetchSpy: ReturnType<typeof vi.fn<(url: string) => Promise<Response>>>;
beforeEach(() => {
  fetchSpy = vi.fn((_url: string) => Promise.reject(new Error("no network call was expected")));
  vi.stubGlobal("fetch", fetchSpy);
});
afterEach(() => {
  vi.unstubAllGlobals();
  expect(fetchSpy).not.toHaveBeenCalled();
});

function loggedIn(): Connection {
  const conn = new connection({
    appKey: "org#app",
    apiUrl: "http://127.0.0.1:9",
    url: "ws://127.0.0.1:9/websocket",
    useLocalCache: false,
  });
  conn.user = "alice";
  conn.token = "tok";
  conn.context.accessToken = "tok";
  conn.context.userId = "alice";
  return conn;
}

type Call = (c: Connection) => Promise<unknown>;
const P = C.REQUEST_PARAMETER_ERROR;

async function rejection(call: Call, conn: Connection = loggedIn()): Promise<{ type: number; message: string }> {
  try {
    await call(conn);
  } catch (e) {
    const err = e as { type: number; message: string };
    return { type: err.type, message: err.message };
  }
  throw new Error("expected a rejection");
}

const row = (name: string, call: Call, type: number, msg: string): [string, Call, number, string] => [
  name,
  call,
  type,
  msg,
];
const bad = <T>(v: unknown): T => v as T;

describe("credentials (spec 02 §5, spec 03 §5: all REST calls)", () => {
  test("no token: 'appkey or token error' (REST_PARAMS_STATUS), and onError reports 'token not assign error'", async () => {
    const conn = loggedIn();
    conn.token = "";
    conn.context.accessToken = "";
    const errors: unknown[] = [];
    conn.addEventHandler("t", { onError: (e) => errors.push({ type: e.type, message: e.message }) });
    expect(await rejection((c) => c.getContacts(), conn)).toEqual({
      type: C.REST_PARAMS_STATUS,
      message: "appkey or token error",
    });
    expect(errors).toEqual([{ type: C.WEBIM_CONNCTION_TOKEN_NOT_ASSIGN_ERROR, message: "token not assign error" }]);
  });

  test("no app or org: 'appkey or token error', and onError reports 'appName or orgName is illegal'", async () => {
    const conn = new connection({ appKey: "no-hash", apiUrl: "http://127.0.0.1:9", useLocalCache: false });
    conn.token = "tok";
    conn.context.accessToken = "tok";
    const errors: unknown[] = [];
    conn.addEventHandler("t", { onError: (e) => errors.push({ type: e.type, message: e.message }) });
    expect(await rejection((c) => c.getGroupInfo({ groupId: "1" }), conn)).toEqual({
      type: C.REST_PARAMS_STATUS,
      message: "appkey or token error",
    });
    expect(errors).toEqual([{ type: C.WEBIM_CONNCTION_AUTH_ERROR, message: "appName or orgName is illegal" }]);
  });

  test("app key must be org#app: open says 'the appKey is illegal', upload and registration 'AppKey illegal'", async () => {
    const conn = new connection({ appKey: "org-app", apiUrl: "http://127.0.0.1:9", useLocalCache: false });
    expect(await rejection((c) => c.open({ user: "alice", pwd: "x" }), conn)).toEqual({
      type: C.WEBIM_CONNCTION_APPKEY_NOT_ASSIGN_ERROR,
      message: "the appKey is illegal",
    });
    expect(await rejection((c) => c.uploadFile({ file: { data: new Blob(["x"]) } }), conn)).toEqual({
      type: C.WEBIM_UPLOADFILE_ERROR,
      message: "AppKey illegal",
    });
    expect(await rejection((c) => c.registerUser({ username: "a", password: "b" }), conn)).toEqual({
      type: C.WEBIM_CONNCTION_APPKEY_NOT_ASSIGN_ERROR,
      message: "AppKey illegal",
    });
  });

  test("a non-empty user is required: 'the user cannot be empty'; a password or token too", async () => {
    const conn = new connection({ appKey: "org#app", apiUrl: "http://127.0.0.1:9", useLocalCache: false });
    expect(await rejection((c) => c.open({ user: "", pwd: "x" }), conn)).toEqual({
      type: C.WEBIM_CONNCTION_USER_NOT_ASSIGN_ERROR,
      message: "the user cannot be empty",
    });
    expect(await rejection((c) => c.registerUser({ username: "", password: "x" }), conn)).toEqual({
      type: C.WEBIM_CONNCTION_USER_NOT_ASSIGN_ERROR,
      message: "the user cannot be empty",
    });
    expect(await rejection((c) => c.open({ user: "alice" }), conn)).toEqual({
      type: C.WEBIM_CONNCTION_OPEN_ERROR,
      message: "the accessToken or pwd is illegal",
    });
  });
});

describe("chat rooms (spec 02 §5)", () => {
  test.each([
    row(
      "list needs numeric pagenum",
      (c) => c.getChatRooms({ pagenum: bad("1"), pagesize: 20 }),
      P,
      'Invalid parameter: "pagenum or pagesize"',
    ),
    row(
      "list needs numeric pagesize",
      (c) => c.getChatRooms({ pagenum: 1, pagesize: bad(undefined) }),
      P,
      'Invalid parameter: "pagenum or pagesize"',
    ),
    row("create needs a string name", (c) => c.createChatRoom({ name: bad(5) }), P, 'Invalid parameter: "name"'),
    row(
      "member list: positive pageNum",
      (c) => c.listChatRoomMembers({ chatRoomId: "1", pageNum: 0, pageSize: 20 }),
      P,
      'The parameter "pageNum" should be a positive number',
    ),
    row(
      "member list: positive pageSize",
      (c) => c.listChatRoomMembers({ chatRoomId: "1", pageNum: 1, pageSize: -1 }),
      P,
      'The parameter "pageSize" should be a positive number',
    ),
    row(
      "mute needs a numeric muteDuration",
      (c) => c.muteChatRoomMember({ chatRoomId: "1", username: "bob", muteDuration: bad("60") }),
      P,
      'Invalid parameter: "muteDuration"',
    ),
    row(
      "batch add needs an array of users",
      (c) => c.addUsersToChatRoom({ chatRoomId: "1", users: bad("bob") }),
      P,
      'Invalid parameter: "users"',
    ),
    row(
      "batch block needs an array of usernames",
      (c) => c.blockChatRoomMembers({ chatRoomId: "1", usernames: bad("bob") }),
      P,
      'Invalid parameter: "usernames"',
    ),
    row(
      "batch remove needs an array of users",
      (c) => c.removeChatRoomMembers({ chatRoomId: "1", users: bad(null) }),
      P,
      'Invalid parameter: "users"',
    ),
    row(
      "announcement must be a string",
      (c) => c.updateChatRoomAnnouncement({ roomId: "1", announcement: bad(7) }),
      P,
      'Invalid parameter: "announcement"',
    ),
    row(
      "upload needs a file object",
      (c) => c.uploadChatRoomSharedFile({ roomId: "1", file: bad(undefined) }),
      C.WEBIM_UPLOADFILE_NO_FILE,
      'Invalid parameter: "file"',
    ),
    row(
      "attribute key is a non-empty string",
      (c) => c.setChatRoomAttribute({ chatRoomId: "1", attributeKey: "", attributeValue: "v" }),
      P,
      'Invalid parameter: "attributeKey"',
    ),
    row(
      "attribute value is a non-empty string",
      (c) => c.setChatRoomAttribute({ chatRoomId: "1", attributeKey: "k", attributeValue: "" }),
      P,
      'Invalid parameter: "attributeValue"',
    ),
    row(
      "attributes: keys and values non-empty strings",
      (c) => c.setChatRoomAttributes({ chatRoomId: "1", attributes: { k: "" } }),
      P,
      'Invalid parameter: "attributes"',
    ),
    row(
      "attributeKeys must be an array (remove)",
      (c) => c.removeChatRoomAttributes({ chatRoomId: "1", attributeKeys: bad("k") }),
      P,
      'Invalid parameter: "attributeKeys"',
    ),
    row(
      "attributeKeys must be an array (read)",
      (c) => c.getChatRoomAttributes({ chatRoomId: "1", attributeKeys: bad("k") }),
      P,
      'Invalid parameter: "attributeKeys"',
    ),
    row(
      "the room id is a non-empty string",
      (c) => c.getChatRoomDetails({ chatRoomId: "" }),
      P,
      'Invalid parameter: "chatRoomId"',
    ),
    row("join while logged out", (c) => c.joinChatRoom({ roomId: "1" }), C.WEBIM_CONNECTION_CLOSED, "not login"),
    row("leave while logged out", (c) => c.leaveChatRoom({ roomId: "1" }), C.WEBIM_CONNECTION_CLOSED, "not login"),
    row("join needs a room id", (c) => c.joinChatRoom({ roomId: "" }), P, "Invalid parameter roomId"),
  ])("%s", async (_name, call, type, msg) => {
    expect(await rejection(call)).toEqual({ type, message: msg });
  });
});

describe("groups (spec 02 §5)", () => {
  test.each([
    row(
      "public list needs a numeric limit",
      (c) => c.getPublicGroups({ limit: bad("10") }),
      P,
      'Invalid parameter: "limit"',
    ),
    row(
      "joined groups: numeric pageNum >= 0",
      (c) => c.getJoinedGroups({ pageNum: -1, pageSize: 20 }),
      P,
      'Invalid parameter: "pageNum or pageSize"',
    ),
    row(
      "joined groups: numeric pageSize",
      (c) => c.getJoinedGroups({ pageNum: 1, pageSize: bad("20") }),
      P,
      'Invalid parameter: "pageNum or pageSize"',
    ),
    row(
      "change owner needs groupId",
      (c) => c.changeGroupOwner({ groupId: "", newOwner: "bob" }),
      P,
      'Invalid parameter: "groupId"',
    ),
    row(
      "change owner needs newOwner",
      (c) => c.changeGroupOwner({ groupId: "1", newOwner: bad(undefined) }),
      P,
      'Invalid parameter: "newOwner"',
    ),
    row(
      "read users need groupId",
      (c) => c.getGroupMsgReadUser({ groupId: bad(1), msgId: "2" }),
      P,
      'Invalid parameter: "groupId"',
    ),
    row(
      "read users need msgId",
      (c) => c.getGroupMsgReadUser({ groupId: "1", msgId: "" }),
      P,
      'Invalid parameter: "msgId"',
    ),
    row(
      "member attributes need a userId string",
      (c) => c.setGroupMemberAttributes({ groupId: "1", userId: bad(3), memberAttributes: {} }),
      P,
      'Invalid parameter: "userId"',
    ),
    row(
      "member attributes need an attributes object",
      (c) => c.setGroupMemberAttributes({ groupId: "1", userId: "bob", memberAttributes: bad("x") }),
      P,
      'Invalid parameter: "memberAttributes"',
    ),
    row(
      "member attributes need a non-empty userIds array",
      (c) => c.getGroupMembersAttributes({ groupId: "1", userIds: [] }),
      P,
      'Invalid parameter: "userIds"',
    ),
    row(
      "member attributes need a keys array",
      (c) => c.getGroupMembersAttributes({ groupId: "1", userIds: ["bob"], keys: bad("nick") }),
      P,
      'Invalid parameter: "keys"',
    ),
    row("create needs a groupname", (c) => c.createGroup({ data: bad({}) }), P, 'Invalid parameter: "groupname"'),
  ])("%s", async (_name, call, type, msg) => {
    expect(await rejection(call)).toEqual({ type, message: msg });
  });
});

describe("contacts and users (spec 02 §5)", () => {
  test.each([
    row("the contact target is a non-empty string", (c) => c.addContact(""), P, 'Invalid parameter: "to"'),
    row("delete target", (c) => c.deleteContact(bad(undefined)), P, 'Invalid parameter: "to"'),
    row("accept target", (c) => c.acceptContactInvite(""), P, 'Invalid parameter: "from"'),
    row(
      "block-list name: a non-empty string",
      (c) => c.addUsersToBlocklist({ name: "" }),
      P,
      'Invalid parameter: "name"',
    ),
    row(
      "block-list name: or a non-empty array",
      (c) => c.removeUserFromBlocklist({ name: [] }),
      P,
      'Invalid parameter: "name"',
    ),
    row(
      "a remark must be a string",
      (c) => c.setContactRemark({ userId: "bob", remark: bad(5) }),
      P,
      'Invalid parameter: "remark"',
    ),
    row(
      "push token: deviceId",
      (c) => c.uploadPushToken({ deviceId: "", deviceToken: "t", notifierName: "n" }),
      P,
      'Invalid parameter: "deviceId"',
    ),
    row(
      "push token: deviceToken",
      (c) => c.uploadPushToken({ deviceId: "d", deviceToken: "", notifierName: "n" }),
      P,
      'Invalid parameter: "deviceToken"',
    ),
    row(
      "push token: notifierName",
      (c) => c.uploadPushToken({ deviceId: "d", deviceToken: "t", notifierName: "" }),
      P,
      'Invalid parameter: "notifierName"',
    ),
    row(
      "user info keys are limited (one key)",
      (c) => c.updateOwnUserInfo("salary", "1"),
      P,
      "illegal key, only these keys: nickname, avatarurl, mail, phone, gender, sign, birth, ext are allowed",
    ),
    row(
      "user info keys are limited (object)",
      (c) => c.updateOwnUserInfo({ nickname: "A", age: "3" }),
      P,
      "illegal key, only these keys: nickname, avatarurl, mail, phone, gender, sign, birth, ext are allowed",
    ),
    row("user info targets: a string or an array", (c) => c.fetchUserInfoById(bad(5)), P, 'Invalid parameter: "users"'),
  ])("%s", async (_name, call, type, msg) => {
    expect(await rejection(call)).toEqual({ type, message: msg });
  });
});

describe("history and conversations (spec 02 §5)", () => {
  const twentyOne = Array.from({ length: 21 }, (_, i) => String(i + 1));
  test.each([
    row(
      "targetId is a non-empty string",
      (c) => c.getHistoryMessages({ targetId: "" }),
      P,
      "Invalid parameter targetId",
    ),
    row(
      "searchOptions.from is a string",
      (c) => c.getHistoryMessages({ targetId: "bob", searchOptions: { from: bad(1) } }),
      P,
      '"Invalid parameter": "searchOptions.from"',
    ),
    row(
      "searchOptions.msgTypes is an array",
      (c) => c.getHistoryMessages({ targetId: "bob", searchOptions: { msgTypes: bad("txt") } }),
      P,
      '"Invalid parameter": "searchOptions.msgTypes"',
    ),
    row(
      "searchOptions.startTime is a number",
      (c) => c.getHistoryMessages({ targetId: "bob", searchOptions: { startTime: bad("1") } }),
      P,
      '"Invalid parameter": "searchOptions.startTime"',
    ),
    row(
      "searchOptions.endTime is a number",
      (c) => c.getHistoryMessages({ targetId: "bob", searchOptions: { endTime: bad("1") } }),
      P,
      '"Invalid parameter": "searchOptions.endTime"',
    ),
    row(
      "remove: chatType singleChat or groupChat",
      (c) => c.removeHistoryMessages({ targetId: "bob", chatType: "chatRoom", messageIds: ["1"] }),
      P,
      'Invalid parameter: "chatType"',
    ),
    row(
      "remove: one of messageIds or beforeTimeStamp",
      (c) => c.removeHistoryMessages({ targetId: "bob", chatType: "singleChat" }),
      P,
      "messageIds or beforeTimeStamp field is required.",
    ),
    row(
      "remove: at least one id",
      (c) => c.removeHistoryMessages({ targetId: "bob", chatType: "singleChat", messageIds: [] }),
      P,
      "Invalid parameter messageIds",
    ),
    row(
      "remove: at most 20 ids",
      (c) => c.removeHistoryMessages({ targetId: "bob", chatType: "singleChat", messageIds: twentyOne }),
      P,
      "Invalid parameter messageIds",
    ),
    row(
      "remove: the time is not negative",
      (c) => c.removeHistoryMessages({ targetId: "bob", chatType: "singleChat", beforeTimeStamp: -1 }),
      P,
      'Invalid parameter: "beforeTimeStamp"',
    ),
    row(
      "remove: the time has up to 18 digits",
      (c) => c.removeHistoryMessages({ targetId: "bob", chatType: "singleChat", beforeTimeStamp: 1e18 }),
      P,
      'Invalid parameter: "beforeTimeStamp"',
    ),
    row(
      "conversation delete: channel is a string",
      (c) => c.deleteConversation({ channel: bad(1), chatType: "singleChat", deleteRoam: false }),
      P,
      'Invalid parameter: "channel"',
    ),
    row(
      "conversation delete: chatType",
      (c) => c.deleteConversation({ channel: "bob", chatType: "chatRoom", deleteRoam: false }),
      P,
      'Invalid parameter: "chatType"',
    ),
    row(
      "conversation delete: deleteRoam is a boolean",
      (c) => c.deleteConversation({ channel: "bob", chatType: "singleChat", deleteRoam: bad("yes") }),
      P,
      'Invalid parameter: "deleteRoam"',
    ),
    row(
      "pin: conversationId is a string",
      (c) => c.pinConversation({ conversationId: bad(1), conversationType: "singleChat", isPinned: true }),
      P,
      "Invalid parameter conversationId",
    ),
    row(
      "pin: type single or group",
      (c) => c.pinConversation({ conversationId: "bob", conversationType: "chatRoom", isPinned: true }),
      P,
      "Invalid parameter conversationType: ",
    ),
    row(
      "pin: isPinned is a boolean",
      (c) => c.pinConversation({ conversationId: "bob", conversationType: "singleChat", isPinned: bad(1) }),
      P,
      "Invalid parameter isPinned",
    ),
  ])("%s", async (_name, call, type, msg) => {
    expect(await rejection(call)).toEqual({ type, message: msg });
  });

  test("an 18-digit time is accepted (the check passes and the call goes out)", async () => {
    const ok = (): Promise<Response> =>
      Promise.resolve(new Response("{}", { status: 200, headers: { "content-type": "application/json" } }));
    fetchSpy.mockImplementationOnce(ok);
    await loggedIn().removeHistoryMessages({
      targetId: "bob",
      chatType: "singleChat",
      beforeTimeStamp: 999_999_999_999_999,
    });
    expect(fetchSpy).toHaveBeenCalledTimes(1);
    fetchSpy.mockClear();
  });
});

describe("reactions, reports, edit, presence (spec 02 §5)", () => {
  const img = message.create({ type: "img", chatType: "singleChat", to: "bob", url: "http://x/y" });
  test.each([
    row(
      "reaction: messageId non-empty",
      (c) => c.addReaction({ messageId: "", reaction: "👍" }),
      P,
      "Invalid parameter messageId: ",
    ),
    row(
      "reaction: reaction non-empty",
      (c) => c.deleteReaction({ messageId: "1", reaction: "" }),
      P,
      "Invalid parameter reaction: ",
    ),
    row(
      "report: reportType",
      (c) => c.reportMessage({ reportType: "", reportReason: "r", messageId: "1" }),
      P,
      "Invalid parameter reportType: ",
    ),
    row(
      "report: messageId",
      (c) => c.reportMessage({ reportType: "spam", reportReason: "r", messageId: "" }),
      P,
      "Invalid parameter messageId: ",
    ),
    row(
      "report: reportReason",
      (c) => c.reportMessage({ reportType: "spam", reportReason: "", messageId: "1" }),
      P,
      'Invalid parameter: "reportReason"',
    ),
    row(
      "modify: messageId not empty",
      (c) => c.modifyMessage({ messageId: "", modifiedMessage: img }),
      P,
      "Invalid parameter messageId",
    ),
    row(
      "modify: the type must be txt",
      (c) => c.modifyMessage({ messageId: "1", modifiedMessage: img }),
      P,
      'Invalid parameter: "modifiedMessage" type must be txt',
    ),
    row(
      "presence: usernames non-empty (subscribe)",
      (c) => c.subscribePresence({ usernames: [], expiry: 60 }),
      P,
      'Invalid parameter: "usernames"',
    ),
    row(
      "presence: numeric expiry",
      (c) => c.subscribePresence({ usernames: ["bob"], expiry: bad("60") }),
      P,
      'Invalid parameter: "expiry"',
    ),
    row(
      "presence: publish needs a description string",
      (c) => c.publishPresence({ description: bad(1) }),
      P,
      'Invalid parameter: "description"',
    ),
    row(
      "presence: sublist pageNum >= 0",
      (c) => c.getSubscribedPresenceList({ pageNum: -1, pageSize: 10 }),
      P,
      '"pageNum" should >= 0 and "pageSize" should >= 0',
    ),
    row(
      "presence: usernames non-empty (status)",
      (c) => c.getPresenceStatus({ usernames: bad("bob") }),
      P,
      'Invalid parameter: "usernames"',
    ),
    row(
      "presence: usernames non-empty (unsubscribe)",
      (c) => c.unsubscribePresence({ usernames: [] }),
      P,
      'Invalid parameter: "usernames"',
    ),
  ])("%s", async (_name, call, type, msg) => {
    expect(await rejection(call)).toEqual({ type, message: msg });
  });
});

describe("silent mode, threads, translation, send, combine, upload (spec 03 §5)", () => {
  const t = (hours: number, minutes: number) => ({ hours, minutes });
  test.each([
    row("options is required", (c) => c.setSilentModeForAll(bad({})), P, 'Invalid parameter: "options"'),
    row(
      "paramType is 0 to 2",
      (c) => c.setSilentModeForAll({ options: bad({ paramType: 3 }) }),
      P,
      'Invalid parameter: "options of paramType"',
    ),
    row(
      "type 0 needs a string remindType",
      (c) => c.setSilentModeForAll({ options: { paramType: 0, remindType: bad(1) } }),
      P,
      'Invalid parameter: "options of remindType"',
    ),
    row(
      "type 1 needs a numeric duration",
      (c) => c.setSilentModeForAll({ options: { paramType: 1, duration: bad("1") } }),
      P,
      'Invalid parameter: "options of duration"',
    ),
    row(
      "type 2 needs startTime",
      (c) => c.setSilentModeForAll({ options: { paramType: 2, endTime: t(7, 15) } }),
      P,
      'Invalid parameter: "options of startTime"',
    ),
    row(
      "type 2: zero hours rejected",
      (c) => c.setSilentModeForAll({ options: { paramType: 2, startTime: t(0, 30), endTime: t(7, 15) } }),
      P,
      'Invalid parameter: "options of startTime of hours or minutes"',
    ),
    row(
      "type 2 needs endTime",
      (c) => c.setSilentModeForAll({ options: { paramType: 2, startTime: t(22, 30) } }),
      P,
      'Invalid parameter: "options of endTime"',
    ),
    row(
      "type 2: zero minutes rejected",
      (c) => c.setSilentModeForAll({ options: { paramType: 2, startTime: t(22, 30), endTime: t(7, 0) } }),
      P,
      'Invalid parameter: "options of endTime of hours or minutes"',
    ),
    row(
      "per conversation: conversationId",
      (c) =>
        c.setSilentModeForConversation({
          conversationId: "",
          type: "singleChat",
          options: { paramType: 0, remindType: "AT" },
        }),
      P,
      'Invalid parameter: "conversationId"',
    ),
    row(
      "per conversation: type",
      (c) => c.getSilentModeForConversation({ conversationId: "bob", type: "" }),
      P,
      'Invalid parameter: "type"',
    ),
    row(
      "batch query needs a conversationList array",
      (c) => c.getSilentModeForConversations({ conversationList: bad("bob") }),
      P,
      'Invalid parameter: "conversationList"',
    ),
    row(
      "set language needs a non-empty language",
      (c) => c.setPushPerformLanguage({ language: "" }),
      P,
      'Invalid parameter: "language"',
    ),
    row(
      "thread create: name",
      (c) => c.createChatThread({ name: "", messageId: "1", parentId: "2" }),
      P,
      "Invalid parameter name: ",
    ),
    row(
      "thread create: messageId",
      (c) => c.createChatThread({ name: "n", messageId: "", parentId: "2" }),
      P,
      "Invalid parameter messageId: ",
    ),
    row(
      "thread create: parentId",
      (c) => c.createChatThread({ name: "n", messageId: "1", parentId: "" }),
      P,
      "Invalid parameter parentId: ",
    ),
    row(
      "thread calls need chatThreadId",
      (c) => c.joinChatThread({ chatThreadId: "" }),
      P,
      "Invalid parameter chatThreadId: ",
    ),
    row(
      "thread rename needs name",
      (c) => c.changeChatThreadName({ chatThreadId: "1", name: "" }),
      P,
      "Invalid parameter name: ",
    ),
    row(
      "thread remove member needs username",
      (c) => c.removeChatThreadMember({ chatThreadId: "1", username: "" }),
      P,
      "Invalid parameter username: ",
    ),
    row("threads by group need parentId", (c) => c.getChatThreads({ parentId: "" }), P, "Invalid parameter parentId: "),
    row(
      "thread last message needs a chatThreadIds array",
      (c) => c.getChatThreadLastMessage({ chatThreadIds: bad("1") }),
      P,
      'Invalid parameter: "chatThreadIds"',
    ),
    row(
      "translate: non-empty text",
      (c) => c.translateMessage({ text: "", languages: ["en"] }),
      P,
      'Invalid parameter: "text"',
    ),
    row(
      "translate: languages array",
      (c) => c.translateMessage({ text: "hi", languages: bad("en") }),
      P,
      'Invalid parameter: "languages"',
    ),
    row(
      "send: logged out",
      (c) => c.send(message.create({ type: "txt", to: "bob", msg: "x" })),
      C.WEBIM_CONNECTION_CLOSED,
      "not login",
    ),
    row(
      "send: id non-empty",
      (c) => c.send({ ...message.create({ type: "txt", to: "bob", msg: "x" }), id: "" }),
      P,
      'Invalid parameter: "id"',
    ),
    row(
      "send: to non-empty",
      (c) => c.send(message.create({ type: "txt", to: "", msg: "x" })),
      P,
      'Invalid parameter: "to"',
    ),
    row(
      "upload: an access token",
      (c) => {
        c.token = "";
        return c.uploadFile({ file: { data: new Blob(["x"]) } });
      },
      C.WEBIM_UPLOADFILE_NO_LOGIN,
      "AccessToken cannot be empty",
    ),
    row(
      "upload: file size greater than 0",
      (c) => c.uploadFile({ file: { data: new Blob([]) } }),
      C.WEBIM_UPLOADFILE_ERROR,
      "fileSize must be greater than 0",
    ),
  ])("%s", async (_name, call, type, msg) => {
    expect(await rejection(call)).toEqual({ type, message: msg });
  });

  test("combined messages: 1 to 300 items, nesting level at most 10", async () => {
    const conn = loggedIn();
    conn.logOut = false;
    const txt = (i: number): ChatMessage => message.create({ type: "txt", to: "bob", msg: `m${i}` });
    const combine = (list: ChatMessage[]) =>
      message.create({ type: "combine", to: "bob", title: "t", summary: "s", compatibleText: "c", messageList: list });
    expect(await rejection((c) => c.send(combine([])), conn)).toEqual({
      type: C.MAX_LIMIT,
      message: "The number of combined messages exceeded the limit.",
    });
    expect(await rejection((c) => c.send(combine(Array.from({ length: 301 }, (_, i) => txt(i)))), conn)).toEqual({
      type: C.MAX_LIMIT,
      message: "The number of combined messages exceeded the limit.",
    });
    let nested = combine([txt(0)]);
    for (let level = 2; level <= 11; level++) nested = combine([nested]);
    expect(await rejection((c) => c.send(nested), conn)).toEqual({
      type: C.MAX_LIMIT,
      message: "The level of the merged message exceeded the limit.",
    });
  });
});
