import pino from "pino";
import { buildApp } from "./app";
import { loadConfig } from "./config";
import { sandboxPaymentsRefusal } from "./platform/adapters/payments";
import { createContext } from "./context";
import { ensureOperator } from "./modules/accounts";
import { setDisplayZone } from "./platform/clock";

/** Reads the configuration, opens and migrates the database, creates the operator once, listens. */
async function main(): Promise<void> {
  const config = loadConfig();
  setDisplayZone(config.displayZone);
  const logger = pino({ level: config.logLevel });
  // First, so nobody misses it: /api/dev/* is on (npm start's sandbox default, scripts/start.mjs).
  if (config.devRoutes) {
    logger.warn(
      'DEV_ROUTES=true: /api/dev/* is served (the dev outbox with every code the local adapters "sent", to direct loopback requests and operators; test scaffolding to operators). Never for real users: DEV_ROUTES=false turns it off',
    );
  }
  // A live deployment never takes customers' "payments" through the adapter that collects nothing.
  const refusal = sandboxPaymentsRefusal(config);
  if (refusal) {
    logger.fatal(refusal);
    process.exit(1);
  }
  const ctx = await createContext(config, { log: (line) => logger.info(line) });
  const app = await buildApp(ctx, { logger });
  await ensureOperator(ctx.database.db, config, ctx.hasher, (line) => console.log(`\n*** ${line}\n`));

  /**
   * Graceful drain: /readyz turns "draining" first (load balancers stop sending), then after
   * DRAIN_DELAY_MS the node stops accepting; closing waits for in-flight requests, closes websockets with
   * 1001 (the IM client reconnects, to another node) and lets a running job finish. Past DRAIN_TIMEOUT_MS
   * the process exits anyway.
   */
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info(`${signal}: draining (readiness off, stopping in ${config.ops.drainDelayMs} ms)`);
    app.health.startDrain();
    await new Promise((resolve) => setTimeout(resolve, config.ops.drainDelayMs));
    const deadline = setTimeout(() => {
      app.log.error(`drain took longer than ${config.ops.drainTimeoutMs} ms; exiting`);
      process.exit(1);
    }, config.ops.drainTimeoutMs);
    deadline.unref();
    await app.close();
    await ctx.database.close();
    app.log.info("drained; bye");
    process.exit(0);
  };
  process.once("SIGINT", () => void stop("SIGINT"));
  process.once("SIGTERM", () => void stop("SIGTERM"));
  await app.listen({ port: config.port, host: config.host });
  if (ctx.mailer.kind === "local" && !isLoopbackHost(config.host)) {
    app.log.warn(
      `the local mail/SMS adapters are active on ${config.host}, not loopback: codes are kept in the ` +
        `dev outbox (served to loopback and operators only); configure SMTP/SMS for real users`,
    );
  }
  if (ctx.payments.sandbox) {
    app.log.warn(
      `sandbox mode: customer payments go through ${ctx.payments.name === "local" ? "the local adapter" : `${ctx.payments.name} against its local platform`}, which collects nothing; what ` +
        `customers "pay" is test money that is never paid out (TESSERA_MODE=live with a real provider for real users)`,
    );
  }
  app.log.info(
    `Tessera on http://localhost:${config.port} (database: ${ctx.database.kind}${ctx.database.kind === "pglite" ? ` in ${config.dataDir}` : ""}; API docs at /api/docs)`,
  );
}

/** Whether the server listens on this machine only (127.0.0.0/8, ::1, localhost). */
function isLoopbackHost(host: string): boolean {
  return host === "localhost" || host === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
