import {
  CODE,
  type CodeScene,
  type LoginReply,
  type LoginReq,
  type RegisterReq,
  type ResetPasswordReq,
  type SendCodeReply,
  type UserEmailReq,
  type UserInfo,
  type UserPhoneReq,
  type ValidateTokenReply,
  type Lang,
  renderMessage,
  seesFunds,
} from "@tessera/contracts";
import type { Config } from "../../config";
import { isUniqueViolation, withTx, type Db, type Tx } from "../../db/tx";
import { audit } from "../../platform/audit";
import type { Actor } from "../../platform/auth/actor";
import { authRevision, SESSION_CACHE_MS } from "../../platform/auth/revision";
import type { Clock } from "../../platform/clock";
import type { PasswordHasher } from "../../platform/crypto/passwords";
import { keyedHash, newNumericCode, newToken, sameHash, tokenHash } from "../../platform/crypto/tokens";
import { AppError, conflict, invalid, tooMany, unauthorized } from "../../platform/http/errors";
import type { RateLimitDeps } from "../../platform/http/rate-limit";
import type { Mailer, SmsSender } from "../../platform/messaging/adapters";
import { isSmsCodeScene } from "../../platform/messaging/sms/kinds";
import { balancesOf } from "../ledger";
import { createMerchant, getMerchant, merchantRoles, presentMerchant } from "../merchants";
import * as repo from "./repo";
import { SessionCache } from "./session-cache";

/** Verification codes: valid 10 minutes, one per minute per address, 10 per hour, 5 tries each. */
export const CODE_TTL_SECONDS = 600;
export const CODE_RESEND_SECONDS = 60;
export const CODE_MAX_PER_HOUR = 10;
export const CODE_MAX_ATTEMPTS = 5;

/** What a code is for, in the recipient's language: every code message names it (issue 40, item 10). */
export function codePurpose(scene: CodeScene, lang: Lang): string {
  return renderMessage(`code.purpose.${scene}`, lang);
}

/**
 * Failed logins per account: the first 3 are free; after that each attempt must wait 5 s, 10 s, 20 s...
 * (doubling); the 6th failure locks the account for 15 minutes. Failures older than 15 minutes are forgotten.
 */
export const LOGIN_FREE_FAILURES = 3;
export const LOGIN_SLOW_BASE_SECONDS = 5;
export const LOGIN_LOCK_AT_FAILURES = 6;
export const LOGIN_LOCK_MINUTES = 15;
export const LOGIN_WINDOW_MINUTES = 15;

/**
 * Failed credentials per client address (routes.ts, on @fastify/rate-limit, shared by every process
 * through Redis when REDIS_URL is set): 30 wrong logins, or 30 wrong verification codes, within 15
 * minutes; then one more every 30 seconds. The per-account and per-code limits above stay: these stop
 * one address from trying many accounts or codes.
 */
export const ADDRESS_FAILURES = 30;
export const ADDRESS_WINDOW_MINUTES = 15;

export interface AccountsDeps {
  db: Db;
  config: Config;
  clock: Clock;
  hasher: PasswordHasher;
  secret: Buffer;
  mailer: Mailer;
  sms: SmsSender;
  im: AccountsIm;
}

/**
 * What accounts asks of the IM service, given by app.ts (accounts is registered first and never imports the
 * IM): the chat users of a new account (u<userId>) and brand (b<merchantId>), and the brand chat's login.
 */
export interface AccountsIm {
  ensureImUser(tx: Tx, username: string, options: { nickname?: string; now: Date }): Promise<void>;
  imUserOfAccount(userId: number): string;
  imUserOfBrand(merchantId: number): string;
  imBrandInfo(
    db: Db,
    ctx: { config: Config; secret: Buffer; clock: Clock },
    ids: { userId: number; merchantId: number },
  ): Promise<{ branderId: string; branderImToken: string; imUser: string; imToken: string; appKey: string }>;
}

const seconds = (n: number) => n * 1000;
const invalidCode = () => new AppError(CODE.CODE_INVALID, "code.invalid");

/** Opens another module's sealed token: the session inside a live one and when the sealed token ends. */
export type SealedTokenOpener = (token: string) => { session: string; expiresAt: Date } | undefined;

export class AccountsService {
  /** Actors of live sessions resolved in the last SESSION_CACHE_MS, by token hash. */
  private readonly sessions = new SessionCache<Actor>();
  /** Openers of other modules' sealed tokens (acceptSealedTokens). */
  private readonly sealedOpeners: SealedTokenOpener[] = [];

