import type { FastifyInstance } from "fastify";
import { IM_PAGE, imBlocklistReq, imContactApplyReq, imRemarkReq } from "@tessera/contracts";
import { invalidParam } from "../errors";
import { ImAccounts } from "../service/accounts";
import { actorOf, boolParam, intParam, parseBody, queryOf } from "./http";
import type { RouteContext } from "./plugin";

type P<T extends string> = { Params: Record<T, string> };

/** Contacts, requests, remarks and the block list (spec 02 §7 "Contacts and users"). */
export function contactRoutes(im: FastifyInstance, { svc, replies }: RouteContext): void {
  const contacts = svc.contacts;
  const me = (req: Parameters<typeof actorOf>[0], user: string) => ImAccounts.self(actorOf(req), user);

  /**
   * The contact list's version (chat SDK 5): the client syncs its contacts over the sync socket
   * (gateway/sync-socket.ts) when this differs from the version it holds.
   */
  im.get<P<"user">>("/user/:user/roster/metadata/version", async (req, reply) => {
    const user = me(req, req.params.user);
    const version = await contacts.rosterVersion(user);
    return replies.send(req, reply, { data: { version, timestamp: svc.deps.clock.now().getTime() } });
  });

  /** All contacts: names in `data`, or with needReturnRemark `entities` of {username, remark}. */
  im.get<P<"user">>("/users/:user/contacts/users", async (req, reply) => {
    const user = me(req, req.params.user);
    const rows = await contacts.list(user, null, IM_LIMITS_ALL);
    if (boolParam(queryOf(req).needReturnRemark)) {
      return replies.send(req, reply, {
        entities: rows.map((r) => ({ username: r.contact, remark: r.remark })),
        count: rows.length,
      });
    }
    return replies.send(req, reply, { data: rows.map((r) => r.contact), count: rows.length });
  });

  im.get<P<"user">>("/users/:user/contacts", async (req, reply) => {
    const user = me(req, req.params.user);
    const q = queryOf(req);
    const limit = intParam(q.limit, "limit", { min: 1, max: IM_PAGE.maxPageSize, fallback: IM_PAGE.contactPageSize });
    let after: string | null = null;
    if (q.cursor) {
      after = Buffer.from(q.cursor, "base64url").toString("utf8");
      if (after === "") throw invalidParam("cursor");
    }
    const rows = await contacts.list(user, after, limit + 1);
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    const cursor = rows.length > limit && last ? Buffer.from(last.contact).toString("base64url") : "";
    return replies.send(req, reply, {
      data: { contacts: page.map((r) => ({ username: r.contact, remark: r.remark })), cursor },
    });
  });

  im.post<P<"user">>("/users/:user/contacts/apply", async (req, reply) => {
    const user = me(req, req.params.user);
    const b = parseBody(imContactApplyReq, req.body);
    const resource = queryOf(req).resource;
    const results: Record<string, string> = {};
    for (const to of b.usernames) {
      results[to.toLowerCase()] = await contacts.apply(user, to.toLowerCase(), b.reason ?? "", resource);
    }
    return replies.send(req, reply, { data: results });
  });

  im.delete<P<"user" | "name">>("/users/:user/contacts/users/:name", async (req, reply) => {
    const user = me(req, req.params.user);
    const other = req.params.name.toLowerCase();
    await contacts.remove(user, other, queryOf(req).resource);
    return replies.send(req, reply, { entities: [{ username: other }] });
  });

  im.put<P<"user" | "name">>("/users/:user/contacts/users/:name", async (req, reply) => {
    const user = me(req, req.params.user);
    const { remark } = parseBody(imRemarkReq, req.body);
    await contacts.setRemark(user, req.params.name.toLowerCase(), remark);
    return replies.send(req, reply, { data: { result: true } });
  });

  im.post<P<"user" | "name">>("/users/:user/contacts/accept/users/:name", async (req, reply) => {
    const user = me(req, req.params.user);
    await contacts.accept(user, req.params.name.toLowerCase(), queryOf(req).resource);
    return replies.send(req, reply, { data: { result: "success" } });
  });

  im.post<P<"user" | "name">>("/users/:user/contacts/decline/users/:name", async (req, reply) => {
    const user = me(req, req.params.user);
    await contacts.decline(user, req.params.name.toLowerCase(), queryOf(req).resource);
    return replies.send(req, reply, { data: { result: "success" } });
  });

  im.get<P<"user">>("/users/:user/blocks/users", async (req, reply) => {
    const user = me(req, req.params.user);
    return replies.send(req, reply, { data: await contacts.blocks(user) });
  });

  im.post<P<"user">>("/sdk/user/:user/blocks", async (req, reply) => {
    const user = me(req, req.params.user);
    const { usernames } = parseBody(imBlocklistReq, req.body);
    return replies.send(req, reply, {
      data: await contacts.block(
        user,
        usernames.map((u) => u.toLowerCase()),
      ),
    });
  });

  im.delete<P<"user">>("/sdk/user/:user/blocks", async (req, reply) => {
    const user = me(req, req.params.user);
    const { usernames } = parseBody(imBlocklistReq, req.body);
    await contacts.unblock(
      user,
      usernames.map((u) => u.toLowerCase()),
    );
    return replies.send(req, reply, { data: usernames.map((u) => u.toLowerCase()) });
  });
}

const IM_LIMITS_ALL = 5000;
