import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { actorOf, parseBody } from "./http";
import type { RouteContext } from "./plugin";

type P<T extends string> = { Params: Record<T, string> };

/** The member attribute a group name card is (the clients set it with setGroupMemberAttributes). */
const NAME_CARD_KEY = "nickName";
const nameCardsReq = z.object({ members: z.array(z.string().min(1).max(64)).min(1).max(100) });

/**
 * Group name cards in one call (the chat SDK 5 in easemob-chat-uikit 3.x asks for the senders of the
 * messages it shows): each member's `nickName` attribute, by user; a member without one is left out
 * and the reply's `timestamp` tells the client it has none. Members only, as for member attributes.
 */
export function nameCardRoutes(im: FastifyInstance, { svc, replies }: RouteContext): void {
  im.post<P<"id">>("/sdk/chatgroups/:id/nameCard/batch/get", async (req, reply) => {
    const { members } = parseBody(nameCardsReq, req.body);
    const names = [...new Set(members.map((m) => m.toLowerCase()))];
    const attrs = await svc.groups.memberAttributes(actorOf(req), req.params.id, names, [NAME_CARD_KEY]);
    const namecards: Record<string, string> = {};
    for (const [user, values] of Object.entries(attrs)) {
      const card = values[NAME_CARD_KEY];
      if (card !== undefined && card !== "") namecards[user] = card;
    }
    return replies.send(req, reply, { data: { namecards }, timestamp: svc.deps.clock.now().getTime() });
  });
}
