import { afterEach, describe, expect, test, vi } from "vitest";
import {
  connection,
  downloadError,
  metadataError,
  provisionError,
  restError,
  sendError,
  statusCode as C,
} from "../src/index";
import { download, request } from "../src/http";

/** The error mapping of spec 03 §8: every row, asserting the exact type and message. */

const G = "http://h/o/a/chatgroups/1";
const R = "http://h/o/a/chatrooms/1";
const U = "http://h/o/a/users/alice";
type Body = Parameters<typeof restError>[1];
const pick = (e: { type: number; message: string }) => ({ type: e.type, message: e.message });

describe("REST status mapping", () => {
  const rows: [string, number, Body, string, number, string][] = [
    [
      "400 40002 thread already exists",
      400,
      { error_code: 40002, error_description: "thread exists" },
      U,
      C.THREAD_ALREADY_EXIST,
      "thread exists",
    ],
    [
      "400 40009 operation unsupported",
      400,
      { error_code: 40009, error_description: "unsupported" },
      U,
      C.OPERATION_UNSUPPORTED,
      "unsupported",
    ],
    [
      "400 60005 member attributes set failed (desc)",
      400,
      { error_code: 60005, desc: "attrs failed", error_description: "x" },
      G,
      C.GROUP_MEMBER_ATTRIBUTES_SET_FAILED,
      "attrs failed",
    ],
    [
      "400 60010 value limit → max limit",
      400,
      { error_code: 60010, error_description: "exceeds chatgroup user metadata single value limit" },
      G,
      C.MAX_LIMIT,
      "exceeds chatgroup user metadata single value limit",
    ],
    [
      "400 60010 otherwise → no permission",
      400,
      { error_code: 60010, error_description: "not yours" },
      G,
      C.NO_PERMISSION,
      "not yours",
    ],
    [
      "400 60011 chatroom not joined",
      400,
      { error_code: 60011, desc: "not in room", error_description: "x" },
      R,
      C.CHATROOM_NOT_JOINED,
      "not in room",
    ],
    ["400 60006 max limit", 400, { error_code: 60006, error_description: "too many" }, R, C.MAX_LIMIT, "too many"],
    ["400 60007 max limit", 400, { error_code: 60007, error_description: "too many" }, R, C.MAX_LIMIT, "too many"],
    ["400 60009 max limit", 400, { error_code: 60009, error_description: "too many" }, R, C.MAX_LIMIT, "too many"],
    ["400 60012 max limit", 400, { error_code: 60012, error_description: "too many" }, R, C.MAX_LIMIT, "too many"],
    [
      "400 not members (group URL)",
      400,
      { error_description: "user: x are not members of this group!" },
      G,
      C.GROUP_NOT_JOINED,
      "user: x are not members of this group!",
    ],
    [
      "400 not members (room URL)",
      400,
      { error_description: "user: x are not members of this group!" },
      R,
      C.CHATROOM_NOT_JOINED,
      "user: x are not members of this group!",
    ],
    [
      "400 presence not open",
      400,
      { result: "the app not open presence" },
      U,
      C.SERVICE_NOT_ENABLED,
      "the app not open presence",
    ],
    [
      "400 remark too long",
      400,
      { error_description: "remark length must less than 100" },
      U,
      C.MAX_LIMIT,
      "remark length must less than 100",
    ],
    [
      "400 reaction already added",
      400,
      { error_description: "the user is already operation this message" },
      U,
      C.REACTION_ALREADY_ADDED,
      "the user is already operation this message",
    ],
    [
      "400 quantity exceeded",
      400,
      { error_description: "The quantity has exceeded the limit!" },
      U,
      C.MAX_LIMIT,
      "The quantity has exceeded the limit!",
    ],
    [
      "400 user not in group",
      400,
      { error_description: "The user not in this group!" },
      U,
      C.GROUP_NOT_JOINED,
      "The user not in this group!",
    ],
    [
      "400 illegal reaction operation",
      400,
      { error_description: "the user operation is illegal!" },
      U,
      C.REACTION_OPERATION_IS_ILLEGAL,
      "the user operation is illegal!",
    ],
    [
      "400 reaction service not enabled",
      400,
      { error_description: "this appKey is not open reaction service!" },
      U,
      C.SERVICE_NOT_ENABLED,
      "this appKey is not open reaction service!",
    ],
    [
      "400 roaming not enabled",
      400,
      { error_description: "this appKey not open message roaming" },
      U,
      C.SERVICE_NOT_ENABLED,
      "this appKey not open message roaming",
    ],
    [
      "400 reaction being created",
      400,
      { error_description: "this message is creating reaction, please try again." },
      U,
      C.REACTION_CREATING,
      "this message is creating reaction, please try again.",
    ],
    [
      "400 group not exist",
      400,
      { error_description: "groupId can not be null!" },
      U,
      C.GROUP_NOT_EXIST,
      "groupId can not be null!",
    ],
    [
      "400 translation text too long",
      400,
      { error_description: "The input text is too long." },
      U,
      C.TRANSLATION_TEXT_TOO_LONG,
      "The input text is too long.",
    ],
    [
      "400 invalid target language",
      400,
      { error_description: "The target language is not valid." },
      U,
      C.TRANSLATION_NOT_VALID,
      "The target language is not valid.",
    ],
    [
      "400 report: message not found",
      400,
      { error_description: "report failed, get message by id failed" },
      U,
      C.MESSAGE_NOT_FOUND,
      "report failed, get message by id failed",
    ],
    [
      "400 presence ext too big",
      400,
      { error_description: "ext is too big " },
      U,
      C.PRESENCE_PARAM_EXCEED,
      "ext is too big ",
    ],
    [
      "400 request parameter error",
      400,
      { error_description: "param mark illegal, please check it!" },
      U,
      C.REQUEST_PARAMETER_ERROR,
      "param mark illegal, please check it!",
    ],
    [
      "400 not friends (remark)",
      400,
      { error_description: "updateRemark | they are not friends, please add as a friend first." },
      U,
      C.USER_NOT_FRIEND,
      "updateRemark | they are not friends, please add as a friend first.",
    ],
    ["400 anything else: ajax error", 400, { error_description: "bad" }, U, C.WEBIM_CONNCTION_AJAX_ERROR, "bad"],
    ["401 40001 no permission", 401, { error_code: 40001, error_description: "x" }, U, C.NO_PERMISSION, "x"],
    ["401 60001 no permission", 401, { error_code: 60001, error_description: "x" }, U, C.NO_PERMISSION, "x"],
    [
      "401 OAuth no permission",
      401,
      { error_description: "Unable to authenticate (OAuth)" },
      U,
      C.NO_PERMISSION,
      "Unable to authenticate (OAuth)",
    ],
    [
      "401 anything else: ajax error",
      401,
      { error_description: "who" },
      U,
      C.WEBIM_CONNCTION_AJAX_ERROR,
      '{"raw":true}',
    ],
    [
      "403 40000 service not enabled",
      403,
      { error_code: 40000, error_description: "x" },
      U,
      C.SERVICE_NOT_ENABLED,
      "x",
    ],
    [
      "403 60004 service not enabled",
      403,
      { error_code: 60004, error_description: "x" },
      U,
      C.SERVICE_NOT_ENABLED,
      "x",
    ],
    [
      "403 15002 service not enabled",
      403,
      { error_code: 15002, error_description: "x" },
      U,
      C.SERVICE_NOT_ENABLED,
      "x",
    ],
    [
      "403 40003 thread already exists",
      403,
      { error_code: 40003, error_description: "x" },
      U,
      C.THREAD_ALREADY_EXIST,
      "x",
    ],
    [
      "403 40004 thread already exists",
      403,
      { error_code: 40004, error_description: "x" },
      U,
      C.THREAD_ALREADY_EXIST,
      "x",
    ],
    ["403 40005 max limit", 403, { error_code: 40005, error_description: "x" }, U, C.MAX_LIMIT, "x"],
    ["403 40007 max limit", 403, { error_code: 40007, error_description: "x" }, U, C.MAX_LIMIT, "x"],
    ["403 91002 max limit", 403, { error_code: 91002, error_description: "x" }, U, C.MAX_LIMIT, "x"],
    ["403 60002 permission denied", 403, { error_code: 60002, error_description: "x" }, U, C.PERMISSION_DENIED, "x"],
    [
      "403 group members full",
      403,
      { error_description: "group member list is full!" },
      G,
      C.GROUP_MEMBERS_FULL,
      "group member list is full!",
    ],
    [
      "403 chatroom members full",
      403,
      { error_description: "group member list is full!" },
      R,
      C.CHATROOM_MEMBERS_FULL,
      "group member list is full!",
    ],
    [
      "403 already in group",
      403,
      { error_description: "invite users to join group failed, already in group" },
      G,
      C.GROUP_ALREADY_JOINED,
      "invite users to join group failed, already in group",
    ],
    [
      "403 not members (group)",
      403,
      { error_description: "are not members of this group" },
      G,
      C.GROUP_NOT_JOINED,
      "are not members of this group",
    ],
    [
      "403 not members (room)",
      403,
      { error_description: "are not members of this group" },
      R,
      C.CHATROOM_NOT_JOINED,
      "are not members of this group",
    ],
    [
      "403 service not open",
      403,
      { error_description: "service not open!" },
      U,
      C.SERVICE_NOT_ENABLED,
      "service not open!",
    ],
    [
      "403 report not open",
      403,
      { error_description: "message report not open" },
      U,
      C.SERVICE_NOT_ENABLED,
      "message report not open",
    ],
    [
      "403 roaming not open",
      403,
      { error_description: "messageroaming function not open" },
      U,
      C.SERVICE_NOT_ENABLED,
      "messageroaming function not open",
    ],
    [
      "403 members greater than max",
      403,
      { error_description: "members size is greater than max user size !" },
      G,
      C.GROUP_MEMBERS_LIMIT,
      "members size is greater than max user size !",
    ],
    [
      "403 group disabled",
      403,
      { error_description: "can not operate this group, reason: group is disabled" },
      G,
      C.GROUP_IS_DISABLED,
      "can not operate this group, reason: group is disabled",
    ],
    [
      "403 contact max count",
      403,
      { error_description: "Inviter's contact max count" },
      U,
      C.MAX_LIMIT,
      "Inviter's contact max count",
    ],
    [
      "403 otherwise permission denied",
      403,
      { error_description: "nope" },
      U,
      C.PERMISSION_DENIED,
      "permission denied",
    ],
    ["404 40011 thread not exist", 404, { error_code: 40011, error_description: "x" }, U, C.THREAD_NOT_EXIST, "x"],
    ["404 40012 no permission", 404, { error_code: 40012, error_description: "x" }, U, C.NO_PERMISSION, "x"],
    ["404 60003 group not joined", 404, { error_code: 60003, error_description: "x" }, G, C.GROUP_NOT_JOINED, "x"],
    ["404 20004 group not joined", 404, { error_code: 20004, error_description: "x" }, G, C.GROUP_NOT_JOINED, "x"],
    [
      "404 91001 conversation not exist",
      404,
      { error_code: 91001, error_description: "x" },
      U,
      C.CONVERSATION_NOT_EXIST,
      "x",
    ],
    [
      "404 group not found",
      404,
      { error_description: "do not find this group" },
      G,
      C.GROUP_NOT_EXIST,
      "do not find this group",
    ],
    [
      "404 chatroom not found",
      404,
      { error_description: "grpID 1 does not exist" },
      R,
      C.CHATROOM_NOT_EXIST,
      "The chat room dose not exist.",
    ],
    ["404 user not found", 404, { error_description: "user not found" }, U, C.USER_NOT_FOUND, "user not found"],
    [
      "404 user exception",
      404,
      { error_description: "Service resource not found", exception: "UserNotFoundException" },
      U,
      C.USER_NOT_FOUND,
      "Service resource not found",
    ],
    ["404 otherwise ajax error", 404, { error_description: "gone" }, U, C.WEBIM_CONNCTION_AJAX_ERROR, "gone"],
    [
      "406 90004 operation not allowed",
      406,
      { error_code: 90004, error_description: "x" },
      U,
      C.OPERATION_NOT_ALLOWED,
      "x",
    ],
    [
      "429 max limit",
      429,
      { error_description: "The request has reached the maximum limit" },
      U,
      C.MAX_LIMIT,
      "The request has reached the maximum limit",
    ],
    ["429 otherwise server busy", 429, { error_description: "slow down" }, U, C.SERVER_BUSY, "Server is busy."],
    ["503 server busy", 503, {}, U, C.SERVER_BUSY, "Server is busy."],
    [
      "500 40006 server unknown error",
      500,
      { error_code: 40006, error_description: "x" },
      U,
      C.SERVER_UNKNOWN_ERROR,
      "x",
    ],
    [
      "500 40008 server unknown error",
      500,
      { error_code: 40008, error_description: "x" },
      U,
      C.SERVER_UNKNOWN_ERROR,
      "x",
    ],
    [
      "500 40010 server unknown error",
      500,
      { error_code: 40010, error_description: "x" },
      U,
      C.SERVER_UNKNOWN_ERROR,
      "x",
    ],
    ["500 90005 request unknown", 500, { error_code: 90005, error_description: "x" }, U, C.REQUEST_UNKNOWN, "x"],
    ["500 99999 request unknown", 500, { error_code: 99999, error_description: "x" }, U, C.REQUEST_UNKNOWN, "x"],
    [
      "500 translation failed",
      500,
      { error_description: "translte failed!" },
      U,
      C.TRANSLATION_FAILED,
      "translte failed!",
    ],
    ["500 otherwise ajax error", 500, { error_description: "boom" }, U, C.WEBIM_CONNCTION_AJAX_ERROR, "boom"],
  ];
  test.each(rows)("%s", (_name, status, body, url, type, message) => {
    expect(pick(restError(status, body, url, '{"raw":true}'))).toEqual({ type, message });
  });

  test("every type falls in the numeric ranges of spec 03 §8", () => {
    const ranges: [number, number][] = [
      [-4, 40],
      [50, 57],
      [100, 103],
      [200, 223],
      [300, 317],
      [500, 514],
      [601, 609],
      [700, 705],
      [1100, 1103],
      [1200, 1204],
      [1300, 1304],
      [1400, 1400],
    ];
    for (const [, status, body, url] of rows) {
      const t = restError(status, body, url).type;
      expect(ranges.some(([lo, hi]) => t >= lo && t <= hi)).toBe(true);
    }
  });
});

