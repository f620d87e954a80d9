import type { FastifyInstance } from "fastify";
import { imLanguageReq, imSilentReq } from "@tessera/contracts";
import { invalidParam } from "../errors";
import { ImAccounts } from "../service/accounts";
import { actorOf, intParam, parseBody, queryOf } from "./http";
import type { RouteContext } from "./plugin";

type P<T extends string> = { Params: Record<T, string> };

/** Silent mode and the push translation language (spec 03 §7 "Silent mode and language"). */
export function silentRoutes(im: FastifyInstance, { svc, replies }: RouteContext): void {
  const silent = svc.silent;
  const me = (req: Parameters<typeof actorOf>[0], user: string) => ImAccounts.self(actorOf(req), user);

  im.put<P<"user">>("/users/:user/notification/language", async (req, reply) => {
    const user = me(req, req.params.user);
    const { translationLanguage } = parseBody(imLanguageReq, req.body);
    return replies.send(req, reply, { data: { language: await silent.setLanguage(user, translationLanguage) } });
  });
  im.get<P<"user">>("/users/:user/notification/language", async (req, reply) => {
    const user = me(req, req.params.user);
    return replies.send(req, reply, { data: { language: await silent.language(user) } });
  });

  im.get<P<"user">>("/users/:user/notification/mute/type", async (req, reply) => {
    const user = me(req, req.params.user);
    const q = queryOf(req);
    const limit = intParam(q.limit, "limit", { min: 1, max: 100, fallback: 20 });
    const page = await silent.remindTypes(user, q.cursor, limit);
    return replies.send(req, reply, { data: page.items, cursor: page.cursor });
  });

  /** `user/{me}` is the all-conversations setting; `user/{peer}` and `chatgroup/{id}` are per conversation. */
  const scopeOf = (kind: string, target: string, user: string): { scope: "all" | "chat" | "group"; target: string } => {
    if (kind === "user") {
      return target.toLowerCase() === user
        ? { scope: "all", target: "" }
        : { scope: "chat", target: target.toLowerCase() };
    }
    if (kind === "chatgroup") {
      if (!/^\d{1,18}$/.test(target)) throw invalidParam("conversationId");
      return { scope: "group", target };
    }
    throw invalidParam("type");
  };

  im.put<P<"user" | "kind" | "target">>("/users/:user/notification/:kind/:target", async (req, reply) => {
    const actor = actorOf(req);
    const user = ImAccounts.self(actor, req.params.user);
    const { scope, target } = scopeOf(req.params.kind, req.params.target, user);
    const body = parseBody(imSilentReq, req.body);
    return replies.send(req, reply, { data: await silent.set(user, scope, target, body, actor.resource) });
  });

  im.get<P<"user" | "kind" | "target">>("/users/:user/notification/:kind/:target", async (req, reply) => {
    const user = me(req, req.params.user);
    const { scope, target } = scopeOf(req.params.kind, req.params.target, user);
    return replies.send(req, reply, { data: await silent.get(user, scope, target) });
  });

  im.get<P<"user">>("/users/:user/notification", async (req, reply) => {
    const user = me(req, req.params.user);
    const q = queryOf(req);
    const users = (q.user ?? "")
      .split(",")
      .filter((s) => s !== "")
      .map((s) => s.toLowerCase());
    const groups = (q.group ?? "").split(",").filter((s) => s !== "");
    if (users.length + groups.length === 0 || users.length + groups.length > 100) {
      throw invalidParam("conversationList");
    }
    return replies.send(req, reply, { data: await silent.batch(user, users, groups) });
  });
}
