import {
  envelope,
  mpAccount,
  mpAccountAuthUrlQuery,
  mpAccountCallbackReq,
  mpAuthUrlReply,
  mpLifeBrandsReply,
  mpOfficialReply,
  mpTemplateMessageReq,
} from "@tessera/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { actorOf, type Guard } from "../../platform/auth/guard";
import { ok } from "../../platform/http/envelope";
import { idParam } from "../../platform/http/route";
import type { BoundAccounts } from "./accounts.service";
import { docs, originOf } from "./routes.common";

/**
 * Official accounts (WechatOfficial, DockWechat) and local-life accounts (LocaLivePlatform), under
 * /api/card-user: bind through the platform's consent, show, unbind; the official account's menu of the
 * mall links and template messages.
 */
export function accountRoutes({ accounts, guard }: { accounts: BoundAccounts; guard: Guard }): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    const official = guard({
      roles: ["sale", "business"],
      menu: ["sale/WechatOfficial", "business/DockWechat"],
      brandToken: false,
    });
    const o = "/officialAccount";
    app.get(
      o,
      {
        schema: {
          ...docs,
          summary: "The bound official account, its menu links, templates and the platform's answers",
          response: { 200: envelope(mpOfficialReply) },
        },
        preHandler: official,
      },
      async (req) => ok(await accounts.official(actorOf(req), originOf(req))),
    );
    app.get(
      `${o}/authUrl`,
      {
        schema: {
          ...docs,
          summary: "The platform's consent page for an official account (auth_type 1)",
          querystring: mpAccountAuthUrlQuery,
          response: { 200: envelope(mpAuthUrlReply) },
        },
        preHandler: official,
      },
      async (req) =>
        ok(await accounts.authUrl(actorOf(req), "official", { redirect: req.query.redirect }, originOf(req))),
    );
    app.put(
      `${o}/authCallback`,
      {
        schema: {
          ...docs,
          summary: "Bind the authorised official account with the consent page's auth code",
          body: mpAccountCallbackReq,
          response: { 200: envelope(mpAccount) },
        },
        preHandler: official,
      },
      async (req) => ok(await accounts.callback(actorOf(req), "official", { authCode: req.body.authCode })),
    );
    app.delete(
      o,
      {
        schema: {
          ...docs,
          summary: "Unbind the official account",
          response: { 200: envelope(z.object({ unbound: z.literal(true) })) },
        },
        preHandler: official,
      },
      async (req) => ok(await accounts.unbind(actorOf(req), "official")),
    );
    app.post(
      `${o}/menu`,
      {
        schema: {
          ...docs,
          summary: "Set the official account's menu to the released malls (menu/create)",
          response: { 200: envelope(mpAccount) },
        },
        preHandler: official,
      },
      async (req) => ok(await accounts.setMenu(actorOf(req), originOf(req))),
    );
    app.post(
      `${o}/templateMessage`,
      {
        schema: {
          ...docs,
          summary: "Send a template message to a follower (message/template/send)",
          body: mpTemplateMessageReq,
          response: { 200: envelope(z.object({ msgId: z.string() })) },
        },
        preHandler: official,
      },
      async (req) => ok(await accounts.sendTemplate(actorOf(req), req.body, originOf(req))),
    );

    const life = guard({ roles: ["providers"], menu: "providers/LocaLivePlatform", brandToken: false });
    const l = "/localLife";
    app.get(
      `${l}/brands`,
      {
        schema: {
          ...docs,
          summary: "The brands served and their local-life authorisation",
          response: { 200: envelope(mpLifeBrandsReply) },
        },
        preHandler: life,
      },
      async (req) => ok(await accounts.lifeBrands(actorOf(req))),
    );
    app.get(
      `${l}/authUrl`,
      {
        schema: {
          ...docs,
          summary: "The local-life platform's consent page for a served brand",
          querystring: mpAccountAuthUrlQuery,
          response: { 200: envelope(mpAuthUrlReply) },
        },
        preHandler: life,
      },
      async (req) => ok(await accounts.authUrl(actorOf(req), "life", req.query, originOf(req))),
    );
    app.put(
      `${l}/authCallback`,
      {
        schema: {
          ...docs,
          summary: "Bind the authorised local-life account to the brand",
          body: mpAccountCallbackReq,
          response: { 200: envelope(mpAccount) },
        },
        preHandler: life,
      },
      async (req) => ok(await accounts.callback(actorOf(req), "life", req.body)),
    );
    app.delete(
      `${l}/:id`,
      {
        schema: {
          ...docs,
          summary: "Unbind a brand's local-life account",
          params: idParam,
          response: { 200: envelope(z.object({ unbound: z.literal(true) })) },
        },
        preHandler: life,
      },
      async (req) => ok(await accounts.unbind(actorOf(req), "life", req.params.id)),
    );
  };
}