  constructor(private readonly deps: AccountsDeps) {}

  /** The IM identities this module was given, for the sub-accounts service that onboarding builds. */
  get im(): AccountsIm {
    return this.deps.im;
  }

  private now(): Date {
    return this.deps.clock.now();
  }

  /** Where the routes' per-address limits keep their counts (Redis with REDIS_URL) and their clock. */
  get rateLimitDeps(): RateLimitDeps {
    const { redisUrl, redisPrefix } = this.deps.config.im;
    return { redisUrl, redisPrefix, clock: this.deps.clock };
  }

  /* ---------- verification codes ---------- */

  async sendEmailCode(email: string, scene: CodeScene, lang: Lang, actor: Actor | null): Promise<SendCodeReply> {
    await this.checkSceneTarget("email", email, scene, actor);
    const { code } = await this.issueCode({ channel: "email", target: email, scene });
    const minutes = CODE_TTL_SECONDS / 60;
    const purpose = codePurpose(scene, lang);
    await this.deps.mailer.send({
      to: email,
      subject: renderMessage("code.emailSubject", lang, { purpose }),
      text: renderMessage("code.emailBody", lang, { code, minutes, purpose }),
    });
    return { expiresIn: CODE_TTL_SECONDS, resendIn: CODE_RESEND_SECONDS };
  }

  async sendSmsCode(phone: string, scene: CodeScene, lang: Lang, actor: Actor | null): Promise<SendCodeReply> {
    await this.checkSceneTarget("sms", phone, scene, actor);
    if (!isSmsCodeScene(scene)) throw invalid("validation.invalidParameter", "scene", { field: "scene" });
    const { id, code } = await this.issueCode({ channel: "sms", target: phone, scene });
    const minutes = CODE_TTL_SECONDS / 60;
    try {
      await this.deps.sms.send({
        to: phone,
        kind: `code.${scene}`,
        params: { code, minutes },
        text: renderMessage("code.smsBody", lang, { code, minutes, purpose: codePurpose(scene, lang) }),
      });
    } catch (err) {
      // The provider did not take it (issue 41): the code is not left valid, and does not count as sent.
      await repo.deleteCode(this.deps.db, id);
      throw err;
    }
    return { expiresIn: CODE_TTL_SECONDS, resendIn: CODE_RESEND_SECONDS };
  }

  /** Refuses codes that could never be used: registering a taken email, resetting an unknown one, ... */
  private async checkSceneTarget(
    channel: "email" | "sms",
    target: string,
    scene: CodeScene,
    actor: Actor | null,
  ): Promise<void> {
    const { db } = this.deps;
    switch (scene) {
      case "register":
        if (channel !== "email") throw invalid("validation.invalidParameter", "scene", { field: "scene" });
        if (await repo.findUserByEmail(db, target)) throw conflict("account.emailTaken", "email");
        return;
      case "resetPassword":
        if (channel !== "email") throw invalid("validation.invalidParameter", "scene", { field: "scene" });
        if (!(await repo.findUserByEmail(db, target))) throw invalid("account.emailUnknown", "email");
        return;
      case "changeEmail":
        if (channel !== "email") throw invalid("validation.invalidParameter", "scene", { field: "scene" });
        if (!actor) throw unauthorized();
        if (await repo.findUserByEmail(db, target)) throw conflict("account.emailTaken", "email");
        return;
      case "bindPhone":
        if (channel !== "sms") throw invalid("validation.invalidParameter", "scene", { field: "scene" });
        if (!actor) throw unauthorized();
        if (await repo.userIdByPhone(db, target)) throw conflict("account.phoneTaken", "phone");
        return;
      case "signAgreement":
        // The phone the signer types in the agreement dialog; recorded with the signature.
        if (channel !== "sms") throw invalid("validation.invalidParameter", "scene", { field: "scene" });
        if (!actor) throw unauthorized();
        return;
      case "customerLogin":
      case "cardPassword":
        // End customers (onecard): a login code to any phone, or a reset code to a card's bound phone.
        if (channel !== "sms") throw invalid("validation.invalidParameter", "scene", { field: "scene" });
        return;
      case "transitAuth":
      case "viewApiSecret": {
        // Authorising outgoing transfers, or showing the API secret again: only to the signed-in user's own bound phone.
        if (channel !== "sms") throw invalid("validation.invalidParameter", "scene", { field: "scene" });
        if (!actor) throw unauthorized();
        const user = await repo.findUserById(db, actor.userId);
        if (!user?.phone || user.phone !== target) throw invalid("transfer.ownPhoneOnly", "phone");
        return;
      }
    }
  }

