import type { FastifyInstance } from "fastify";
import { imPresencePublishReq, imPresenceUsersReq } from "@tessera/contracts";
import { z } from "zod";
import { invalidParam } from "../errors";
import { ImAccounts } from "../service/accounts";
import { actorOf, intParam, parseBody, queryOf } from "./http";
import type { RouteContext } from "./plugin";

type P<T extends string> = { Params: Record<T, string> };

/** Presence (spec 02 §7 "Presence"); replies carry `result` at the top level, as the client reads it. */
export function presenceRoutes(im: FastifyInstance, { svc, replies }: RouteContext): void {
  const presence = svc.presence;

  im.post<P<"user" | "resource" | "status">>("/users/:user/presence/:resource/:status", async (req, reply) => {
    const user = ImAccounts.self(actorOf(req), req.params.user);
    if (req.params.status !== "1") throw invalidParam("status");
    const { ext } = parseBody(imPresencePublishReq, req.body);
    if (req.params.resource.length > 128) throw invalidParam("resource");
    await presence.publish(user, req.params.resource, ext);
    return replies.send(req, reply, { result: "ok", data: { result: "ok" } });
  });

  im.get<P<"user">>("/users/:user/presence/sublist", async (req, reply) => {
    const user = ImAccounts.self(actorOf(req), req.params.user);
    const q = queryOf(req);
    const pageNum = intParam(q.pageNum, "pageNum", { min: 0, fallback: 1 });
    const pageSize = intParam(q.pageSize, "pageSize", { min: 0, max: 1000, fallback: 20 });
    const result = await presence.subscriptions(user, pageNum, pageSize);
    return replies.send(req, reply, { result, data: { result } });
  });

  im.post<P<"user" | "expiry">>("/users/:user/presence/:expiry", async (req, reply) => {
    const user = ImAccounts.self(actorOf(req), req.params.user);
    if (!/^\d{1,10}$/.test(req.params.expiry)) throw invalidParam("expiry");
    const { usernames } = parseBody(imPresenceUsersReq, req.body);
    const result = await presence.subscribe(user, usernames, Number(req.params.expiry));
    return replies.send(req, reply, { result, data: { result } });
  });

  im.post<P<"user">>("/users/:user/presence", async (req, reply) => {
    ImAccounts.self(actorOf(req), req.params.user);
    const { usernames } = parseBody(imPresenceUsersReq, req.body);
    const result = await presence.statusOf(usernames.map((u) => u.toLowerCase()));
    return replies.send(req, reply, { result, data: { result } });
  });

  /** The client sends the names as a bare JSON array. */
  im.delete<P<"user">>("/users/:user/presence", async (req, reply) => {
    const user = ImAccounts.self(actorOf(req), req.params.user);
    const names = Array.isArray(req.body) ? req.body : (req.body as { usernames?: unknown } | undefined)?.usernames;
    const parsed = z.array(z.string().min(1).max(64)).min(1).max(100).safeParse(names);
    if (!parsed.success) throw invalidParam("usernames");
    await presence.unsubscribe(user, parsed.data);
    return replies.send(req, reply, { result: "ok", data: { result: "ok" } });
  });
}
