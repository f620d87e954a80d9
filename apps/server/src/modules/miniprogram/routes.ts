import {
  envelope,
  mpAuthCallbackReq,
  mpAuthUrlReply,
  mpBetaQrReply,
  mpCategoriesReply,
  mpCommitReq,
  mpConfig,
  mpConfigBrief,
  mpConfigIdQuery,
  mpConfigPage,
  mpConfigQuery,
  mpConfigReq,
  mpHostNamesReply,
  mpNeedAuthReply,
  mpQuotaReply,
  mpSubmitReq,
  mpTemplate,
  mpTemplateParamsReply,
  mpTemplateParamsReq,
  mpTemplateQuery,
  mpVersionsReply,
} from "@tessera/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { actorOf, type Guard } from "../../platform/auth/guard";
import { ok } from "../../platform/http/envelope";
import { idParam } from "../../platform/http/route";
import { serveUserFile } from "../../platform/storage/serve";
import type { MiniprogramService } from "./service";
import { MP_PAGES, docs, keyParam, originOf } from "./routes.common";

export { MP_PAGES } from "./routes.common";
export { accountRoutes } from "./accounts.routes";
export { localPlatformRoutes, miniprogramOpsRoutes } from "./ops.routes";

/** Mini-program calls of spec 01 §7 (purchasers, brands, providers), under /api/card-user. */
export function miniprogramRoutes({ mp, guard }: { mp: MiniprogramService; guard: Guard }): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    const pre = guard({ roles: ["sale", "business", "providers"], menu: MP_PAGES, brandToken: false });
    const p = "/miniProgram";
    app.get(
      `${p}/needAuth`,
      {
        schema: {
          ...docs,
          summary: "Whether the config's mini-program must be (re)authorised",
          querystring: mpConfigIdQuery,
          response: { 200: envelope(mpNeedAuthReply) },
        },
        preHandler: pre,
      },
      async (req) => ok(await mp.needAuth(actorOf(req), req.query.configId)),
    );
    app.get(
      `${p}/authUrl`,
      {
        schema: {
          ...docs,
          summary: "The platform's consent page (pre-auth code), returning to `redirect` with auth_code",
          querystring: mpConfigIdQuery.extend({ redirect: z.string().max(300).default("/sale/EquityApplet") }),
          response: { 200: envelope(mpAuthUrlReply) },
        },
        preHandler: pre,
      },
      async (req) => ok(await mp.authUrl(actorOf(req), req.query.configId, req.query.redirect, originOf(req))),
    );
    app.put(
      `${p}/authCallback`,
      {
        schema: {
          ...docs,
          summary: "Bind the authorised app with the consent page's auth code",
          body: mpAuthCallbackReq,
          response: { 200: envelope(mpConfig) },
        },
        preHandler: pre,
      },
      async (req) => ok(await mp.authCallback(actorOf(req), req.body.configId, req.body.authCode)),
    );
    app.get(
      `${p}/mpConfigs`,
      {
        schema: {
          ...docs,
          summary: "The merchant's mall configs",
          querystring: mpConfigQuery,
          response: { 200: envelope(mpConfigPage) },
        },
        preHandler: pre,
      },
      async (req) => ok(await mp.list(actorOf(req), req.query)),
    );
    app.get(
      `${p}/mpConfigs/all`,
      {
        schema: {
          ...docs,
          summary: "Every mall config of the merchant (for choosers)",
          response: { 200: envelope(z.object({ list: z.array(mpConfigBrief) })) },
        },
        preHandler: pre,
      },
      async (req) => ok({ list: await mp.all(actorOf(req)) }),
    );
    app.get(
      `${p}/mpConfigs/:id`,
      {
        schema: {
          ...docs,
          summary: "One mall config with its trial, audit and online versions",
          params: idParam,
          response: { 200: envelope(mpConfig) },
        },
        preHandler: pre,
      },
      async (req) => ok(await mp.get(actorOf(req), req.params.id)),
    );
    app.put(
      `${p}/mpConfigs`,
      {
        schema: {
          ...docs,
          summary: "Create (no id) or update a mall config",
          body: mpConfigReq,
          response: { 200: envelope(mpConfig) },
        },
        preHandler: pre,
      },
      async (req) => ok(await mp.save(actorOf(req), req.body)),
    );
    app.get(
      `${p}/templates`,
      {
        schema: {
          ...docs,
          summary: "The template library of a platform",
          querystring: mpTemplateQuery,
          response: { 200: envelope(z.object({ list: z.array(mpTemplate) })) },
        },
        preHandler: pre,
      },
      async (req) => ok({ list: await mp.templates(req.query.platform) }),
    );
    app.get(
      `${p}/templateParams`,
      {
        schema: {
          ...docs,
          summary: "The config's template and its params",
          querystring: mpConfigIdQuery,
          response: { 200: envelope(mpTemplateParamsReply) },
        },
        preHandler: pre,
      },
      async (req) => ok(await mp.templateParams(actorOf(req), req.query.configId)),
    );
    app.post(
      `${p}/templateParams`,
      {
        schema: {
          ...docs,
          summary: "Choose the config's template and set its params",
          body: mpTemplateParamsReq,
          response: { 200: envelope(mpTemplateParamsReply) },
        },
        preHandler: pre,
      },
      async (req) => ok(await mp.saveTemplateParams(actorOf(req), req.body)),
    );
    app.put(
      `${p}/mpConfigs/:id/commit`,
      {
        schema: {
          ...docs,
          summary: "Upload the code with the config (ext_json): a new experience version",
          params: idParam,
          body: mpCommitReq,
          response: { 200: envelope(mpConfig) },
        },
        preHandler: pre,
      },
      async (req) => ok(await mp.commit(actorOf(req), req.params.id, req.body)),
    );
    app.get(
      `${p}/mpConfig/:id/betaQrcode`,
      {
        schema: {
          ...docs,
          summary: "The experience version's QR (PNG) opening the mall preview",
          params: idParam,
          response: { 200: envelope(mpBetaQrReply) },
        },
        preHandler: pre,
      },
      async (req) => ok(await mp.betaQrcode(actorOf(req), req.params.id, originOf(req))),
    );
    app.get(
      `${p}/mpConfig/:id/categories`,
      {
        schema: {
          ...docs,
          summary: "Categories the app may be reviewed under",
          params: idParam,
          response: { 200: envelope(mpCategoriesReply) },
        },
        preHandler: pre,
      },
      async (req) => ok(await mp.categories(actorOf(req), req.params.id)),
    );
    app.put(
      `${p}/mpConfig/:id/submit`,
      {
        schema: {
          ...docs,
          summary: "Submit the experience version for review",
          params: idParam,
          body: mpSubmitReq,
          response: { 200: envelope(mpConfig) },
        },
        preHandler: pre,
      },
      async (req) => ok(await mp.submit(actorOf(req), req.params.id, req.body)),
    );
    app.put(
      `${p}/mpConfig/:id/release`,
      {
        schema: {
          ...docs,
          summary: "Publish the approved version",
          params: idParam,
          response: { 200: envelope(mpConfig) },
        },
        preHandler: pre,
      },
      async (req) => ok(await mp.release(actorOf(req), req.params.id)),
    );
    app.put(
      `${p}/mpConfig/:id/withdraw`,
      {
        schema: {
          ...docs,
          summary: "Withdraw the version under review (5 a day, 10 a month)",
          params: idParam,
          response: { 200: envelope(mpConfig) },
        },
        preHandler: pre,
      },
      async (req) => ok(await mp.withdraw(actorOf(req), req.params.id)),
    );
    app.put(
      `${p}/mpConfig/:id/rollback`,
      {
        schema: {
          ...docs,
          summary: "Put the previous release back online",
          params: idParam,
          response: { 200: envelope(mpConfig) },
        },
        preHandler: pre,
      },
      async (req) => ok(await mp.rollback(actorOf(req), req.params.id)),
    );
    app.get(
      `${p}/mpConfig/:id/versions`,
      {
        schema: {
          ...docs,
          summary: "Version history",
          params: idParam,
          response: { 200: envelope(mpVersionsReply) },
        },
        preHandler: pre,
      },
      async (req) => ok(await mp.versions(actorOf(req), req.params.id)),
    );
    app.get(
      `${p}/mpConfig/:id/quota`,
      {
        schema: {
          ...docs,
          summary: "Review quota and withdrawals left",
          params: idParam,
          response: { 200: envelope(mpQuotaReply) },
        },
        preHandler: pre,
      },
      async (req) => ok(await mp.quota(actorOf(req), req.params.id)),
    );
    app.get(
      `${p}/screenshots/:key`,
      {
        schema: { ...docs, summary: "A screenshot the reviewer attached to a rejection", params: keyParam },
        preHandler: pre,
      },
      async (req, reply) =>
        serveUserFile(
          reply,
          { contentType: req.params.key.endsWith(".png") ? "image/png" : "image/jpeg" },
          await mp.screenshot(actorOf(req), req.params.key),
        ),
    );

    // The short-video platform's set (Douyin), spec §7 "the same set under tiktok/".
    const t = "/tiktok";
    const douyinReq = mpConfigReq.omit({ id: true, platform: true });
    app.get(
      `${t}/miniPrograms`,
      {
        schema: {
          ...docs,
          summary: "Douyin mini-programs of the merchant",
          querystring: mpConfigQuery.omit({ platform: true }),
          response: { 200: envelope(mpConfigPage) },
        },
        preHandler: pre,
      },
      async (req) => ok(await mp.list(actorOf(req), { ...req.query, platform: "douyin" })),
    );
    app.post(
      `${t}/miniPrograms`,
      {
        schema: {
          ...docs,
          summary: "Create a Douyin mini-program config",
          body: douyinReq,
          response: { 200: envelope(mpConfig) },
        },
        preHandler: pre,
      },
      async (req) => ok(await mp.save(actorOf(req), { ...req.body, platform: "douyin" }, "douyin")),
    );
    app.put(
      `${t}/miniPrograms/:id`,
      {
        schema: {
          ...docs,
          summary: "Update a Douyin mini-program config",
          params: idParam,
          body: douyinReq,
          response: { 200: envelope(mpConfig) },
        },
        preHandler: pre,
      },
      async (req) => ok(await mp.save(actorOf(req), { ...req.body, id: req.params.id, platform: "douyin" }, "douyin")),
    );
    app.put(
      `${t}/miniPrograms/:id/commit`,
      {
        schema: {
          ...docs,
          summary: "package/upload: a new test version",
          params: idParam,
          body: mpCommitReq,
          response: { 200: envelope(mpConfig) },
        },
        preHandler: pre,
      },
      async (req) => ok(await mp.commit(actorOf(req), req.params.id, req.body, "douyin")),
    );
    app.put(
      `${t}/miniPrograms/:id/submit`,
      {
        schema: {
          ...docs,
          summary: "package/audit on the chosen host apps",
          params: idParam,
          body: mpSubmitReq,
          response: { 200: envelope(mpConfig) },
        },
        preHandler: pre,
      },
      async (req) => ok(await mp.submit(actorOf(req), req.params.id, req.body, "douyin")),
    );
    app.put(
      `${t}/miniPrograms/:id/release`,
      {
        schema: { ...docs, summary: "package/release", params: idParam, response: { 200: envelope(mpConfig) } },
        preHandler: pre,
      },
      async (req) => ok(await mp.release(actorOf(req), req.params.id, "douyin")),
    );
    app.get(
      `${t}/hostNames`,
      {
        schema: {
          ...docs,
          summary: "Douyin host apps and the last review's result on each",
          querystring: mpConfigIdQuery,
          response: { 200: envelope(mpHostNamesReply) },
        },
        preHandler: pre,
      },
      async (req) => ok(await mp.hostNames(actorOf(req), req.query.configId)),
    );
  };
}
