import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { buildApp } from "../apps/server/src/app";
import { loadConfig } from "../apps/server/src/config";
import { createContext } from "../apps/server/src/context";
import { openPostgres } from "../apps/server/src/db/database";
import { migrate } from "../apps/server/src/db/migrate";
import { checkInvariants } from "../apps/server/src/modules/ledger";
import { cardCsv } from "../apps/server/test/kit/cards";
import { postgresCpuByPid } from "./lib/proc";
import { benchMerchant, call, freshDatabase, percentile, pgbenchTps, seedDocking, seedSup } from "./lib/seed";
import { sized } from "./lib/scale";
import { countStatements } from "./lib/statements";
import { refusals, requires } from "./lib/verdict";

/**
 * Card-secret orders per second under contention: 20 purchasers buying one code at a time from the
 * same goods, through the whole route stack (app.inject) on a PostgreSQL server, each order one
 * transaction (order row, ledger movement, code allocation with SKIP LOCKED). Printed beside pgbench's
 * TPC-B-like figure with the same number of clients, same server, same run (budget: at least a third).
 */
const PURCHASERS = 20;
const CODES = sized(30_000, 3_000);

/** CPU time (user + system, ms) of every postgres process on this machine, or null where /proc is missing. */
function postgresCpuMs(): number | null {
  const byPid = postgresCpuByPid();
  return byPid === null ? null : [...byPid.values()].reduce((a, b) => a + b, 0);
}

