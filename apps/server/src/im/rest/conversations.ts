import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import {
  IM_PAGE,
  IM_REMOVE_HISTORY_MAX_IDS,
  IM_TIMESTAMP_MAX_DIGITS,
  imConversationMark,
  imConversationMarkReq,
  imDeleteConversationReq,
  imPinConversationReq,
  imPinMessageReq,
  imReactionReq,
  imReportReq,
  imRoamingReq,
} from "@tessera/contracts";
import { z } from "zod";
import { imError, invalidParam } from "../errors";
import { ImAccounts } from "../service/accounts";
import type { ChatType } from "../tables";
import { actorOf, boolParam, intParam, parseBody, queryOf } from "./http";
import type { RouteContext } from "./plugin";

type P<T extends string> = { Params: Record<T, string> };

const convType = (t: string): "chat" | "groupchat" => (t === "chat" ? "chat" : "groupchat");

/** A message body for the server-side send API: the JSON body of one message type. */
const sendReq = z.object({
  from: z.string().optional(),
  to: z.array(z.string().min(1).max(64)).min(1).max(100),
  type: z.enum(["txt", "img", "video", "audio", "file", "loc", "cmd", "custom"]),
  body: z.record(z.string(), z.unknown()),
  ext: z.record(z.string(), z.unknown()).optional(),
  msg_id: z.string().max(64).optional(),
});

/**
 * History roaming, conversations, message removal, reactions, reports, and the server-side send API
 * (spec 02 §7 "Reactions, reports, history, conversations").
 */
