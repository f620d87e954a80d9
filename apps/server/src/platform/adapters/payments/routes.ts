import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../../context";
import { ALIPAY_LOCAL_PATH, WECHATPAY_LOCAL_PATH } from "../../../config";
import { providersOf } from "./index";
import { AlipayAdapter } from "./alipay/adapter";
import { receiveAlipayNotice } from "./alipay/settle";
import { createLocalAlipayPlatform, type LocalAlipayPlatform } from "./alipay-local/platform";
import { WechatPayAdapter } from "./wechatpay/adapter";
import { receiveNotice } from "./wechatpay/settle";
import { createLocalPlatform, type LocalPlatform } from "./wechatpay-local/platform";

declare module "fastify" {
  interface FastifyInstance {
    /** The local WeChat Pay platform when this server serves it (sandbox), else null. */
    wechatpayLocal?: LocalPlatform | null;
    /** The local Alipay platform when this server serves it (sandbox), else null. */
    alipayLocal?: LocalAlipayPlatform | null;
  }
}

/**
 * The payments seam's own HTTP (issue 41), for each provider in use: WeChat Pay's notifications at
 * /api/payments/wechatpay/notify and Alipay's at /api/payments/alipay/notify (unauthenticated, verified
 * before anything), and in sandbox with a local platform's settings, that platform under
 * /sandbox/wechatpay or /sandbox/alipay — never in live mode.
 */
export async function registerPaymentRoutes(
  app: FastifyInstance,
  ctx: AppContext,
): Promise<{ local: LocalPlatform | null; alipayLocal: LocalAlipayPlatform | null }> {
  const providers = providersOf(ctx.payments);
  const wechat = providers.find((p): p is WechatPayAdapter => p instanceof WechatPayAdapter);
  const alipay = providers.find((p): p is AlipayAdapter => p instanceof AlipayAdapter);
  const alipayLocal = alipay ? await registerAlipayRoutes(app, ctx, alipay) : null;
  app.decorate("alipayLocal", alipayLocal);
  const local = wechat ? await registerWechatpayRoutes(app, ctx, wechat) : null;
  // The local platform's records, for tests that make the provider disagree with us (reconciliation).
  app.decorate("wechatpayLocal", local);
  return { local, alipayLocal };
}

async function registerWechatpayRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  adapter: WechatPayAdapter,
): Promise<LocalPlatform | null> {
  const deps = { db: ctx.database.db, adapter, handlers: adapter.handlers, log: adapter.log };
  const raw = new WeakMap<object, string>();
  // eslint-disable-next-line @typescript-eslint/require-await
  await app.register(async (scope) => {
    // The signature is over the raw body: kept as received; the parsed object only passes the edge rules.
    scope.addContentTypeParser("application/json", { parseAs: "string", bodyLimit: 64 * 1024 }, (req, body, done) => {
      raw.set(req, String(body));
      try {
        done(null, JSON.parse(String(body)) as unknown);
      } catch {
        done(null, {});
      }
    });
    scope.post("/api/payments/wechatpay/notify", async (req, reply) => {
      const h = req.headers;
      const one = (name: string) => {
        const v = h[name];
        return Array.isArray(v) ? v[0] : v;
      };
      const result = await receiveNotice(
        deps,
        {
          timestamp: one("wechatpay-timestamp"),
          nonce: one("wechatpay-nonce"),
          signature: one("wechatpay-signature"),
          serial: one("wechatpay-serial"),
        },
        raw.get(req) ?? "",
        ctx.clock.now(),
      );
      if (!result.accepted) return reply.code(401).send({ code: "FAIL", message: "验签或解密失败" });
      return reply.code(204).send();
    });
  });
  let local: LocalPlatform | null = null;
  if (ctx.config.mode === "sandbox" && adapter.config.local) {
    const made = createLocalPlatform(adapter.config, ctx.config.dataDir, ctx.clock, ctx.log);
    local = made.platform;
    await app.register(made.routes, { prefix: WECHATPAY_LOCAL_PATH.replace(/\/$/, "") });
  }
  return local;
}

/**
 * Alipay's async notification: form-encoded fields, verified with Alipay's public key before anything;
 * answered with the literal `success` (taken: Alipay stops retrying) or `fail`.
 */
async function registerAlipayRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  adapter: AlipayAdapter,
): Promise<LocalAlipayPlatform | null> {
  const deps = { db: ctx.database.db, adapter, handlers: adapter.handlers, log: adapter.log };
  // eslint-disable-next-line @typescript-eslint/require-await
  await app.register(async (scope) => {
    scope.addContentTypeParser(
      "application/x-www-form-urlencoded",
      { parseAs: "string", bodyLimit: 64 * 1024 },
      (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    scope.post<{ Body: Record<string, string> | undefined }>("/api/payments/alipay/notify", async (req, reply) => {
      const fields = req.body && typeof req.body === "object" ? req.body : {};
      const result = await receiveAlipayNotice(deps, fields, ctx.clock.now());
      return reply.type("text/plain; charset=utf-8").send(result.accepted ? "success" : "fail");
    });
  });
  if (ctx.config.mode !== "sandbox" || !adapter.config.local) return null;
  const made = createLocalAlipayPlatform(adapter.config, ctx.config.dataDir, ctx.clock, ctx.log);
  await app.register(made.routes, { prefix: ALIPAY_LOCAL_PATH.replace(/\/$/, "") });
  return made.platform;
}
