import {
  CODE,
  envelope,
  mpAuditPage,
  mpAuditQuery,
  mpAuthorizeReply,
  mpAuthorizeReq,
  mpPreauthInfo,
  mpRejectReq,
  mpTemplate,
  mpTemplateQuery,
  mpTemplateReq,
  MP_PLATFORMS,
  type MpPlatform,
} from "@tessera/contracts";
import { randomBytes } from "node:crypto";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { actorOf, type Guard } from "../../platform/auth/guard";
import { ok } from "../../platform/http/envelope";
import { AppError } from "../../platform/http/errors";
import type { FileStorage } from "../../platform/storage";
import { serveUserFile } from "../../platform/storage/serve";
import type { LocalPlatform } from "../../platform/adapters/miniprogram";
import { idParam, pathId } from "../../platform/http/route";
import type { MiniprogramService } from "./service";
import { docs, done, keyParam, originOf } from "./routes.common";

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
          tags: docs.tags,
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
          tags: docs.tags,
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
          ...docs,
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
          ...docs,
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
          ...docs,
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
          ...docs,
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
    const auditParam = platformParam.extend({ auditId: pathId });
    app.get(
      "/:platform/audits",
      {
        schema: {
          ...docs,
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
      await mp.recordReviewDecision(operatorId, { platform, auditId, status, reason });
      return ok({ decided: true as const });
    };
    app.put(
      "/:platform/audits/:auditId/approve",
      {
        schema: {
          ...docs,
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
          ...docs,
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
          ...docs,
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
          ...docs,
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
        schema: { ...docs, summary: "A screenshot attached to a rejection", params: keyParam },
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