export function conversationRoutes(im: FastifyInstance, { svc, replies }: RouteContext): void {
  const history = svc.history;
  const me = (req: FastifyRequest, user: string) => ImAccounts.self(actorOf(req), user);
  const send = (req: FastifyRequest, reply: FastifyReply, fields: Record<string, unknown>) =>
    replies.send(req, reply, fields);

  im.post<P<"user">>("/users/:user/messageroaming", async (req, reply) => {
    const user = me(req, req.params.user);
    const body = parseBody(imRoamingReq, req.body);
    return send(req, reply, { data: await history.roaming(user, body) });
  });

  im.get<P<"user">>("/users/:user/user_channels", async (req, reply) => {
    const user = me(req, req.params.user);
    return send(req, reply, {
      data: { channel_infos: await history.conversationPage(user, 1, IM_PAGE.conversationMaxPageSize) },
    });
  });

  im.get<P<"user">>("/users/:user/user_channels/page", async (req, reply) => {
    const user = me(req, req.params.user);
    const q = queryOf(req);
    const pageNum = intParam(q.pageNum, "pageNum", { min: 1, fallback: 1 });
    const pageSize = intParam(q.pageSize, "pageSize", {
      min: 1,
      max: IM_PAGE.conversationMaxPageSize,
      fallback: IM_PAGE.conversationPageSize,
    });
    return send(req, reply, { data: { channel_infos: await history.conversationPage(user, pageNum, pageSize) } });
  });

  im.get<P<"user">>("/sdk/user/:user/user_channels/list", async (req, reply) => {
    const user = me(req, req.params.user);
    const q = queryOf(req);
    const limit = intParam(q.limit, "limit", {
      min: 1,
      max: IM_PAGE.conversationMaxPageSize,
      fallback: IM_PAGE.conversationPageSize,
    });
    const page = await history.conversations(user, {
      pinnedOnly: boolParam(q.is_top) ?? false,
      cursor: q.cursor,
      limit,
    });
    return send(req, reply, { data: { channel_infos: page.items, cursor: page.cursor } });
  });

  /* ---------- conversation marks, delete all ---------- */

  const mark = (on: boolean) => async (req: FastifyRequest<P<"user">>, reply: FastifyReply) => {
    const user = me(req, req.params.user);
    const b = parseBody(imConversationMarkReq, req.body);
    const targets = b.targets.map((t) => ({ to: t.to, type: convType(t.type) }));
    return send(req, reply, { data: await history.mark(user, b.mark, targets, on, queryOf(req).resource) });
  };
  im.post<P<"user">>("/sdk/user/:user/user_channels/mark", mark(true));
  im.delete<P<"user">>("/sdk/user/:user/user_channels/mark", mark(false));

  im.get<P<"user">>("/sdk/user/:user/user_channels/mark/search", async (req, reply) => {
    const user = me(req, req.params.user);
    const q = queryOf(req);
    const m = imConversationMark.safeParse(q.mark);
    if (!m.success) throw invalidParam("mark");
    const limit = intParam(q.limit, "limit", {
      min: 1,
      max: IM_PAGE.conversationMaxPageSize,
      fallback: IM_PAGE.conversationPageSize,
    });
    const page = await history.conversations(user, { pinnedOnly: false, cursor: q.cursor, limit, mark: m.data });
    return send(req, reply, { data: { channel_infos: page.items, cursor: page.cursor } });
  });

  /* ---------- pinned messages ---------- */

  const pinMessage = (on: boolean) => async (req: FastifyRequest<P<"user">>, reply: FastifyReply) => {
    const user = me(req, req.params.user);
    const b = parseBody(imPinMessageReq, req.body);
    await svc.pins.set(user, convType(b.type), b.to, b.pin_msg_id, on, queryOf(req).resource);
    return send(req, reply, { data: { result: "ok" } });
  };
  im.post<P<"user">>("/sdk/user/:user/user_channel/pin", pinMessage(true));
  im.delete<P<"user">>("/sdk/user/:user/user_channel/pin", pinMessage(false));

  im.get<P<"user">>("/sdk/user/:user/user_channel/pin", async (req, reply) => {
    const user = me(req, req.params.user);
    const q = queryOf(req);
    if (!q.to) throw invalidParam("to");
    if (q.type !== "chat" && q.type !== "groupchat" && q.type !== "groupChat") throw invalidParam("type");
    const limit = intParam(q.limit, "limit", { min: 1, max: 50, fallback: 10 });
    return send(req, reply, { data: await svc.pins.list(user, convType(q.type), q.to, q.cursor, limit) });
  });

  im.post<P<"user">>("/sdk/message/roaming/user/:user/delete/all", async (req, reply) => {
    const user = me(req, req.params.user);
    await history.deleteAll(user, queryOf(req).resource);
    return send(req, reply, { data: { result: "ok" } });
  });

  im.delete<P<"user">>("/user/:user/user_channel", async (req, reply) => {
    const user = me(req, req.params.user);
    const b = parseBody(imDeleteConversationReq, req.body);
    await history.deleteConversation(user, convType(b.type), b.channel, b.delete_roam, queryOf(req).resource);
    return send(req, reply, { data: { result: "ok" } });
  });

  im.post<P<"user">>("/sdk/user/:user/user_channel/top", async (req, reply) => {
    const user = me(req, req.params.user);
    const b = parseBody(imPinConversationReq, req.body);
    const r = await history.pin(user, convType(b.type), b.to, true, queryOf(req).resource);
    return send(req, reply, { data: { is_top: r.isTop, update_top_status_time: r.time } });
  });

  im.delete<P<"user">>("/sdk/user/:user/user_channel/top", async (req, reply) => {
    const user = me(req, req.params.user);
    const q = queryOf(req);
    const b = parseBody(imPinConversationReq, { type: q.type, to: q.to });
    const r = await history.pin(user, convType(b.type), b.to, false, q.resource);
    return send(req, reply, { data: { is_top: r.isTop, update_top_status_time: r.time } });
  });

  /** Removes messages from the caller's own history: by ids (1 to 20), or everything before a time. */
  const removeHistory = (byTime: boolean) => async (req: FastifyRequest<P<"kind" | "user">>, reply: FastifyReply) => {
    const user = me(req, req.params.user);
    const kind = req.params.kind;
    if (kind !== "chat" && kind !== "group") throw invalidParam("chatType");
    const q = queryOf(req);
    const target = kind === "chat" ? q.userId : q.groupId;
    if (!target) throw invalidParam(kind === "chat" ? "userId" : "groupId");
    if (byTime) {
      const t = q.delTime;
      if (t === undefined || !new RegExp(`^\\d{1,${IM_TIMESTAMP_MAX_DIGITS}}$`).test(t)) {
        throw invalidParam("beforeTimeStamp");
      }
      await history.removeHistory(
        user,
        kind,
        target,
        { beforeMs: Math.min(Number(t), Number.MAX_SAFE_INTEGER) },
        q.resource,
      );
    } else {
      const ids = (q.msgIdList ?? "").split(",").filter((s) => s !== "");
      if (ids.length === 0 || ids.length > IM_REMOVE_HISTORY_MAX_IDS || ids.some((id) => !/^\d{1,19}$/.test(id))) {
        throw invalidParam("messageIds");
      }
      await history.removeHistory(user, kind, target, { ids: ids.map(Number) }, q.resource);
    }
    return send(req, reply, { data: { result: "ok" } });
  };
  im.delete<P<"kind" | "user">>("/sdk/message/roaming/:kind/user/:user", removeHistory(false));
  im.delete<P<"kind" | "user">>("/sdk/message/roaming/:kind/user/:user/time", removeHistory(true));

  /* ---------- reactions and reports ---------- */

  im.post<P<"user">>("/reaction/user/:user", async (req, reply) => {
    const user = me(req, req.params.user);
    const b = parseBody(imReactionReq, req.body);
    await svc.reactions.add(user, b.msgId, b.message);
    return send(req, reply, { data: { msgId: b.msgId, reaction: b.message, result: true } });
  });

  im.delete<P<"user">>("/reaction/user/:user", async (req, reply) => {
    const user = me(req, req.params.user);
    const q = queryOf(req);
    const b = parseBody(imReactionReq, { msgId: q.msgId, message: q.message });
    await svc.reactions.remove(user, b.msgId, b.message);
    return send(req, reply, { data: { msgId: b.msgId, reaction: b.message, result: true } });
  });

  im.get<P<"user">>("/reaction/user/:user", async (req, reply) => {
    const user = me(req, req.params.user);
    const ids = (queryOf(req).msgIdList ?? "").split(",").filter((s) => s !== "");
    if (ids.length === 0 || ids.length > 20) throw invalidParam("msgIdList");
    return send(req, reply, { data: await svc.reactions.list(user, ids) });
  });

  im.get<P<"user">>("/reaction/user/:user/detail", async (req, reply) => {
    const user = me(req, req.params.user);
    const q = queryOf(req);
    const b = parseBody(imReactionReq, { msgId: q.msgId, message: q.message });
    const pageSize = intParam(q.pageSize, "pageSize", { min: 1, max: 100, fallback: IM_PAGE.reactionDetailPageSize });
    return send(req, reply, { data: await svc.reactions.detail(user, b.msgId, b.message, q.currentPage, pageSize) });
  });

  im.post<P<"user" | "msgId">>("/user/:user/moderation/report/message/:msgId", async (req, reply) => {
    const user = me(req, req.params.user);
    const b = parseBody(imReportReq, req.body);
    const id = await svc.reactions.report(user, req.params.msgId, b.reportType, b.reportReason);
    return send(req, reply, { data: { result: "ok", report_id: String(id) } });
  });

  /* ---------- server-side send (back-office, tests; clients send over the socket) ---------- */

  const sendTo =
    (target: "users" | "chatgroups" | "chatrooms" | "threads") => async (req: FastifyRequest, reply: FastifyReply) => {
      const actor = actorOf(req);
      const b = parseBody(sendReq, req.body);
      const from = actor.kind === "user" ? actor.username : b.from?.toLowerCase();
      if (!from) throw invalidParam("from");
      if (actor.kind === "user" && b.from && b.from.toLowerCase() !== from) {
        throw imError("permissionDenied", { reason: "a user may send only as itself" });
      }
      const chatType: ChatType = target === "users" ? "chat" : target === "chatrooms" ? "chatroom" : "groupchat";
      const data: Record<string, string> = {};
      for (const rawTo of b.to) {
        const to = target === "users" ? rawTo.toLowerCase() : rawTo;
        const sent = await history.send({
          chatType,
          from,
          to,
          body: { type: b.type, ...b.body },
          ext: b.ext ?? {},
          clientId: b.msg_id ? `${b.msg_id}:${to}` : null,
        });
        data[rawTo] = sent.id;
      }
      return send(req, reply, { data });
    };
  im.post("/messages/users", sendTo("users"));
  im.post("/messages/chatgroups", sendTo("chatgroups"));
  im.post("/messages/chatrooms", sendTo("chatrooms"));
  im.post("/messages/threads", sendTo("threads"));
}
