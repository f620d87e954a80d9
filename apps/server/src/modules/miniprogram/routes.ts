import {
  CODE,
  envelope,
  mpAccount,
  mpAccountAuthUrlQuery,
  mpAccountCallbackReq,
  mpAuditPage,
  mpAuditQuery,
  mpAuthCallbackReq,
  mpAuthorizeReply,
  mpAuthorizeReq,
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
  mpLifeBrandsReply,
  mpOfficialReply,
  mpNeedAuthReply,
  mpPreauthInfo,
  mpQuotaReply,
  mpRejectReq,
  mpSubmitReq,
  mpTemplate,
  mpTemplateParamsReply,
  mpTemplateParamsReq,
  mpTemplateQuery,
  mpTemplateMessageReq,
  mpTemplateReq,
  mpVersionsReply,
  MP_PLATFORMS,
  type MpPlatform,
} from "@tessera/contracts";
import { randomBytes } from "node:crypto";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { actorOf, type Guard } from "../../platform/auth/guard";
import { ok } from "../../platform/http/envelope";
import { AppError } from "../../platform/http/errors";
import type { FileStorage } from "../../platform/storage";
import { serveUserFile } from "../../platform/storage/serve";
import type { BoundAccounts } from "./accounts.service";
import type { LocalPlatform } from "./local";
import type { MiniprogramService } from "./service";

