import type { FastifyInstance, FastifyRequest } from "fastify";
import { imError } from "../errors";
import { actorOf, intParam, queryOf } from "./http";
import type { RouteContext } from "./plugin";

function header(req: FastifyRequest, name: string): string | undefined {
  const v = req.headers[name];
  return typeof v === "string" ? v : undefined;
}

/**
 * Data reports (spec 03 §7): `POST sdk/reports` takes a client's batch, authenticated by the access token
 * in the `token` header (the reporting protocol has no Authorization header); `GET sdk/reports` lists
 * them for the app admin, newest first, by cursor, optionally of one user or one event id.
 */
export function reportRoutes(im: FastifyInstance, { svc, replies, limits }: RouteContext): void {
  const reports = svc.reports;

  im.post("/sdk/reports", { config: { imPublic: true } }, async (req, reply) => {
    const token = header(req, "token");
    const auth = token ? await svc.accounts.authenticate(token) : null;
    if (!auth) throw imError("unauthorized");
    // The route is outside the bearer hook and its limit, so it limits its callers itself.
    req.imActor = auth.actor;
    await limits.reports(req, reply);
    const accepted = await reports.accept(
      auth.actor,
      {
        appid: header(req, "appid"),
        sendts: header(req, "sendts"),
        biz: header(req, "biz"),
        debug: header(req, "debug"),
      },
      req.body,
    );
    return replies.send(req, reply, { data: { accepted } });
  });

  im.get("/sdk/reports", async (req, reply) => {
    const q = queryOf(req);
    const limit = intParam(q.limit, "limit", { min: 1, max: 100, fallback: 20 });
    const eventId = q.eventId === undefined ? undefined : intParam(q.eventId, "eventId", { min: 1 });
    const page = await reports.list(
      actorOf(req),
      { cursor: q.cursor, username: q.username?.toLowerCase(), eventId },
      limit,
    );
    return replies.send(req, reply, { entities: page.items, count: page.items.length, cursor: page.cursor });
  });
}