  private async issueCode(key: repo.CodeKey): Promise<{ id: number; code: string }> {
    const now = this.now();
    const last = await repo.latestCode(this.deps.db, key);
    if (last) {
      const wait = Math.ceil((last.created_at.getTime() + seconds(CODE_RESEND_SECONDS) - now.getTime()) / 1000);
      if (wait > 0) throw tooMany("code.tooFrequent", { seconds: wait });
    }
    const hourAgo = new Date(now.getTime() - seconds(3600));
    if ((await repo.countCodesSince(this.deps.db, key, hourAgo)) >= CODE_MAX_PER_HOUR) {
      throw tooMany("code.tooFrequent", { seconds: CODE_RESEND_SECONDS * 10 });
    }
    const code = newNumericCode();
    const hash = keyedHash(this.deps.secret, key.channel, key.target, key.scene, code);
    const id = await repo.insertCode(this.deps.db, key, hash, now, new Date(now.getTime() + seconds(CODE_TTL_SECONDS)));
    return { id, code };
  }

  /**
   * Checks a code against the latest one sent for this address and scene. A wrong guess is counted in
   * its own statement, so it sticks even though the request then fails. Returns the code's id, to be
   * consumed in the transaction of the change it authorises.
   */
  private async checkCode(key: repo.CodeKey, code: string): Promise<number> {
    const row = await repo.latestCode(this.deps.db, key);
    if (!row || row.consumed_at !== null || row.expires_at <= this.now() || row.attempts >= CODE_MAX_ATTEMPTS) {
      throw invalidCode();
    }
    if (!sameHash(row.code_hash, keyedHash(this.deps.secret, key.channel, key.target, key.scene, code))) {
      await repo.addCodeAttempt(this.deps.db, row.id);
      throw invalidCode();
    }
    return row.id;
  }

  /**
   * Checks an SMS code for an action of a signed-in user (signing an agreement). Returns the code's id,
   * which the action consumes with `consumeVerificationCode` in its own transaction.
   */
  checkSmsCode(phone: string, scene: CodeScene, code: string): Promise<number> {
    return this.checkCode({ channel: "sms", target: phone, scene }, code);
  }

  /* ---------- registration and login ---------- */

