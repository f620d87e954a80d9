import pino from "pino";
import { buildApp } from "./app";
import { loadConfig } from "./config";
import { createContext } from "./context";
import { ensureOperator } from "./modules/accounts";

/** Reads the configuration, opens and migrates the database, creates the operator once, listens. */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = pino({ level: config.logLevel });
  const ctx = await createContext(config, { log: (line) => logger.info(line) });
  const app = await buildApp(ctx, { logger });
  await ensureOperator(ctx.database.db, config, ctx.hasher, (line) => console.log(`\n*** ${line}\n`));
  const close = async () => {
    await app.close();
    await ctx.database.close();
    process.exit(0);
  };
  process.once("SIGINT", () => void close());
  process.once("SIGTERM", () => void close());
  await app.listen({ port: config.port, host: config.host });
  app.log.info(`Tessera on http://localhost:${config.port} (database: ${ctx.database.kind}${ctx.database.kind === "pglite" ? ` in ${config.dataDir}` : ""}; API docs at /api/docs)`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
