import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import type { Guard } from "../../platform/auth/guard";
import { invalid } from "../../platform/http/errors";
import { createLocalOcr } from "../../platform/ocr";
import { AccountsService, consumeVerificationCode, SubAccountsService } from "../accounts";
import { AgreementsService } from "./agreements";
import type { BrandTokenService } from "./brand-tokens";
import { CommitLetterService } from "./commit-letters";
import type { ReviewQueue } from "../ops";
import { ApiCredentialsService } from "./api-credentials";
import { scheduleExpiry } from "./jobs";
import { ProfileService } from "./profile";
import { RealNameService } from "./realname";
import { onboardingBranderRoutes, onboardingUserRoutes, serviceBindingRoutes } from "./routes";
import { ServiceBindingService } from "./service-binding";

export { ApiCredentialsService } from "./api-credentials";
export { RealNameService, isoDay } from "./realname";
export { ProfileService } from "./profile";
export { BrandTokenService, BRAND_TOKEN_TTL_SECONDS } from "./brand-tokens";
export { servesMerchant } from "./service-binding";

export interface Onboarding {
  realName: RealNameService;
  api: ApiCredentialsService;
  /** Review queues for the operator console. */
  queues: ReviewQueue[];
  readDocumentForReview: (id: number) => Promise<{ data: Buffer; contentType: string }>;
}

/**
 * Builds the onboarding services and mounts their calls: /api/card-user (realNameAuths, agreements,
 * myMenus), /api/card-brander (realNameInfo, brander/profile, api, passport/sub) and /api/card-servicer
 * (service-provider binding). Starts the expiry job.
 */
export async function registerOnboarding(app: FastifyInstance, ctx: AppContext, guard: Guard, brandTokens: BrandTokenService): Promise<Onboarding> {
  const db = ctx.database.db;
  const subAccounts = new SubAccountsService({ db, hasher: ctx.hasher, clock: ctx.clock });
  const realName = new RealNameService({ db, clock: ctx.clock, storage: ctx.storage, ocr: createLocalOcr() });
  const profile = new ProfileService({ db, clock: ctx.clock, storage: ctx.storage });
  // The accounts service checks the agreement's and the secret view's SMS codes (it owns verification codes).
  const accounts = new AccountsService({ db, config: ctx.config, clock: ctx.clock, hasher: ctx.hasher, secret: ctx.secret, mailer: ctx.mailer, sms: ctx.sms });
  const api = new ApiCredentialsService({
    db,
    clock: ctx.clock,
    secret: ctx.secret,
    checkPassword: (actor, pw) => subAccounts.checkPassword(actor, pw),
    smsProof: {
      check: async (actor, code) => {
        const { phone } = await accounts.userInfo(actor);
        if (!phone) throw invalid("transfer.bindPhoneFirst", "smsCode");
        return accounts.checkSmsCode(phone, "viewApiSecret", code);
      },
      consume: consumeVerificationCode,
    },
  });
  const agreements = new AgreementsService({
    db,
    clock: ctx.clock,
    checkSmsCode: (phone, code) => accounts.checkSmsCode(phone, "signAgreement", code),
    consumeCode: consumeVerificationCode,
  });
  const bindings = new ServiceBindingService({ db, clock: ctx.clock });
  const letters = new CommitLetterService({ db, clock: ctx.clock, storage: ctx.storage });
  const deps = { guard, profile, realName, api, subAccounts, agreements, bindings, brandTokens, letters };
  await app.register(onboardingUserRoutes(deps), { prefix: "/api/card-user" });
  await app.register(onboardingBranderRoutes(deps), { prefix: "/api/card-brander" });
  await app.register(serviceBindingRoutes(deps), { prefix: "/api/card-servicer" });
  scheduleExpiry(app, realName);
  return { realName, api, queues: [realName.queue(), api.queue()], readDocumentForReview: (id) => realName.readDocumentForReview(id) };
}
