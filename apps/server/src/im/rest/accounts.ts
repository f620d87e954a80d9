import type { FastifyInstance, FastifyRequest } from "fastify";
import { IM_USER_INFO_KEYS, imUserInfoGetReq } from "@tessera/contracts";
import { asGroupRefusal, denied, imError, invalidParam } from "../errors";
import { ImAccounts, normalizeUsername, presentUser } from "../service/accounts";
import { mucsOwnedBy } from "../store/mucs";
import { actorOf, parseBody } from "./http";
import type { RouteContext } from "./plugin";

/** Calls only the app (the back-office server) may make about a user; returns the user's name. */
function appOnly(req: FastifyRequest, pathUser: string): string {
  if (actorOf(req).kind !== "app") throw denied("only the app may administer users");
  return normalizeUsername(pathUser, "username");
}

/** Registration, tokens, the user entity, user info (metadata), push token and user administration. */
export function accountRoutes(im: FastifyInstance, { svc, replies }: RouteContext): void {
  const accounts = svc.accounts;

  im.post("/token", { config: { imPublic: true } }, async (req) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const ttl = typeof body.ttl === "number" && body.ttl > 0 ? Math.floor(body.ttl) : undefined;
    switch (body.grant_type) {
      case "password": {
        const { token, user } = await accounts.passwordGrant(body.username, body.password, ttl);
        return { access_token: token.accessToken, expires_in: token.expiresIn, user: presentUser(user) };
      }
      case "client_credentials": {
        const token = accounts.clientCredentialsGrant(body.client_id, body.client_secret, ttl);
        return { access_token: token.accessToken, expires_in: token.expiresIn, application: svc.deps.appUuid };
      }
      default:
        throw imError("unsupportedGrant", { grant: typeof body.grant_type === "string" ? body.grant_type : "" });
    }
  });

  im.post("/users", { config: { imPublic: true } }, async (req, reply) => {
    const body = req.body;
    const list = Array.isArray(body) ? body : [body ?? {}];
    if (list.length === 0 || list.length > 60) throw invalidParam("users");
    if (list.length > 1 && req.imActor?.kind !== "app") throw imError("openRegistrationClosed");
    const created = [];
    for (const item of list) {
      created.push(presentUser(await accounts.register(req.imActor, (item ?? {}) as Record<string, unknown>)));
    }
    return replies.send(req, reply, { entities: created, data: [] });
  });

  im.get<{ Params: { user: string } }>("/users/:user", async (req, reply) => {
    const user = await accounts.getUser(ImAccounts.self(actorOf(req), req.params.user));
    return replies.send(req, reply, { entities: [presentUser(user)], count: 1 });
  });

  im.put<{ Params: { user: string } }>("/users/:user", async (req, reply) => {
    const username = ImAccounts.self(actorOf(req), req.params.user);
    const body = (req.body ?? {}) as Record<string, unknown>;
    // Legacy group-message block: {"entities":[{"notification_ignore_<groupId>": true}]}.
    if (Array.isArray(body.entities)) {
      const flags = (body.entities[0] ?? {}) as Record<string, unknown>;
      for (const [key, value] of Object.entries(flags)) {
        const m = /^notification_ignore_(\d+)$/.exec(key);
        if (!m?.[1] || typeof value !== "boolean") throw invalidParam(key);
        await svc.groups.shield({ kind: "user", username }, m[1], value).catch((err: unknown) => {
          throw asGroupRefusal(err);
        });
      }
      const user = await accounts.getUser(username);
      return replies.send(req, reply, { entities: [{ ...presentUser(user), ...flags }] });
    }
    if ("device_id" in body || "device_token" in body || "notifier_name" in body) {
      const { device_id, device_token, notifier_name } = body;
      if (typeof device_id !== "string" || device_id === "") throw invalidParam("device_id");
      if (typeof device_token !== "string") throw invalidParam("device_token");
      if (typeof notifier_name !== "string" || notifier_name === "") throw invalidParam("notifier_name");
      const user = await accounts.updateUser(username, {
        push: { deviceId: device_id, deviceToken: device_token, notifierName: notifier_name },
      });
      const pushInfo = user.device_token
        ? [{ device_id: user.device_id, device_token: user.device_token, notifier_name: user.notifier_name }]
        : [];
      return replies.send(req, reply, { entities: [{ ...presentUser(user), pushInfo }] });
    }
    if (typeof body.nickname !== "string") throw invalidParam("nickname");
    if (body.nickname.length > 100) throw invalidParam("nickname");
    const user = await accounts.updateUser(username, { nickname: body.nickname });
    return replies.send(req, reply, { entities: [presentUser(user)] });
  });

  im.get<{ Params: { user: string } }>("/sdk/users/:user/token/expires", async (req, reply) => {
    const actor = actorOf(req);
    ImAccounts.self(actor, req.params.user);
    const token = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? "")?.[1] ?? "";
    const auth = await accounts.authenticate(token);
    if (!auth) throw imError("unauthorized");
    return replies.send(req, reply, { expire_timestamp: auth.expiresMs, data: { expire_timestamp: auth.expiresMs } });
  });

  /* Server-side user administration (the back-office's app token; a user may change its own password). */

  im.put<{ Params: { user: string } }>("/users/:user/password", async (req, reply) => {
    const actor = actorOf(req);
    const username = ImAccounts.self(actor, req.params.user);
    const body = (req.body ?? {}) as Record<string, unknown>;
    await accounts.changePassword(actor, username, body.newpassword, body.oldpassword);
    return replies.send(req, reply, { action: "set user password" });
  });

  im.post<{ Params: { user: string } }>("/users/:user/deactivate", async (req, reply) => {
    const user = await accounts.setActivated(appOnly(req, req.params.user), false);
    return replies.send(req, reply, { action: "Deactivate user", entities: [presentUser(user)] });
  });

  im.post<{ Params: { user: string } }>("/users/:user/activate", async (req, reply) => {
    await accounts.setActivated(appOnly(req, req.params.user), true);
    return replies.send(req, reply, { action: "activate user" });
  });

  im.get<{ Params: { user: string } }>("/users/:user/disconnect", async (req, reply) => {
    await accounts.disconnect(appOnly(req, req.params.user));
    return replies.send(req, reply, { action: "get", data: { result: true } });
  });

  im.delete<{ Params: { user: string } }>("/users/:user", async (req, reply) => {
    const username = appOnly(req, req.params.user);
    await accounts.getUser(username);
    // The groups and rooms it owns are dissolved first: their members get the destroy events.
    const owned = await mucsOwnedBy(svc.deps.db, username);
    for (const m of owned) await (m.kind === "group" ? svc.groups : svc.rooms).destroy({ kind: "app" }, String(m.id));
    const user = await accounts.remove(username);
    return replies.send(req, reply, { action: "delete", entities: [presentUser(user)] });
  });

  /** User info: the client sends it form-encoded, only the eight keys of spec 02 §5. */
  im.put<{ Params: { user: string } }>("/metadata/user/:user", async (req, reply) => {
    const username = ImAccounts.self(actorOf(req), req.params.user);
    const body = req.body;
    if (typeof body !== "object" || body === null || Array.isArray(body)) throw invalidParam("body");
    const fields: Record<string, string> = {};
    for (const [k, v] of Object.entries(body as Record<string, unknown>)) {
      if (!(IM_USER_INFO_KEYS as readonly string[]).includes(k)) {
        throw invalidParam(`illegal key, only these keys: ${IM_USER_INFO_KEYS.join(", ")} are allowed`);
      }
      if (typeof v !== "string" && typeof v !== "number" && typeof v !== "boolean") throw invalidParam(k);
      const text = String(v);
      if (text.length > 2048) throw invalidParam(k);
      fields[k] = text;
    }
    const data = await accounts.setUserInfo(username, fields);
    return replies.send(req, reply, { data });
  });

  im.post("/metadata/user/get", async (req, reply) => {
    actorOf(req);
    const { targets, properties } = parseBody(imUserInfoGetReq, req.body);
    const data = await accounts.getUserInfo(
      targets.map((t) => t.toLowerCase()),
      properties,
    );
    return replies.send(req, reply, { data });
  });
}
