/**
 * `npm run bench`: starts the real server on a fresh embedded database (or on BENCH_DATABASE_URL) and
 * prints figures. BENCH_SECONDS sets each run's length (default 10). Load and server share the machine's
 * cores, so figures are whole-machine ceilings. `npm run bench:smoke` (BENCH_SMOKE=1, a second per run,
 * small seeds: lib/scale.ts) runs every bench to prove it still measures what it claims.
 *
 * A bench that measured refusals, ran dry, seeded nothing or broke an invariant prints `INVALID: …`
 * (lib/verdict.ts); a bench that throws is INVALID too. The run goes on to the next bench, then exits
 * non-zero when any line was INVALID.
 */
import { availableParallelism } from "node:os";
import { benchAccounts } from "./accounts.bench";
import type { LoadResult } from "./lib/load";
import { SMOKE } from "./lib/scale";
import { startServer } from "./lib/server";
import { invalid, isInvalid, refusals } from "./lib/verdict";

const seconds = Number(process.env.BENCH_SECONDS ?? (SMOKE ? 1 : 10));
const databaseUrl = process.env.BENCH_DATABASE_URL;
const invalidLines: string[] = [];

function print(lines: readonly string[]): void {
  for (const line of lines) {
    console.log(line);
    if (isInvalid(line)) invalidLines.push(line);
  }
}

/** The rows of a closed-loop load, and INVALID when more than 1 % of its requests failed. */
function loadRows(results: Record<string, LoadResult>): string[] {
  return Object.entries(results).flatMap(([name, r]) => {
    const l = r.latencyMs;
    return [
      `${name.padEnd(16)} ${String(r.rps).padStart(7)} req/s   p50 ${l.p50} ms   p90 ${l.p90} ms ` +
        `  p99 ${l.p99} ms   max ${l.max} ms   (${r.requests} requests, ${r.errors} errors)`,
      ...refusals(name, r.requests - r.errors, r.errors),
    ];
  });
}

/** One bench: its lines, or an INVALID line when it threw. */
async function section(name: string, run: () => Promise<readonly string[]>): Promise<void> {
  const started = performance.now();
  try {
    print(await run());
  } catch (err) {
    print([invalid(name, err instanceof Error ? err.message : String(err))]);
  }
  if (SMOKE) console.log(`  (${name}: ${((performance.now() - started) / 1000).toFixed(1)} s)`);
}

const argon2 = {
  memoryKib: Number(process.env.ARGON2_MEMORY_KIB ?? 19456),
  iterations: Number(process.env.ARGON2_ITERATIONS ?? 2),
};
const server = await startServer(databaseUrl ? { DATABASE_URL: databaseUrl } : {});
try {
  console.log(
    `Tessera benchmarks${SMOKE ? " (smoke: small seeds, figures mean nothing)" : ""}: ${availableParallelism()} cores, ` +
      `node ${process.version}, database ${databaseUrl ? "PostgreSQL server" : "embedded PGlite"}, ${seconds} s per run`,
  );
  console.log(`Argon2id cost: m=${argon2.memoryKib} KiB, t=${argon2.iterations}, p=1\n`);
  await section("accounts", async () => loadRows(await benchAccounts(server, seconds)));
  await section("im-rest", async () =>
    loadRows(await (await import("./im-rest.bench")).benchImRest(seconds, databaseUrl)),
  );
  await section("catalog", async () => (await import("./catalog.bench")).benchCatalog(databaseUrl));
  await section("ledger", async () => (await import("./ledger.bench")).benchLedger(seconds, databaseUrl));
  await section("purchasing", async () => (await import("./purchasing.bench")).benchPurchasing(seconds, databaseUrl));
  await section("onecard", async () => (await import("./onecard.bench")).benchOnecard(seconds, databaseUrl));
  await section("stores", async () => (await import("./stores.bench")).benchStores(seconds, databaseUrl));
  await section("commerce", async () => (await import("./commerce.bench")).benchCommerce(seconds, databaseUrl));
  await section("commission", async () => (await import("./commission.bench")).benchCommission(databaseUrl));
  await section("mall", async () => (await import("./mall.bench")).benchMall(seconds, databaseUrl));
  await section("im-ws", async () => (await import("./im-ws.bench")).benchImWs(seconds, databaseUrl));
  await section("im-sdk-size", async () => (await import("./im-sdk-size.bench")).benchImSdkSize());
  await section("web-size", async () => (await import("./web-size.bench")).benchWebSize());
  // Lighthouse loads each page through a throttled phone profile (about 45 s for three pages): `npm run bench`
  // only; the smoke in CI keeps to the benches that exercise the server and the build's sizes.
  if (!SMOKE) await section("lighthouse", async () => (await import("./lighthouse.bench")).benchLighthouse());
} finally {
  await server.stop();
}
if (invalidLines.length > 0) {
  console.log(`\n${invalidLines.length} INVALID: these figures do not measure what they claim.`);
  process.exitCode = 1;
}