describe("send errors by server reason", () => {
  test.each([
    [1, "blocked", C.PERMISSION_DENIED, "blocked"],
    [1, "group not found", C.GROUP_NOT_EXIST, "group not found"],
    [1, "not in group or chatroom", C.GROUP_NOT_JOINED, "not in group or chatroom"],
    [1, "exceed recall time limit", C.MESSAGE_RECALL_TIME_LIMIT, "exceed recall time limit"],
    [1, "message recall disabled", C.SERVICE_NOT_ENABLED, "message recall disabled"],
    [1, "not in group or chatroom white list", C.SERVICE_NOT_ALLOW_MESSAGING, "not in group or chatroom white list"],
    [1, "nonroster", C.USER_NOT_FRIEND, "not contact"],
    [1, "group is disabled", C.GROUP_IS_DISABLED, "group is disabled"],
    [1, "limit directed users", C.MAX_LIMIT, "limit directed users"],
    [1, "Sorry, edit limit reached", C.MAX_LIMIT, "Modify message limit reached"],
    [1, "Sorry, message does not exist", C.MODIFY_MESSAGE_NOT_EXIST, "The message does not exist."],
    [1, "Sorry, You do not have permission", C.PERMISSION_DENIED, "You do not have the modified permission."],
    [1, "Sorry, format is incorrect", C.MODIFY_MESSAGE_FORMAT_ERROR, "The modify messaged format error."],
    [1, "Sorry, edit is not available", C.SERVICE_NOT_ENABLED, "The message modify function is not activated."],
    [1, "Sorry, edit fail", C.MODIFY_MESSAGE_FAILED, "Modify message failed."],
    [1, "grpID 99 does not exist!", C.CHATROOM_NOT_EXIST, "The chat room dose not exist."],
    [1, "username bob doesn't exist!", C.USER_NOT_FOUND, "username bob doesn't exist!"],
    [1, "group member list is full!", C.CHATROOM_MEMBERS_FULL, "group member list is full!"],
    [
      1,
      "bob can not join this group, bob is in the blacklist",
      C.PERMISSION_DENIED,
      "bob can not join this group, bob is in the blacklist",
    ],
    [1, "blocked by moderation", C.MESSAGE_MODERATION_BLOCKED, "blocked by moderation"],
    [1, "group ID illegal, please check it", C.REQUEST_PARAMETER_ERROR, "Invalid parameter"],
    [1, "alice has create too many chatrooms", C.MAX_LIMIT, "alice has create too many chatrooms"],
    [1, "alice has joined too many chatrooms", C.MAX_LIMIT, "alice has joined too many chatrooms"],
    [1, "auto create failed", C.SERVER_BUSY, "auto create failed"],
    [1, "something else", C.SERVER_UNKNOWN_ERROR, "something else"],
    [7, "sensitive words", C.MESSAGE_INCLUDE_ILLEGAL_CONTENT, "sensitive words"],
    [7, "blocked by mod_antispam", C.MESSAGE_INCLUDE_ILLEGAL_CONTENT, "blocked by mod_antispam"],
    [7, "user is mute", C.USER_MUTED_BY_ADMIN, "user is mute"],
    [7, "traffic limit", C.MESSAGE_CURRENT_LIMITING, "traffic limit"],
    [7, "Sorry, data is too large", C.MESSAGE_SIZE_LIMIT, "Sorry, data is too large"],
    [7, "other", C.WEBIM_LOAD_MSG_ERROR, "other"],
    [15, "", C.SERVICE_NOT_ALLOW_MESSAGING_MUTE, "you were muted"],
    [19, "refused by hook", C.MESSAGE_EXTERNAL_LOGIC_BLOCKED, "refused by hook"],
    [9, "odd", C.WEBIM_LOAD_MSG_ERROR, "odd"],
  ] as const)("code %i %s", (code, reason, type, message) => {
    expect(pick(sendError(code, reason))).toEqual({ type, message });
  });
});

