import {
  apiApplyReq,
  apiInfoReply,
  apiIpReq,
  agreementTemplateReply,
  brandTokenReply,
  commitLetter,
  apiPasswordReq,
  apiViewReq,
  apiSecretReply,
  bizLicenseTextReply,
  DOCUMENT_KINDS,
  documentReply,
  envelope,
  idTextReply,
  imageTextQuery,
  IMAGE_MAX_BYTES,
  industryReq,
  myMenusReply,
  pageOf,
  providerBrandsReq,
  serviceBinding,
  serviceBindReq,
  serviceKindQuery,
  paymentAccountReply,
  profileReply,
  profileUpdateReq,
  realNameInfoReply,
  realNameSubmitReq,
  signAgreementReq,
  signedAgreement,
  subAccount,
  subAddReq,
  subSearchQuery,
  subUpdateReq,
} from "@tessera/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { actorOf, type Guard } from "../../platform/auth/guard";
import { ok } from "../../platform/http/envelope";
import { invalid } from "../../platform/http/errors";
import { acceptMultipart, readMultipart } from "../../platform/http/multipart";
import { routeDocs } from "../../platform/http/route";
import { serveUserFile } from "../../platform/storage/serve";
import type { SubAccountsService } from "../accounts";
import type { AgreementsService } from "./agreements";
import type { ApiCredentialsService } from "./api-credentials";
import { acceptForm } from "./form";
import type { ProfileService } from "./profile";
import type { ServiceBindingService } from "./service-binding";
import type { BrandTokenService } from "./brand-tokens";
import type { CommitLetterService } from "./commit-letters";
import type { RealNameService } from "./realname";

/** Page keys (web route names) each group of calls serves: a sub-account needs one of them. */
export const MENUS = {
  profile: ["sale/BasicInformation", "business/BasicInfo", "providers/EssentialInfo"],
  realName: ["sale/Authentication", "business/AuthenticationB", "providers/AuthenticationP"],
  funds: ["sale/Authentication", "business/AuthenticationB", "providers/AuthenticationP", "sale/FundRelated"],
  api: ["sale/ApiSecurity", "business/ApiSecurityB"],
  commitLetter: ["sale/commitLetter"],
  serviceBind: ["sale/ServiceBind", "business/ServiceBind"],
  providerLists: ["providers/BrandsList", "providers/VendorList"],
} as const;

const docs = routeDocs("onboarding");
const idParam = z.object({ id: z.string().regex(/^\d{1,18}$/) });
/** Uploads: one image of at most 5 MB plus the multipart framing. */
const UPLOAD_LIMIT = IMAGE_MAX_BYTES + 64 * 1024;

export interface OnboardingRouteDeps {
  guard: Guard;
  profile: ProfileService;
  realName: RealNameService;
  api: ApiCredentialsService;
  subAccounts: SubAccountsService;
  agreements: AgreementsService;
  bindings: ServiceBindingService;
  brandTokens: BrandTokenService;
  letters: CommitLetterService;
}

async function fileOf(req: Parameters<typeof readMultipart>[0]): Promise<Buffer> {
  const file = (await readMultipart(req)).files.find((f) => f.field === "file");
  if (!file) throw invalid("profile.imageInvalid", "file");
  return file.data;
}

