import type { FastifyInstance } from "fastify";
import type { ImDeps } from "../service/core";

/**
 * GET /easemob/server.json: the discovery document the published client reads when `isHttpDNS` is on,
 * naming this server's REST and websocket addresses (from IM_PUBLIC_URL, else the request's host).
 * Data reports and multipart uploads are switched off.
 */
export function discoveryRoute(deps: ImDeps) {
  return function plugin(app: FastifyInstance, _opts: unknown, done: () => void): void {
    app.get("/easemob/server.json", { schema: { hide: true } }, async (req, reply) => {
      reply.header("access-control-allow-origin", "*");
      const q = req.query as Record<string, unknown>;
      // The query parser has decoded the value (org%23app → org#app): no second decoding.
      const asked = typeof q.app_key === "string" ? q.app_key : undefined;
      if (asked !== undefined && asked !== deps.appKey) {
        const shown = asked.length > 64 ? `${asked.slice(0, 64)}…` : asked;
        return reply.status(404).send({ error: "resource_not_found", error_description: `unknown app_key ${shown}` });
      }
      const base = new URL(deps.config.publicUrl ?? `${req.protocol}://${req.headers.host ?? "localhost"}`);
      const protocol = base.protocol === "https:" ? "https" : "http";
      const port = base.port || (protocol === "https" ? "443" : "80");
      const host = { protocol, domain: base.hostname, ip: base.hostname, port };
      return {
        app_key: deps.appKey,
        rest: { hosts: [host] },
        "msync-wx": { hosts: [host] },
        enableReportLogs: "false",
        enableDataReport: "false",
        uploadinparts_enable: "false",
      };
    });
    done();
  };
}