describe("login (provision) failures", () => {
  test.each([
    [
      1,
      "Sorry, the app day live count limit",
      C.MAX_LIMIT,
      "Sorry, the daily active user limit for this app has been reached",
    ],
    [
      7,
      "Sorry, the app online count limit",
      C.MAX_LIMIT,
      "Sorry, the maximum number limit of online users for this app has been reached",
    ],
    [
      7,
      "Sorry, the app month live count limit",
      C.MAX_LIMIT,
      "Sorry, the monthly active user limit for this app has been reached",
    ],
    [1, "Sorry, user register limit", C.MAX_LIMIT, "Sorry, the number of user registrations limit has been reached"],
    [1, "Sorry, user register rate limit", C.MAX_LIMIT, "Sorry, user register rate limit"],
    [4, "bad name", C.REQUEST_PARAMETER_ERROR, "Invalid parameter"],
    [1, "Sorry, user not found", C.USER_NOT_FOUND, "User not found"],
    [1, "service exception", C.WEBIM_CONNCTION_AUTH_ERROR, "Auth failed"],
    [2, "unauthorized", C.WEBIM_CONNCTION_AUTH_ERROR, "Auth failed"],
    [1, "Sorry, token expired", C.WEBIM_TOKEN_EXPIRED, "Sorry, token expired"],
    [
      1,
      "Sorry, token or password does not match login info",
      C.WEBIM_CONNCTION_TOKEN_NOT_ASSIGN_ERROR,
      "INVALID_TOKEN",
    ],
    [12, "", C.WEBIM_SERVER_SERVING_DISABLED, "Server serving disabled."],
    [13, "", C.USER_LOGIN_TOO_MANY_DEVICES, "the number of devices the user is logged in to exceeds the limit"],
    [20, "", C.USER_DEVICE_CHANGED, "user device is changed"],
    [8, "the server says no", C.WEBIM_CONNCTION_AUTH_ERROR, "the server says no"],
  ] as const)("code %i %s", (code, reason, type, message) => {
    expect(pick(provisionError(code, reason))).toEqual({ type, message });
  });
});