/** Account calls of onboarding (spec 01 §7 realNameAuths), mounted under /api/card-user. */
export function onboardingUserRoutes({
  guard,
  profile,
  realName,
  subAccounts,
  agreements,
  letters,
}: OnboardingRouteDeps): FastifyPluginAsyncZod {
  return async (app) => {
    await acceptMultipart(app, UPLOAD_LIMIT);
    const realNamePages = guard({ menu: MENUS.realName });

    app.post(
      "/realNameAuths/images",
      {
        schema: {
          ...docs,
          summary: "Upload a licence or ID image (multipart field `file`)",
          querystring: z.object({ kind: z.enum(DOCUMENT_KINDS) }),
          response: { 200: envelope(documentReply) },
        },
        preHandler: realNamePages,
      },
      async (req) => ok(await realName.uploadDocument(actorOf(req), req.query.kind, await fileOf(req))),
    );
    app.get(
      "/realNameAuths/images/:id",
      {
        schema: { ...docs, summary: "One of this merchant's uploaded images", params: idParam },
        preHandler: realNamePages,
      },
      async (req, reply) => {
        const doc = await realName.readDocument(actorOf(req), Number(req.params.id));
        return serveUserFile(reply, { contentType: doc.contentType, cacheControl: "private, no-store" }, doc.data);
      },
    );
    app.get(
      "/realNameAuths/bizLicenseImageText",
      {
        schema: {
          ...docs,
          summary: "Text read from a licence image",
          querystring: imageTextQuery,
          response: { 200: envelope(bizLicenseTextReply) },
        },
        preHandler: realNamePages,
      },
      async (req) => ok(await realName.bizLicenseText(actorOf(req), Number(req.query.documentId))),
    );
    app.get(
      "/realNameAuths/idImageText",
      {
        schema: {
          ...docs,
          summary: "Text read from an ID image",
          querystring: imageTextQuery,
          response: { 200: envelope(idTextReply) },
        },
        preHandler: realNamePages,
      },
      async (req) => ok(await realName.idText(actorOf(req), Number(req.query.documentId))),
    );
    app.post(
      "/realNameAuths",
      {
        schema: {
          ...docs,
          summary: "Submit the confirmed fields for review",
          body: realNameSubmitReq,
          response: { 200: envelope(realNameInfoReply) },
        },
        preHandler: realNamePages,
      },
      async (req) => ok(await realName.submit(actorOf(req), req.body)),
    );
    app.get(
      "/realNameAuths/paymentAccount",
      {
        schema: {
          ...docs,
          summary: "The reserve/payment account and its holder",
          response: { 200: envelope(paymentAccountReply) },
        },
        preHandler: guard({ menu: MENUS.funds }),
      },
      async (req) => ok(await realName.paymentAccount(actorOf(req))),
    );
    app.put(
      "/realNameAuths/:merchId/industries",
      {
        schema: {
          ...docs,
          summary: "Set the merchant's industry",
          params: z.object({ merchId: z.string().max(20) }),
          body: industryReq,
          response: { 200: envelope(profileReply) },
        },
        preHandler: guard({ menu: MENUS.profile }),
      },
      async (req) => ok(await profile.setIndustry(actorOf(req), req.params.merchId, req.body)),
    );
    app.get(
      "/agreements/templates",
      {
        schema: {
          ...docs,
          summary: "The current agreements in the request language, and whether they are signed",
          response: { 200: envelope(z.array(agreementTemplateReply)) },
        },
        preHandler: guard(),
      },
      async (req) => ok(await agreements.templates(actorOf(req), req.lang)),
    );
    app.post(
      "/agreements/sign",
      {
        schema: {
          ...docs,
          summary: "Sign an agreement: consent, phone and its SMS code (scene signAgreement)",
          body: signAgreementReq,
          response: { 200: envelope(signedAgreement) },
        },
        preHandler: guard(),
      },
      async (req) =>
        ok(
          await agreements.sign(actorOf(req), req.body, req.lang, { ip: req.ip, userAgent: req.headers["user-agent"] }),
        ),
    );
    app.get(
      "/agreements",
      {
        schema: {
          ...docs,
          summary: "The merchant's signed agreements",
          response: { 200: envelope(z.array(signedAgreement)) },
        },
        preHandler: guard(),
      },
      async (req) => ok(await agreements.list(actorOf(req))),
    );
    app.get(
      "/agreements/:id",
      {
        schema: {
          ...docs,
          summary: "One signed agreement, as signed",
          params: idParam,
          response: { 200: envelope(signedAgreement) },
        },
        preHandler: guard(),
      },
      async (req) => ok(await agreements.get(actorOf(req), Number(req.params.id))),
    );
    const letterPages = guard({ roles: ["sale"], menu: MENUS.commitLetter });
    app.get(
      "/commitLetters",
      {
        schema: {
          ...docs,
          summary: "The purchaser's commitment letters, newest (current) first",
          response: { 200: envelope(z.array(commitLetter)) },
        },
        preHandler: letterPages,
      },
      async (req) => ok(await letters.list(actorOf(req))),
    );
    app.post(
      "/commitLetters",
      {
        schema: {
          ...docs,
          summary: "Upload a signed commitment letter (multipart field `file`: PDF or image)",
          response: { 200: envelope(z.array(commitLetter)) },
        },
        preHandler: letterPages,
      },
      async (req) => {
        const file = (await readMultipart(req)).files.find((f) => f.field === "file");
        if (!file) throw invalid("agreement.letterInvalid", "file");
        return ok(await letters.upload(actorOf(req), file));
      },
    );
    app.get(
      "/commitLetters/:id",
      { schema: { ...docs, summary: "One uploaded letter", params: idParam }, preHandler: letterPages },
      async (req, reply) => {
        const f = await letters.read(actorOf(req), Number(req.params.id));
        // An image letter shows inline; a PDF downloads (a sandboxed PDF would not render, and the page
        // opens it from a blob anyway).
        return serveUserFile(
          reply,
          { contentType: f.contentType, filename: f.fileName, cacheControl: "private, no-store" },
          f.data,
        );
      },
    );
    app.get(
      "/myMenus",
      {
        schema: {
          ...docs,
          summary: "Pages this user may open (null: all)",
          response: { 200: envelope(myMenusReply) },
        },
        preHandler: guard({ kinds: ["merchant", "operator", "customer"] }),
      },
      (req) => Promise.resolve(ok(subAccounts.myMenus(actorOf(req)))),
    );
  };
}

