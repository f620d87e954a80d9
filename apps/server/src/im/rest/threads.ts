import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { IM_PAGE, imCreateThreadReq, imRenameThreadReq, imThreadLastMessageReq } from "@tessera/contracts";
import { ImAccounts } from "../service/accounts";
import { actorOf, intParam, parseBody, queryOf } from "./http";
import type { RouteContext } from "./plugin";

type P<T extends string> = { Params: Record<T, string> };

/** Threads (spec 03 §7 "Threads"); field names as the client renames them. */
export function threadRoutes(im: FastifyInstance, { svc, replies }: RouteContext): void {
  const threads = svc.threads;
  const send = (req: FastifyRequest, reply: FastifyReply, fields: Record<string, unknown>) =>
    replies.send(req, reply, fields);
  const limitOf = (req: FastifyRequest) =>
    intParam(queryOf(req).limit, "limit", { min: 1, max: 50, fallback: IM_PAGE.threadPageSize });

  im.post("/thread", async (req, reply) => {
    const b = parseBody(imCreateThreadReq, req.body);
    const id = await threads.create(
      actorOf(req),
      { name: b.name, messageId: b.msg_id, groupId: b.group_id, owner: b.owner ?? null },
      queryOf(req).resource,
    );
    return send(req, reply, { data: { thread_id: id } });
  });

  im.post("/thread/message", async (req, reply) => {
    const { threadIds } = parseBody(imThreadLastMessageReq, req.body);
    return send(req, reply, { entities: await threads.lastMessages(actorOf(req), threadIds) });
  });

  im.post<P<"id" | "user">>("/thread/:id/user/:user/join", async (req, reply) => {
    const actor = actorOf(req);
    ImAccounts.self(actor, req.params.user);
    const t = await threads.join(actor, req.params.id, queryOf(req).resource);
    return send(req, reply, { data: { status: "ok", detail: threads.presentDetail(t) } });
  });

  im.delete<P<"id" | "user">>("/thread/:id/user/:user/quit", async (req, reply) => {
    const actor = actorOf(req);
    ImAccounts.self(actor, req.params.user);
    await threads.leave(actor, req.params.id, queryOf(req).resource);
    return send(req, reply, { data: { result: true } });
  });

  im.get<P<"id">>("/thread/:id", async (req, reply) =>
    send(req, reply, { data: threads.presentDetail(await threads.detail(actorOf(req), req.params.id)) }),
  );

  im.delete<P<"id">>("/thread/:id", async (req, reply) => {
    await threads.destroy(actorOf(req), req.params.id, queryOf(req).resource);
    return send(req, reply, { data: { result: true } });
  });

  im.put<P<"id">>("/thread/:id", async (req, reply) => {
    const { name } = parseBody(imRenameThreadReq, req.body);
    await threads.rename(actorOf(req), req.params.id, name, queryOf(req).resource);
    return send(req, reply, { data: { name } });
  });

  im.get<P<"id">>("/thread/:id/users", async (req, reply) => {
    const page = await threads.members(actorOf(req), req.params.id, queryOf(req).cursor, limitOf(req));
    return send(req, reply, {
      data: { affiliations: page.users },
      properties: { cursor: page.cursor },
      cursor: page.cursor,
    });
  });

  im.delete<P<"id" | "user">>("/thread/:id/users/:user", async (req, reply) => {
    const user = req.params.user.toLowerCase();
    await threads.removeMember(actorOf(req), req.params.id, user);
    return send(req, reply, { data: { result: true, user } });
  });

  im.get<P<"group" | "user">>("/threads/chatgroups/:group/user/:user", async (req, reply) => {
    const user = ImAccounts.self(actorOf(req), req.params.user);
    const page = await threads.joined(user, req.params.group, queryOf(req).cursor, limitOf(req));
    return send(req, reply, { entities: page.entities, properties: { cursor: page.cursor }, cursor: page.cursor });
  });

  im.get<P<"user">>("/threads/user/:user", async (req, reply) => {
    const user = ImAccounts.self(actorOf(req), req.params.user);
    const page = await threads.joined(user, undefined, queryOf(req).cursor, limitOf(req));
    return send(req, reply, { entities: page.entities, properties: { cursor: page.cursor }, cursor: page.cursor });
  });

  im.get<P<"group">>("/threads/chatgroups/:group", async (req, reply) => {
    const page = await threads.ofGroup(actorOf(req), req.params.group, queryOf(req).cursor, limitOf(req));
    return send(req, reply, { entities: page.entities, properties: { cursor: page.cursor }, cursor: page.cursor });
  });
}