describe("metadata, file and download errors", () => {
  test.each([
    ["topic is not part of you", C.NO_PERMISSION],
    ["value size over limit", C.MAX_LIMIT],
    ["key is not Legal", C.REQUEST_PARAMETER_ERROR],
    ["Concurrent updates not allowed", C.OPERATION_NOT_ALLOWED],
    ["anything", C.WEBIM_CONNCTION_AJAX_ERROR],
  ] as const)("metadata: %s", (text, type) => {
    expect(pick(metadataError(text))).toEqual({ type, message: text });
  });

  test.each([
    [
      403,
      { error_description: "chatfile no permission" },
      C.WEBIM_DOWNLOADFILE_ERROR_NO_PERMISSION,
      "chatfile no permission",
    ],
    [403, { error_description: "other" }, C.PERMISSION_DENIED, "permission denied"],
    [404, { error: "file_expired", error_description: "expired" }, C.WEBIM_DOWNLOADFILE_ERROR_EXPIRED, "expired"],
    [404, {}, C.WEBIM_DOWNLOADFILE_ERROR, "Download failed, please try again"],
    [500, { error_description: "boom" }, C.SERVER_UNKNOWN_ERROR, "boom"],
  ] as const)("download %i", (status, body, type, message) => {
    expect(pick(downloadError(status, body))).toEqual({ type, message });
  });
});