/** Brand-owner calls of onboarding (spec 01 §7 /api/card-brander). */
export function onboardingBranderRoutes({
  guard,
  profile,
  realName,
  api,
  subAccounts,
}: OnboardingRouteDeps): FastifyPluginAsyncZod {
  return async (app) => {
    await acceptMultipart(app, UPLOAD_LIMIT);
    acceptForm(app);
    const profilePages = guard({ menu: MENUS.profile });
    const apiPages = guard({ menu: MENUS.api });
    const owner = guard();

    app.get(
      "/realNameInfo",
      {
        schema: {
          ...docs,
          summary: "Real-name state and the latest application",
          response: { 200: envelope(realNameInfoReply) },
        },
        preHandler: guard({ menu: MENUS.realName }),
      },
      async (req) => ok(await realName.info(actorOf(req))),
    );
    app.get(
      "/brander/profile",
      {
        schema: {
          ...docs,
          summary: "The company profile (the catalog owns GET brander: the brands)",
          response: { 200: envelope(profileReply) },
        },
        preHandler: profilePages,
      },
      async (req) => ok(await profile.get(actorOf(req))),
    );
    app.post(
      "/brander/profile/update",
      {
        schema: {
          ...docs,
          summary: "Edit the company profile",
          body: profileUpdateReq,
          response: { 200: envelope(profileReply) },
        },
        preHandler: profilePages,
      },
      async (req) => ok(await profile.update(actorOf(req), req.body)),
    );
    app.post(
      "/brander/profile/logo",
      {
        schema: {
          ...docs,
          summary: "Upload the logo (multipart field `file`)",
          response: { 200: envelope(profileReply) },
        },
        preHandler: profilePages,
      },
      async (req) => ok(await profile.uploadLogo(actorOf(req), await fileOf(req))),
    );
    app.get(
      "/brander/profile/logo",
      { schema: { ...docs, summary: "The logo image (WebP)" }, preHandler: profilePages },
      async (req, reply) => {
        const data = await profile.readLogo(actorOf(req));
        return serveUserFile(reply, { contentType: "image/webp", cacheControl: "private, max-age=300" }, data);
      },
    );

    app.get(
      "/brander/api",
      {
        schema: {
          ...docs,
          summary: "API permission, app key, IP allowlist, callback URL",
          response: { 200: envelope(apiInfoReply) },
        },
        preHandler: apiPages,
      },
      async (req) => ok(await api.info(actorOf(req))),
    );
    app.post(
      "/api/apply",
      {
        schema: {
          ...docs,
          summary: "Ask an operator to open API permission",
          body: apiApplyReq,
          response: { 200: envelope(apiInfoReply) },
        },
        preHandler: apiPages,
      },
      async (req) => ok(await api.apply(actorOf(req), req.body)),
    );
    app.post(
      "/api/ip",
      {
        schema: {
          ...docs,
          summary: "Set the IP allowlist and callback URL (form)",
          body: apiIpReq,
          response: { 200: envelope(apiInfoReply) },
        },
        preHandler: apiPages,
      },
      async (req) => ok(await api.setAccessRules(actorOf(req), req.body)),
    );
    app.post(
      "/api/view",
      {
        schema: {
          ...docs,
          summary: "Show the secret again after the password or an SMS code to the user's bound phone (form)",
          body: apiViewReq,
          response: { 200: envelope(apiSecretReply) },
        },
        preHandler: apiPages,
      },
      async (req) => ok(await api.view(actorOf(req), req.body)),
    );
    app.post(
      "/api/reset",
      {
        schema: {
          ...docs,
          summary: "Issue a new secret; the old one stops working (form)",
          body: apiPasswordReq,
          response: { 200: envelope(apiSecretReply) },
        },
        preHandler: apiPages,
      },
      async (req) => ok(await api.reset(actorOf(req), req.body.password)),
    );

    app.get(
      "/brander/passport/sub/search",
      {
        schema: {
          ...docs,
          summary: "Sub-accounts of this merchant",
          querystring: subSearchQuery,
          response: { 200: envelope(pageOf(subAccount)) },
        },
        preHandler: owner,
      },
      async (req) => ok(await subAccounts.search(actorOf(req), req.query)),
    );
    app.post(
      "/passport/sub/add",
      {
        schema: {
          ...docs,
          summary: "Add a sub-account with some of the area's pages",
          body: subAddReq,
          response: { 200: envelope(subAccount) },
        },
        preHandler: owner,
      },
      async (req) => ok(await subAccounts.add(actorOf(req), req.body)),
    );
    app.put(
      "/passport/sub/update",
      {
        schema: {
          ...docs,
          summary: "Change a sub-account's name, pages, password or status (form)",
          body: subUpdateReq,
          response: { 200: envelope(subAccount) },
        },
        preHandler: owner,
      },
      async (req) => ok(await subAccounts.update(actorOf(req), req.body)),
    );
  };
}

