import { invalid } from "../../platform/http/errors";
import type { ModuleHost } from "../../platform/module";
import { createLocalOcr } from "../../platform/adapters/ocr";
import { consumeVerificationCode, SubAccountsService, type AccountsService } from "../accounts";
import { AgreementsService } from "./agreements";
import { BrandTokenService } from "./brand-tokens";
import { CommitLetterService } from "./commit-letters";
import type { ReviewQueue } from "../ops";
import { ApiCredentialsService } from "./api-credentials";
import { realNameExpiryJob } from "./jobs";
import { ProfileService } from "./profile";
import { RealNameService } from "./realname";
import { onboardingBranderRoutes, onboardingUserRoutes, serviceBindingRoutes } from "./routes";
import { servesMerchant, ServiceBindingService } from "./service-binding";

export { ApiCredentialsService } from "./api-credentials";
export { RealNameService, isoDay } from "./realname";
export { ProfileService } from "./profile";
export { BrandTokenService, BRAND_TOKEN_TTL_SECONDS } from "./brand-tokens";
export { activeBindings } from "./served.repo";

export interface OnboardingModule {
  realName: RealNameService;
  api: ApiCredentialsService;
  /** Review queues for the operator console. */
  queues: ReviewQueue[];
  readDocumentForReview: (id: number) => Promise<{ data: Buffer; contentType: string }>;
  /** Whether a service provider serves a merchant (an active binding). */
  serves: (providerId: number, merchantId: number) => Promise<boolean>;
}

/**
 * Builds the onboarding services and mounts their calls: /api/card-user (realNameAuths, agreements,
 * myMenus), /api/card-brander (realNameInfo, brander/profile, api, passport/sub) and /api/card-servicer
 * (service-provider binding). A brand token (a service provider acting inside a brand it serves) is the
 * guard's second way in. Runs the real-name expiry job.
 */
export async function registerOnboarding(
  host: ModuleHost,
  { accounts }: { accounts: AccountsService },
): Promise<OnboardingModule> {
  const { ctx, db, guard } = host;
  const brandTokens = new BrandTokenService({ db, clock: ctx.clock });
  host.authenticateWith((token) => brandTokens.authenticate(token));
  const subAccounts = new SubAccountsService({ db, hasher: ctx.hasher, clock: ctx.clock, im: accounts.im });
  const realName = new RealNameService({ db, clock: ctx.clock, storage: ctx.storage, ocr: createLocalOcr() });
  const profile = new ProfileService({ db, clock: ctx.clock, storage: ctx.storage });
  // The accounts service checks the agreement's and the secret view's SMS codes (it owns verification codes).
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
  await host.mount("/api/card-user", onboardingUserRoutes(deps));
  await host.mount("/api/card-brander", onboardingBranderRoutes(deps));
  await host.mount("/api/card-servicer", serviceBindingRoutes(deps));
  host.schedule(realNameExpiryJob(realName));
  return {
    realName,
    api,
    queues: [realName.queue(), api.queue()],
    readDocumentForReview: (id) => realName.readDocumentForReview(id),
    serves: (providerId, merchantId) => servesMerchant(db, providerId, merchantId),
  };
}
