import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../../context";
import { WECHATPAY_LOCAL_PATH } from "../../../config";
import { WechatPayAdapter } from "./wechatpay/adapter";
import { receiveNotice } from "./wechatpay/settle";
import { createLocalPlatform, type LocalPlatform } from "./wechatpay-local/platform";

declare module "fastify" {
  interface FastifyInstance {
    /** The local WeChat Pay platform when this server serves it (sandbox), else null. */
    wechatpayLocal?: LocalPlatform | null;
  }
}

/**
 * The payments seam's own HTTP (issue 41): WeChat Pay's notifications at /api/payments/wechatpay/notify
 * (unauthenticated, the raw body verified before anything), and in sandbox with the local platform's
 * settings, the local WeChat Pay platform under /sandbox/wechatpay — never in live mode.
 */
export async function registerPaymentRoutes(
  app: FastifyInstance,
  ctx: AppContext,
): Promise<{ local: LocalPlatform | null }> {
  const adapter = ctx.payments;
  if (!(adapter instanceof WechatPayAdapter)) return { local: null };
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
  // The local platform's records, for tests that make the provider disagree with us (reconciliation).
  app.decorate("wechatpayLocal", local);
  return { local };
}
