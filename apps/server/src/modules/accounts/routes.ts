import {
  commonConfigReply,
  dictAll,
  dictionary,
  envelope,
  loginReply,
  loginReq,
  registerReply,
  registerReq,
  resetPasswordReq,
  sendCodeReply,
  sendEmailReq,
  sendSmsReq,
  userEmailReq,
  userInfo,
  userPhoneReq,
  validateTokenReply,
  validateTokenReq,
} from "@tessera/contracts";
import { CODE, type CommonConfigReply } from "@tessera/contracts";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { actorOf, tokenOf, type Guard } from "../../platform/auth/guard";
import { ok } from "../../platform/http/envelope";
import { AppError, tooMany } from "../../platform/http/errors";
import { addressOf, failureLimit, limitedCheck, useRateLimit } from "../../platform/http/rate-limit";
import { routeDocs } from "../../platform/http/route";
import { ADDRESS_FAILURES, ADDRESS_WINDOW_MINUTES, type AccountsService } from "./service";

const anyUser = { kinds: ["merchant", "operator", "customer"] } as const;
const docs = routeDocs("accounts");
const nothing = envelope(z.null());

export interface AccountsRouteDeps {
  accounts: AccountsService;
  guard: Guard;
  /** What the web app needs to know about this server (common/config). */
  publicConfig: CommonConfigReply;
}

/** Whether an error is the credential failure `code` (a wrong password, a wrong code), which counts toward the limit. */
const failedWith = (code: number) => (err: unknown) => err instanceof AppError && err.code === code;

/** Account calls of spec 01 §7, mounted under /api/card-user. */
export function accountRoutes({ accounts, guard, publicConfig }: AccountsRouteDeps): FastifyPluginAsyncZod {
  return async (app) => {
    await useRateLimit(app, accounts.rateLimitDeps);
    const limit = { max: ADDRESS_FAILURES, timeWindowMs: ADDRESS_WINDOW_MINUTES * 60_000, key: addressOf };
    const logins = failureLimit(app, { name: "login:address", ...limit });
    const codes = failureLimit(app, { name: "code:address", ...limit });
    const login = <T>(req: FastifyRequest, check: () => Promise<T>) =>
      limitedCheck(
        req,
        logins,
        failedWith(CODE.LOGIN_FAILED),
        (seconds) => tooMany("account.loginSlowed", { seconds }),
        check,
      );
    const code = <T>(req: FastifyRequest, check: () => Promise<T>) =>
      limitedCheck(req, codes, failedWith(CODE.CODE_INVALID), () => tooMany("error.tooManyRequests"), check);

    /** The actor when a valid token came with the request; code requests for signed-in scenes need it. */
    const optionalActor = async (req: Parameters<typeof tokenOf>[0]) => {
      const token = tokenOf(req);
      return token ? accounts.authenticate(token) : null;
    };

    app.post(
      "/sendEmail",
      {
        schema: {
          tags: docs.tags,
          summary: "Send an e-mail verification code",
          body: sendEmailReq,
          response: { 200: envelope(sendCodeReply) },
        },
      },
      async (req) =>
        ok(await accounts.sendEmailCode(req.body.email, req.body.scene, req.lang, await optionalActor(req))),
    );
    app.post(
      "/sendSms",
      {
        schema: {
          tags: docs.tags,
          summary: "Send an SMS verification code",
          body: sendSmsReq,
          response: { 200: envelope(sendCodeReply) },
        },
      },
      async (req) => ok(await accounts.sendSmsCode(req.body.phone, req.body.scene, req.lang, await optionalActor(req))),
    );
    app.post(
      "/register",
      {
        schema: {
          tags: docs.tags,
          summary: "Register an organisation and its first user",
          body: registerReq,
          response: { 200: envelope(registerReply) },
        },
      },
      async (req) => ok(await code(req, () => accounts.register(req.body))),
    );
    app.post(
      "/login",
      {
        schema: {
          tags: docs.tags,
          summary: "Log in; the token goes in x-auth-token",
          body: loginReq,
          response: { 200: envelope(loginReply) },
        },
      },
      async (req) =>
        ok(await login(req, () => accounts.login(req.body, { ip: req.ip, userAgent: req.headers["user-agent"] }))),
    );
    app.put(
      "/logout",
      {
        schema: { ...docs, summary: "End this session", response: { 200: nothing } },
        preHandler: guard(anyUser),
      },
      async (req) => {
        await accounts.logout(actorOf(req));
        return ok(null);
      },
    );
    app.put(
      "/resetPassword",
      {
        schema: {
          tags: docs.tags,
          summary: "Set a new password with an e-mail code; ends every session",
          body: resetPasswordReq,
          response: { 200: nothing },
        },
      },
      async (req) => {
        await code(req, () => accounts.resetPassword(req.body));
        return ok(null);
      },
    );
    app.put(
      "/userPhone",
      {
        schema: {
          ...docs,
          summary: "Bind or change the mobile number",
          body: userPhoneReq,
          response: { 200: nothing },
        },
        preHandler: guard(anyUser),
      },
      async (req) => {
        await code(req, () => accounts.changePhone(actorOf(req), req.body));
        return ok(null);
      },
    );
    app.put(
      "/userEmail",
      {
        schema: { ...docs, summary: "Change the login e-mail", body: userEmailReq, response: { 200: nothing } },
        preHandler: guard(anyUser),
      },
      async (req) => {
        await code(req, () => accounts.changeEmail(actorOf(req), req.body));
        return ok(null);
      },
    );
    app.get(
      "/userInfo",
      {
        schema: {
          ...docs,
          summary: "The signed-in user, merchant and balances",
          response: { 200: envelope(userInfo) },
        },
        preHandler: guard(anyUser),
      },
      async (req) => ok(await accounts.userInfo(actorOf(req))),
    );
    app.get(
      "/dict/all",
      {
        schema: {
          tags: docs.tags,
          summary: "Every dictionary (enumeration) with labels in the request language",
          response: { 200: envelope(dictAll) },
        },
      },
      (req) => Promise.resolve(ok(dictionary(req.lang))),
    );
    app.get(
      "/common/config",
      {
        schema: {
          tags: docs.tags,
          summary: "What the web app needs to know about this server",
          response: { 200: envelope(commonConfigReply) },
        },
      },
      () => Promise.resolve(ok(publicConfig)),
    );
  };
}

/** POST /api/login/validatetoken: whether a token is live, for other services sharing the sign-in. */
export function validateTokenRoutes(accounts: AccountsService): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    app.post(
      "/validatetoken",
      {
        schema: {
          tags: docs.tags,
          summary: "Check a token",
          body: validateTokenReq,
          response: { 200: envelope(validateTokenReply) },
        },
      },
      async (req) => ok(await accounts.validateToken(req.body.token)),
    );
  };
}