export async function benchPurchasing(seconds: number, serverUrl: string | undefined): Promise<string[]> {
  if (!serverUrl) {
    return [
      "orders           (set BENCH_DATABASE_URL to a PostgreSQL server to measure card-secret orders beside pgbench)",
    ];
  }
  const fresh = await freshDatabase(serverUrl, `tessera_orders_bench_${process.pid}`);
  const url = new URL(fresh.url);
  const dataDir = mkdtempSync(path.join(tmpdir(), "tessera-orders-bench-"));
  const database = await openPostgres(url.toString(), PURCHASERS);
  try {
    await migrate(database);
    const config = loadConfig({
      DATA_DIR: dataDir,
      LOG_LEVEL: "silent",
      DEV_ROUTES: "true",
      ARGON2_MEMORY_KIB: "4096",
      ARGON2_ITERATIONS: "1",
      AUTO_PAYOUT: "false",
      IM_RATE_LIMIT_PER_SECOND: "0",
    });
    const ctx = await createContext(config, { database, log: () => undefined });
    const app = await buildApp(ctx);
    await app.ready();

    // Seed: a supplier with one goods and its codes; 20 docked purchasers with money in their SUP accounts.
    const supplier = await benchMerchant(app, 0);
    const brand = await call<{ id: number }>(app, "POST", "/api/card-brander/brander/update", supplier.token, {
      name: "Bench brand",
      description: "",
    });
    const goods = await call<{ id: number }>(app, "POST", "/api/card-brander/product/add", supplier.token, {
      name: "Bench card",
      brandId: brand.id,
      businessType: "card_secret",
      equityType: "video",
      faceValue: 1000,
      code: "BENCH-1",
      perOrderMax: 10,
      invoiceType: "vat_6",
      price: 900,
      settlementPrice: 800,
    });
    const csv = cardCsv(CODES, (i) => `BENCH${String(i).padStart(8, "0")},S${i},`, { end: false });
    await app.inject({
      method: "POST",
      url: `/api/card-brander/sup/merchandises/${goods.id}/cards?fileName=bench.csv`,
      headers: { "x-auth-token": supplier.token, "content-type": "text/csv" },
      payload: csv,
    });
    const buyers = [];
    for (let i = 1; i <= PURCHASERS; i++) {
      const buyer = await benchMerchant(app, i);
      await seedDocking(database, buyer.merchantId, supplier.merchantId);
      await seedSup(database, buyer.merchantId, 100_000_000);
      buyers.push(buyer);
    }

    let done = 0;
    let failed = 0;
    const latencies: number[] = [];
    const deadline = Date.now() + seconds * 1000;
    const started = Date.now();
    const statements = countStatements();
    const cpu0 = process.cpuUsage();
    const db0 = postgresCpuMs();
    const byPid0 = postgresCpuByPid();
    await Promise.all(
      buyers.map(async (b, w) => {
        for (let i = 0; Date.now() < deadline; i++) {
          const t0 = performance.now();
          const res = await app.inject({
            method: "POST",
            url: "/api/card-user/orders",
            headers: { "x-auth-token": b.token },
            payload: { goodsId: String(goods.id), quantity: 1, orderNo: `BENCH-${w}-${i}` },
          });
          latencies.push(performance.now() - t0);
          if (res.json<{ code: number }>().code === 1) done++;
          else failed++;
        }
      }),
    );
    const elapsed = (Date.now() - started) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const dbCpu = db0 === null ? null : (postgresCpuMs() ?? db0) - db0;
    // The backends serving this database (the pool's connections, opened before or during the run):
    // their CPU alone, whatever else the server runs meanwhile.
    const byPid1 = postgresCpuByPid();
    const backends = (
      await sql<{
        pid: number;
      }>`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`.execute(
        database.db,
      )
    ).rows.map((r) => Number(r.pid));
    const ownCpu =
      byPid0 === null || byPid1 === null
        ? null
        : backends.reduce((sum, pid) => sum + (byPid1.get(pid) ?? 0) - (byPid0.get(pid) ?? 0), 0);
    const byText = statements.stop();
    const orders = Math.max(1, done + failed);
    const cpuFigures =
      `server CPU ${((cpu.user + cpu.system) / 1000 / orders).toFixed(2)} ms per order, ${(cpu.system / 1000 / orders).toFixed(2)} of it in the kernel` +
      (dbCpu === null ? "" : `; PostgreSQL CPU ${(dbCpu / orders).toFixed(2)} ms per order`) +
      (ownCpu === null ? "" : ` (${(ownCpu / orders).toFixed(2)} in this database's ${backends.length} backends)`) +
      `; ${([...byText.values()].reduce((a, b) => a + b, 0) / orders).toFixed(1)} statements per order`;
    const problems = await checkInvariants(database.db);
    await app.close();
    if (problems.length > 0) throw new Error(`ledger invariants broken: ${problems.join("; ")}`);
    latencies.sort((a, b) => a - b);
    const pct = (p: number) => percentile(latencies, p);
    const tps = Math.round(done / elapsed);

    const tpcb = pgbenchTps(url.toString(), PURCHASERS, seconds);
    const ratio = tpcb > 0 ? Math.round((tps / tpcb) * 100) : 0;
    return [
      `card orders      ${String(tps).padStart(7)} orders/s  p50 ${pct(0.5)} ms   p99 ${pct(0.99)} ` +
        `ms   (${PURCHASERS} purchasers, one goods, ${failed} refused; ${cpuFigures})`,
      `pgbench TPC-B    ${String(tpcb).padStart(7)} tx/s      (${PURCHASERS} clients, same server, same run)`,
      `orders / pgbench ${String(ratio).padStart(7)} %         (budget: at least 40 %)`,
      ...refusals("card orders", done, failed),
      ...requires("card orders", done < CODES, `the ${CODES} codes ran out: the rate is understated`),
      // BENCH_STATEMENTS=1: each statement text the orders ran, with its count per order.
      ...(process.env.BENCH_STATEMENTS === "1"
        ? [...byText]
            .sort((a, b) => b[1] - a[1])
            .map(([text, n]) => `  ${(n / orders).toFixed(2)}  ${text.replace(/\s+/g, " ").slice(0, 160)}`)
        : []),
    ];
  } finally {
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
    await fresh.drop();
  }
}

// Run alone: BENCH_DATABASE_URL=postgres://... npx tsx bench/purchasing.bench.ts
if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(
    (await benchPurchasing(Number(process.env.BENCH_SECONDS ?? 10), process.env.BENCH_DATABASE_URL)).join("\n"),
  );
}
