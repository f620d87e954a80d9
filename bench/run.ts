/**
 * `npm run bench`: starts the real server on a fresh embedded database (or on BENCH_DATABASE_URL) and
 * prints figures. BENCH_SECONDS sets each run's length (default 10). Load and server share the machine's
 * cores, so figures are whole-machine ceilings.
 */
import { availableParallelism } from "node:os";
import { benchAccounts } from "./accounts.bench";
import type { LoadResult } from "./lib/load";
import { startServer } from "./lib/server";

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const databaseUrl = process.env.BENCH_DATABASE_URL;

function row(name: string, r: LoadResult): string {
  const l = r.latencyMs;
  return (
    `${name.padEnd(16)} ${String(r.rps).padStart(7)} req/s   p50 ${l.p50} ms   p90 ${l.p90} ms ` +
    `  p99 ${l.p99} ms   max ${l.max} ms   (${r.requests} requests, ${r.errors} errors)`
  );
}

const argon2 = {
  memoryKib: Number(process.env.ARGON2_MEMORY_KIB ?? 19456),
  iterations: Number(process.env.ARGON2_ITERATIONS ?? 2),
};
const server = await startServer(databaseUrl ? { DATABASE_URL: databaseUrl } : {});
try {
  console.log(
    `Tessera benchmarks: ${availableParallelism()} cores, node ${process.version}, database ` +
      `${databaseUrl ? "PostgreSQL server" : "embedded PGlite"}, ${seconds} s per run`,
  );
  console.log(`Argon2id cost: m=${argon2.memoryKib} KiB, t=${argon2.iterations}, p=1\n`);
  const results = await benchAccounts(server, seconds);
  for (const [name, r] of Object.entries(results)) console.log(row(name, r));
  for (const [name, r] of Object.entries(await (await import("./im-rest.bench")).benchImRest(seconds, databaseUrl))) {
    console.log(row(name, r));
  }
  for (const line of await (await import("./catalog.bench")).benchCatalog(databaseUrl)) console.log(line);
  for (const line of await (await import("./ledger.bench")).benchLedger(seconds, databaseUrl)) console.log(line);
  for (const line of await (await import("./purchasing.bench")).benchPurchasing(seconds, databaseUrl)) {
    console.log(line);
  }
  for (const line of await (await import("./onecard.bench")).benchOnecard(seconds, databaseUrl)) console.log(line);
  for (const line of await (await import("./stores.bench")).benchStores(seconds, databaseUrl)) console.log(line);
  for (const line of await (await import("./commerce.bench")).benchCommerce(seconds, databaseUrl)) console.log(line);
  for (const line of await (await import("./commission.bench")).benchCommission(databaseUrl)) console.log(line);
  for (const line of await (await import("./mall.bench")).benchMall(seconds, databaseUrl)) console.log(line);
  for (const line of await (await import("./im-ws.bench")).benchImWs(seconds, databaseUrl)) console.log(line);
  for (const line of await (await import("./im-sdk-size.bench")).benchImSdkSize()) console.log(line);
  for (const line of (await import("./web-size.bench")).benchWebSize()) console.log(line);
  for (const line of await (await import("./lighthouse.bench")).benchLighthouse()) console.log(line);
} finally {
  await server.stop();
}