/** Service-provider binding (spec 01 §7 Servicer calls), mounted under /api/card-servicer. */
export function serviceBindingRoutes({ guard, bindings, brandTokens }: OnboardingRouteDeps): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    const bindPages = guard({ menu: MENUS.serviceBind });
    app.get(
      "/brander/service",
      {
        schema: {
          ...docs,
          summary: "This merchant's service provider of one kind (brand or vendor), if bound",
          querystring: serviceKindQuery,
          response: { 200: envelope(serviceBinding.nullable()) },
        },
        preHandler: bindPages,
      },
      async (req) => ok(await bindings.current(actorOf(req), req.query.kind)),
    );
    app.post(
      "/brander/service",
      {
        schema: {
          ...docs,
          summary: "Bind a service provider by its merchant ID",
          body: serviceBindReq,
          response: { 200: envelope(serviceBinding) },
        },
        preHandler: bindPages,
      },
      async (req) => ok(await bindings.bind(actorOf(req), req.body)),
    );
    app.post(
      "/brander",
      {
        schema: {
          ...docs,
          summary: "The merchants this provider serves",
          body: providerBrandsReq,
          response: { 200: envelope(pageOf(serviceBinding)) },
        },
        preHandler: guard({ roles: ["providers"], menu: MENUS.providerLists }),
      },
      async (req) => ok(await bindings.served(actorOf(req), req.body)),
    );
    app.post(
      "/brander/:id/token",
      {
        schema: {
          ...docs,
          summary: "Token exchange: a brand token to act inside a bound brand (spec 01 §6)",
          params: idParam,
          response: { 200: envelope(brandTokenReply) },
        },
        preHandler: guard({ roles: ["providers"], menu: MENUS.providerLists }),
      },
      async (req) => ok(await brandTokens.exchange(actorOf(req), Number(req.params.id))),
    );
    app.post(
      "/brander/service/revokeTokens",
      {
        schema: {
          ...docs,
          summary: "The brand revokes every brand token issued for it",
          response: { 200: envelope(z.object({ revoked: z.number().int() })) },
        },
        preHandler: bindPages,
      },
      async (req) => ok({ revoked: await brandTokens.revokeAll(actorOf(req)) }),
    );
    app.delete(
      "/brander/:id",
      {
        schema: {
          ...docs,
          summary: "End a binding (the merchant or its provider)",
          params: idParam,
          response: { 200: envelope(z.null()) },
        },
        preHandler: guard({ menu: [...MENUS.serviceBind, ...MENUS.providerLists] }),
      },
      async (req) => {
        await bindings.remove(actorOf(req), Number(req.params.id));
        return ok(null);
      },
    );
  };
}