describe("client errors and request conventions", () => {
  afterEach(() => vi.unstubAllGlobals());

  test("timeout, network failure and abort", async () => {
    vi.stubGlobal(
      "fetch",
      (_url: string, init: RequestInit) =>
        new Promise((_, reject) => init.signal?.addEventListener("abort", () => reject(new Error("aborted")))),
    );
    await expect(request({ method: "GET", url: "http://h/x", timeoutMs: 20 })).rejects.toMatchObject({
      type: C.REQUEST_TIMEOUT,
      message: "Request Timeout",
    });
    const controller = new AbortController();
    const pending = request({ method: "GET", url: "http://h/x", signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ type: C.REQUEST_ABORT, message: "Request Abort" });
    vi.stubGlobal("fetch", () => Promise.reject(new TypeError("fetch failed")));
    await expect(request({ method: "GET", url: "http://h/x" })).rejects.toMatchObject({
      type: C.REQUEST_UNKNOWN,
      message: "Request Unknow Error",
    });
  });

  test("a 200 that is not JSON is 'Invalid dataType'", async () => {
    vi.stubGlobal("fetch", () => Promise.resolve(new Response("<html>", { status: 200 })));
    await expect(request({ method: "GET", url: "http://h/x" })).rejects.toMatchObject({
      type: C.REQUEST_PARAMETER_ERROR,
      message: "Invalid dataType",
    });
  });

  test("a GET with data gets it as a query string plus a cache-busting timestamp; JSON content type by default", async () => {
    const seen: { url: string; headers: Record<string, string> }[] = [];
    vi.stubGlobal("fetch", (url: string, init: RequestInit) => {
      seen.push({ url, headers: init.headers as Record<string, string> });
      return Promise.resolve(new Response("[1,2]", { status: 200 }));
    });
    const reply = await request({
      method: "GET",
      url: "http://h/x",
      query: { a: 1, b: "two words", c: undefined },
      token: "tok",
    });
    expect(reply).toEqual({ data: [1, 2] });
    expect(seen[0]!.url).toMatch(/^http:\/\/h\/x\?a=1&b=two%20words&_v=\d{13}$/);
    expect(seen[0]!.headers).toMatchObject({ "Content-Type": "application/json", Authorization: "Bearer tok" });
  });

  test("download: progress as the body streams, and failures mapped", async () => {
    const body = new Uint8Array(5000).fill(7);
    vi.stubGlobal("fetch", () =>
      Promise.resolve(
        new Response(body, {
          status: 200,
          headers: { "content-length": "5000", "content-type": "application/octet-stream" },
        }),
      ),
    );
    const progress: number[] = [];
    const blob = await download({ url: "http://h/f", onProgress: (p) => progress.push(p.loaded) });
    expect(blob.size).toBe(5000);
    expect(progress.at(-1)).toBe(5000);
    vi.stubGlobal("fetch", () =>
      Promise.resolve(
        new Response(JSON.stringify({ error: "file_expired", error_description: "gone" }), { status: 404 }),
      ),
    );
    await expect(download({ url: "http://h/f" })).rejects.toMatchObject({
      type: C.WEBIM_DOWNLOADFILE_ERROR_EXPIRED,
      message: "gone",
    });
  });
});

