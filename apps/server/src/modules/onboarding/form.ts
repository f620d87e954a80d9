import type { FastifyInstance } from "fastify";

/**
 * Some brander calls send form-encoded bodies (spec 01 §7: api/ip, api/view, api/reset, passport/sub/update).
 * Within the plugin that registers it, such bodies become a plain object; a repeated key joins its values
 * with commas (menus=a&menus=b and menus=a,b mean the same).
 */
export function acceptForm(app: FastifyInstance): void {
  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string", bodyLimit: 64 * 1024 },
    (_req, body, done) => {
      const out: Record<string, string> = {};
      for (const [k, v] of new URLSearchParams(body as string)) out[k] = k in out ? `${out[k]},${v}` : v;
      done(null, out);
    },
  );
}