const tags = ["miniprogram"];
const security = [{ authToken: [] }];
const id = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const idParam = z.object({ id });
const keyParam = z.object({ key: z.string().regex(/^[0-9]+-[0-9]+-[A-Za-z0-9_-]{8,40}\.(?:png|jpg)$/) });
const originOf = (req: FastifyRequest) => `${req.protocol}://${req.host}`;
/** Pages that run a mall config (sub-accounts need one of them). */
export const MP_PAGES = [
  "sale/EquityApplet",
  "international/sale/EquityApplet",
  "providers/TiktokApplet",
  "business/DockWechat",
  "sale/WechatOfficial",
];
const done = z.object({ deleted: z.literal(true) });

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
          tags,
          security,
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
          tags,
          security,
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
          tags,
          security,
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
          tags,
          security,
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
          tags,
          security,
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
          tags,
          security,
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
          tags,
          security,
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
          tags,
          security,
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
          tags,
          security,
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
          tags,
          security,
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
          tags,
          security,
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
          tags,
          security,
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
          tags,
          security,
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
          tags,
          security,
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
          tags,
          security,
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
          tags,
          security,
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
          tags,
          security,
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
          tags,
          security,
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
          tags,
          security,
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
        schema: { tags, security, summary: "A screenshot the reviewer attached to a rejection", params: keyParam },
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
          tags,
          security,
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
          tags,
          security,
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
          tags,
          security,
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
          tags,
          security,
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
          tags,
          security,
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
        schema: { tags, security, summary: "package/release", params: idParam, response: { 200: envelope(mpConfig) } },
        preHandler: pre,
      },
      async (req) => ok(await mp.release(actorOf(req), req.params.id, "douyin")),
    );
    app.get(
      `${t}/hostNames`,
      {
        schema: {
          tags,
          security,
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

const platformParam = z.object({ platform: z.enum(MP_PLATFORMS) });

/** The LOCAL platform's consent page (/api/mp-platform, no login: the pre-auth code is the credential). */
export function localPlatformRoutes({ sims }: { sims: Record<MpPlatform, LocalPlatform> }): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    const codeParam = platformParam.extend({ code: z.string().min(8).max(100) });
    app.get(
      "/:platform/preauth/:code",
      {
        schema: {
          tags,
          summary: "What a pre-auth code asks (the local consent page)",
          params: codeParam,
          response: { 200: envelope(mpPreauthInfo) },
        },
      },
      async (req) => {
        const info = await sims[req.params.platform].preauthInfo(req.params.code);
        return ok({ platform: req.params.platform, ...info });
      },
    );
    app.post(
      "/:platform/preauth/:code/authorize",
      {
        schema: {
          tags,
          summary: "Consent: authorise the named mini-program to the third-party platform",
          params: codeParam,
          body: mpAuthorizeReq,
          response: { 200: envelope(mpAuthorizeReply) },
        },
      },
      async (req) => {
        const r = await sims[req.params.platform].authorize(req.params.code, req.body.nickName);
        if ("refused" in r) {
          throw new AppError(CODE.CONFLICT, r.refused === "taken" ? "mp.appOwnedElsewhere" : "mp.preauthExpired");
        }
        return ok(r);
      },
    );
  };
}

/** Operators (/api/ops/miniprogram): the local platform's review queue and the template library. */
export function miniprogramOpsRoutes({
  mp,
  sims,
  storage,
  guard,
}: {
  mp: MiniprogramService;
  sims: Record<MpPlatform, LocalPlatform> | null;
  storage: FileStorage;
  guard: Guard;
}): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    const pre = guard({ kinds: ["operator"] });
    app.get(
      "/templates",
      {
        schema: {
          tags,
          security,
          summary: "The template library",
          querystring: mpTemplateQuery,
          response: { 200: envelope(z.object({ list: z.array(mpTemplate) })) },
        },
        preHandler: pre,
      },
      async (req) => ok({ list: await mp.templates(req.query.platform) }),
    );
    app.post(
      "/templates",
      {
        schema: {
          tags,
          security,
          summary: "Add a template (from a draft) to the library",
          body: mpTemplateReq,
          response: { 200: envelope(mpTemplate) },
        },
        preHandler: pre,
      },
      async (req) => ok(await mp.createTemplate(actorOf(req), req.body)),
    );
    app.put(
      "/templates/:id",
      {
        schema: {
          tags,
          security,
          summary: "Change a template",
          params: idParam,
          body: mpTemplateReq,
          response: { 200: envelope(mpTemplate) },
        },
        preHandler: pre,
      },
      async (req) => ok(await mp.updateTemplate(actorOf(req), req.params.id, req.body)),
    );
    app.delete(
      "/templates/:id",
      {
        schema: {
          tags,
          security,
          summary: "Delete a template no config uses",
          params: idParam,
          response: { 200: envelope(done) },
        },
        preHandler: pre,
      },
      async (req) => ok(await mp.deleteTemplate(actorOf(req), req.params.id)),
    );
    if (!sims) return;
    const local = sims;
    const auditParam = platformParam.extend({ auditId: id });
    app.get(
      "/:platform/audits",
      {
        schema: {
          tags,
          security,
          summary: "The local platform's reviews (status 2 auditing, 4 delayed, 0 approved, 1 rejected, 3 withdrawn)",
          params: platformParam,
          querystring: mpAuditQuery,
          response: { 200: envelope(mpAuditPage) },
        },
        preHandler: pre,
      },
      async (req) => {
        const r = await local[req.params.platform].audits(req.query);
        const configs = await mp.configsOfApps(r.list.map((a) => a.appId));
        return ok({
          page: req.query.page,
          pageSize: req.query.pageSize,
          total: r.total,
          list: r.list.map((a) => ({
            auditId: a.auditId,
            platform: a.platform,
            appId: a.appId,
            appName: a.appName,
            merchantId: configs.get(a.appId) ?? null,
            userVersion: a.version.userVersion,
            userDesc: a.version.userDesc,
            status: a.status,
            categories: a.itemList,
            hostNames: a.hostNames,
            reason: a.reason,
            screenshots: a.screenshots,
            previewUrl: `${originOf(req)}/mall/${encodeURIComponent(a.appId)}?v=beta`,
            submittedAt: a.submittedAt.toISOString(),
            decidedAt: a.decidedAt ? a.decidedAt.toISOString() : null,
          })),
        });
      },
    );
    const decided = z.object({ decided: z.literal(true) });
    const decide = async (
      platform: MpPlatform,
      auditId: number,
      status: 0 | 1 | 4,
      operatorId: number,
      reason: string | null,
      shots: string[],
    ) => {
      if (!(await local[platform].auditExists(auditId))) throw new AppError(CODE.NOT_FOUND, "mp.auditNotFound");
      if (!(await local[platform].decide(auditId, status, operatorId, reason, shots))) {
        throw new AppError(CODE.CONFLICT, "mp.auditNotPending");
      }
      return ok({ decided: true as const });
    };
    app.put(
      "/:platform/audits/:auditId/approve",
      {
        schema: {
          tags,
          security,
          summary: "Approve a review (push weapp_audit_success)",
          params: auditParam,
          response: { 200: envelope(decided) },
        },
        preHandler: pre,
      },
      async (req) => decide(req.params.platform, req.params.auditId, 0, actorOf(req).userId, null, []),
    );
    app.put(
      "/:platform/audits/:auditId/delay",
      {
        schema: {
          tags,
          security,
          summary: "Delay a review (push weapp_audit_delay; a final decision follows)",
          params: auditParam,
          response: { 200: envelope(decided) },
        },
        preHandler: pre,
      },
      async (req) => decide(req.params.platform, req.params.auditId, 4, actorOf(req).userId, null, []),
    );
    app.put(
      "/:platform/audits/:auditId/reject",
      {
        schema: {
          tags,
          security,
          summary: "Reject a review with a reason and screenshots (push weapp_audit_fail)",
          params: auditParam,
          body: mpRejectReq,
          response: { 200: envelope(decided) },
        },
        preHandler: pre,
      },
      async (req) => {
        const { platform, auditId } = req.params;
        if (!(await local[platform].auditExists(auditId))) throw new AppError(CODE.NOT_FOUND, "mp.auditNotFound");
        const keys: string[] = [];
        for (const [n, dataUrl] of req.body.screenshots.entries()) {
          const png = dataUrl.startsWith("data:image/png");
          const data = Buffer.from(dataUrl.slice(dataUrl.indexOf(",") + 1), "base64");
          if (data.length === 0 || data.length > 1024 * 1024) {
            throw new AppError(CODE.INVALID_PARAMETER, "mp.screenshotInvalid", {}, "screenshots");
          }
          const key = `${auditId}-${n}-${randomBytes(9).toString("base64url")}.${png ? "png" : "jpg"}`;
          await storage.put(`mp-audit/${key}`, data);
          keys.push(key);
        }
        return decide(platform, auditId, 1, actorOf(req).userId, req.body.reason, keys);
      },
    );
    app.put(
      "/:platform/apps/:appId/revoke",
      {
        schema: {
          tags,
          security,
          summary: "The merchant cancels the authorisation on the platform (push unauthorized)",
          params: platformParam.extend({ appId: z.string().max(40) }),
          response: { 200: envelope(z.object({ revoked: z.boolean() })) },
        },
        preHandler: pre,
      },
      async (req) => ok({ revoked: await local[req.params.platform].revoke(req.params.appId) }),
    );
    app.get(
      "/screenshots/:key",
      {
        schema: { tags, security, summary: "A screenshot attached to a rejection", params: keyParam },
        preHandler: pre,
      },
      async (req, reply) => {
        const data = await storage.get(`mp-audit/${req.params.key}`);
        if (!data) throw new AppError(CODE.NOT_FOUND, "error.notFound");
        return serveUserFile(
          reply,
          { contentType: req.params.key.endsWith(".png") ? "image/png" : "image/jpeg" },
          data,
        );
      },
    );
  };
}

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
          tags,
          security,
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
          tags,
          security,
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
          tags,
          security,
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
          tags,
          security,
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
          tags,
          security,
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
          tags,
          security,
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
          tags,
          security,
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
          tags,
          security,
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
          tags,
          security,
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
          tags,
          security,
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
