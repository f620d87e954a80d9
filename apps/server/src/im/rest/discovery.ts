import type { FastifyInstance } from "fastify";
import { invalidParam } from "../errors";
import type { ImDeps } from "../service/core";

/**
 * GET /easemob/server.json: the discovery document the published client reads when `isHttpDNS` is on,
 * naming the REST and websocket addresses clients use (IM_PUBLIC_URL, else the request's host): with several
 * nodes, the balanced address, so that a client whose node is down reconnects through it to another
 * (docs/deploy.md, "Failover").
 * Data reports and multipart uploads are switched off.
 */
export function discoveryRoute(deps: Pick<ImDeps, "appKey" | "config" | "clock">) {
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
      // Behind a balancer every node must name the balanced address, never itself: IM_PUBLIC_URL, else the
      // address the client asked for (a trusted proxy's X-Forwarded-Host/-Proto, else the Host header).
      const asKnown = deps.config.publicUrl ?? `${req.protocol}://${req.host || "localhost"}`;
      if (!URL.canParse(asKnown)) {
        const err = invalidParam("Host");
        return reply.status(err.status).send(err.body(deps.clock.now().getTime()));
      }
      const base = new URL(asKnown);
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