  async register(req: RegisterReq): Promise<{ userId: string; merchantId: string }> {
    const codeId = await this.checkCode({ channel: "email", target: req.email, scene: "register" }, req.emailCode);
    const passwordHash = await this.deps.hasher.hash(req.password);
    const now = this.now();
    try {
      return await withTx(this.deps.db, async (tx) => {
        if (!(await repo.consumeCode(tx, codeId, now))) throw invalidCode();
        const international = req.version === "international";
        const merchantId = await createMerchant(tx, {
          name: req.orgName,
          version: req.version,
          country: international ? (req.country ?? null) : null,
          currency: international ? (req.currency ?? "USD") : "CNY",
        });
        const userId = await repo.insertUser(tx, { kind: "merchant", merchantId, email: req.email, passwordHash });
        // The user's and the brand's chat identities (IM users u<userId> and b<merchantId>).
        // The owner speaks for the company in chats: its IM nickname is the company's name.
        await this.deps.im.ensureImUser(tx, this.deps.im.imUserOfAccount(userId), { nickname: req.orgName, now });
        await this.deps.im.ensureImUser(tx, this.deps.im.imUserOfBrand(merchantId), { nickname: req.orgName, now });
        await audit(tx, {
          actorUserId: userId,
          action: "account.register",
          subjectType: "merchant",
          subjectId: merchantId,
          detail: { version: req.version },
        });
        return { userId: String(userId), merchantId: String(merchantId) };
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict("account.emailTaken", "email");
      throw err;
    }
  }

  async login(req: LoginReq, client: { ip: string; userAgent: string | undefined }): Promise<LoginReply> {
    const { db, hasher, config } = this.deps;
    const now = this.now();
    await this.checkThrottle(req.email, now);

    const user = await repo.findUserByEmail(db, req.email);
    const passwordOk = user
      ? await hasher.verify(user.password_hash, req.password)
      : (await hasher.verifyDummy(req.password), false);
    if (!user || !passwordOk) {
      const failures = await repo.recordLoginFailure(
        db,
        req.email,
        now,
        new Date(now.getTime() - seconds(LOGIN_WINDOW_MINUTES * 60)),
      );
      if (failures >= LOGIN_LOCK_AT_FAILURES) {
        await repo.lockLogin(db, req.email, new Date(now.getTime() + seconds(LOGIN_LOCK_MINUTES * 60)));
        throw new AppError(CODE.ACCOUNT_LOCKED, "account.loginLocked", { minutes: LOGIN_LOCK_MINUTES });
      }
      throw new AppError(CODE.LOGIN_FAILED, "account.loginFailed");
    }
    if (user.disabled_at) throw new AppError(CODE.FORBIDDEN, "account.disabled");
    if (user.kind === "merchant" && user.merchant_id !== null) {
      const merchant = await getMerchant(db, user.merchant_id);
      if (merchant && merchant.version !== req.version) {
        throw new AppError(
          CODE.FORBIDDEN,
          merchant.version === "international" ? "account.wrongVersionInternational" : "account.wrongVersionDomestic",
        );
      }
    }

    const token = newToken();
    const expiresAt = new Date(now.getTime() + seconds(config.tokenTtlSeconds));
    await withTx(db, async (tx) => {
      await repo.clearThrottle(tx, req.email);
      const sessionId = await repo.insertSession(tx, {
        userId: user.id,
        tokenHash: tokenHash(token),
        version: req.version,
        now,
        expiresAt,
        ip: client.ip,
        userAgent: client.userAgent,
      });
      await audit(tx, {
        actorUserId: user.id,
        action: "account.login",
        subjectType: "session",
        subjectId: sessionId,
        detail: { ip: client.ip },
      });
    });
    return { token, expires_in: config.tokenTtlSeconds };
  }

  private async checkThrottle(email: string, now: Date): Promise<void> {
    const t = await repo.findThrottle(this.deps.db, email);
    if (!t) return;
    if (t.locked_until && t.locked_until > now) {
      throw new AppError(CODE.ACCOUNT_LOCKED, "account.loginLocked", {
        minutes: Math.ceil((t.locked_until.getTime() - now.getTime()) / 60_000),
      });
    }
    const windowStart = now.getTime() - seconds(LOGIN_WINDOW_MINUTES * 60);
    if (t.failures < LOGIN_FREE_FAILURES || t.last_failure_at.getTime() < windowStart) return;
    const delay = LOGIN_SLOW_BASE_SECONDS * 2 ** (t.failures - LOGIN_FREE_FAILURES);
    const wait = Math.ceil((t.last_failure_at.getTime() + seconds(delay) - now.getTime()) / 1000);
    if (wait > 0) throw new AppError(CODE.TOO_MANY_REQUESTS, "account.loginSlowed", { seconds: wait });
  }

  /** Resolves a token for the auth guard: the actor, or null when the token is unknown, expired or revoked. */
  async authenticate(token: string): Promise<Actor | null> {
    const hash = tokenHash(token);
    const now = this.now();
    const cached = this.sessions.get(hash, now.getTime());
    if (cached) return cached;
    const revision = authRevision();
    const row = await repo.findLiveSession(this.deps.db, hash, now);
    if (!row) return null;
    const actor: Actor = {
      userId: row.userId,
      sessionId: row.sessionId,
      kind: row.kind,
      email: row.email,
      merchantId: row.merchantId,
      roles: merchantRoles(row.roles ?? []),
      version: row.version,
      // Sub-accounts carry the pages they were given; the guard refuses the rest.
      menus: row.menus ?? null,
    };
    this.sessions.set(hash, actor, Math.min(now.getTime() + SESSION_CACHE_MS, row.expiresAt.getTime()), revision);
    return actor;
  }

  /**
   * Another module's token that seals a session (the legacy e-commerce token): `open` answers the session
   * inside a live one and when it ends, undefined for anything else. validatetoken then answers for it too.
   */
  acceptSealedTokens(open: SealedTokenOpener): void {
    this.sealedOpeners.push(open);
  }

  async validateToken(token: string): Promise<ValidateTokenReply> {
    for (const open of this.sealedOpeners) {
      const sealed = open(token);
      if (sealed) return this.validateSession(sealed.session, sealed.expiresAt);
    }
    return this.validateSession(token, null);
  }

  /** Whether the session is live; `until` caps its life (the sealed token's own expiry). */
  private async validateSession(token: string, until: Date | null): Promise<ValidateTokenReply> {
    const now = this.now();
    const row = await repo.findLiveSession(this.deps.db, tokenHash(token), now);
    if (!row) return { valid: false, expires_in: 0, userId: null };
    const end = until && until.getTime() < row.expiresAt.getTime() ? until : row.expiresAt;
    return {
      valid: true,
      expires_in: Math.max(0, Math.floor((end.getTime() - now.getTime()) / 1000)),
      userId: String(row.userId),
    };
  }

  async logout(actor: Actor): Promise<void> {
    await withTx(this.deps.db, async (tx) => {
      await repo.revokeSession(tx, actor.sessionId, this.now());
      await audit(tx, {
        actorUserId: actor.userId,
        action: "account.logout",
        subjectType: "session",
        subjectId: actor.sessionId,
      });
    });
  }

  /** Sets a new password with an e-mail code; every session of the account dies. */
  async resetPassword(req: ResetPasswordReq): Promise<void> {
    const user = await repo.findUserByEmail(this.deps.db, req.email);
    if (!user) throw invalid("account.emailUnknown", "email");
    const codeId = await this.checkCode({ channel: "email", target: req.email, scene: "resetPassword" }, req.emailCode);
    const passwordHash = await this.deps.hasher.hash(req.password);
    const now = this.now();
    await withTx(this.deps.db, async (tx) => {
      if (!(await repo.consumeCode(tx, codeId, now))) throw invalidCode();
      await repo.updateUser(tx, user.id, { passwordHash, now });
      const revoked = await repo.revokeUserSessions(tx, user.id, now);
      await repo.clearThrottle(tx, req.email);
      await audit(tx, {
        actorUserId: user.id,
        action: "account.resetPassword",
        subjectType: "user",
        subjectId: user.id,
        detail: { revokedSessions: revoked },
      });
    });
  }

  async changeEmail(actor: Actor, req: UserEmailReq): Promise<void> {
    const codeId = await this.checkCode({ channel: "email", target: req.email, scene: "changeEmail" }, req.emailCode);
    const now = this.now();
    try {
      await withTx(this.deps.db, async (tx) => {
        if (!(await repo.consumeCode(tx, codeId, now))) throw invalidCode();
        await repo.updateUser(tx, actor.userId, { email: req.email, now });
        await audit(tx, {
          actorUserId: actor.userId,
          action: "account.changeEmail",
          subjectType: "user",
          subjectId: actor.userId,
          detail: { from: actor.email, to: req.email },
        });
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict("account.emailTaken", "email");
      throw err;
    }
  }

  async changePhone(actor: Actor, req: UserPhoneReq): Promise<void> {
    const codeId = await this.checkCode({ channel: "sms", target: req.phone, scene: "bindPhone" }, req.smsCode);
    const now = this.now();
    try {
      await withTx(this.deps.db, async (tx) => {
        if (!(await repo.consumeCode(tx, codeId, now))) throw invalidCode();
        await repo.updateUser(tx, actor.userId, { phone: req.phone, now });
        await audit(tx, {
          actorUserId: actor.userId,
          action: "account.changePhone",
          subjectType: "user",
          subjectId: actor.userId,
        });
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict("account.phoneTaken", "phone");
      throw err;
    }
  }

  async userInfo(actor: Actor): Promise<UserInfo> {
    const user = await repo.findUserById(this.deps.db, actor.userId);
    if (!user) throw unauthorized();
    const merchant = user.merchant_id !== null ? await getMerchant(this.deps.db, user.merchant_id) : undefined;
    // The company's money only to the main account and sub-accounts given a funds page: a clerk limited to
    // the write-off records must not read the brand's income (issue 38 item 8).
    const balances =
      merchant && seesFunds(actor.menus) ? await balancesOf(this.deps.db, merchant.id, merchant.currency) : null;
    return {
      userId: String(user.id),
      kind: user.kind,
      loginAccount: user.email,
      email: user.email,
      phone: user.phone,
      merchant: merchant ? presentMerchant(merchant) : null,
      balances: balances
        ? {
            sup: balances.sup,
            reserve: balances.reserve,
            income: balances.income,
            sandboxIncome: balances.sandbox_income,
          }
        : null,
      brandInfo: merchant
        ? await this.deps.im.imBrandInfo(this.deps.db, this.deps, { userId: user.id, merchantId: merchant.id })
        : null,
    };
  }
}