describe("errors named by the REST layer (spec 02 §8)", () => {
  afterEach(() => vi.unstubAllGlobals());
  const conn = () => {
    const c = new connection({ appKey: "org#app", apiUrl: "http://h", useLocalCache: false });
    c.user = "alice";
    c.token = "t";
    c.context.accessToken = "t";
    return c;
  };

  test("loading rooms fails with a load-chatroom error carrying the server's error_description", async () => {
    vi.stubGlobal("fetch", () =>
      Promise.resolve(new Response(JSON.stringify({ error_description: "rooms are resting" }), { status: 400 })),
    );
    await expect(conn().getChatRooms({ pagenum: 1, pagesize: 20 })).rejects.toMatchObject({
      type: C.WEBIM_CONNCTION_LOAD_CHATROOM_ERROR,
      message: "rooms are resting",
    });
  });

  test("a history fetch failure is 'fetch history messages error'", async () => {
    vi.stubGlobal("fetch", () =>
      Promise.resolve(new Response(JSON.stringify({ error_description: "odd" }), { status: 400 })),
    );
    await expect(conn().getHistoryMessages({ targetId: "bob" })).rejects.toMatchObject({
      type: C.WEBIM_CONNCTION_AJAX_ERROR,
      message: "fetch history messages error",
    });
  });

  test("older names answer like the current ones", async () => {
    const urls: string[] = [];
    vi.stubGlobal("fetch", (url: string) => {
      urls.push(url);
      return Promise.resolve(new Response(JSON.stringify({ data: ["bob"] }), { status: 200 }));
    });
    await expect(conn().getRoster()).resolves.toMatchObject({ type: 0, data: ["bob"] });
    expect(urls[0]).toBe("http://h/org/app/users/alice/contacts/users");
    expect(conn().getUniqueId()).toMatch(/^\d{11,13}$/);
  });
});
