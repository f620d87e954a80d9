import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { openPglite, openPostgres, type Database } from "../apps/server/src/db/database";
import { checkInvariants } from "../apps/server/src/modules/ledger";
import { sized } from "./lib/scale";
import { refusals } from "./lib/verdict";
import { login, newShop, stockMall } from "../apps/server/test/kit/mall-fixtures";
import { benchApp } from "./lib/app";
import { postgresCpuByPid } from "./lib/proc";
import { freshDatabase, percentile, pgbenchTps } from "./lib/seed";
import { countStatements } from "./lib/statements";

/**
 * The equity mall (issue 30) with 200 customers logged in by SMS code:
 * - the goods list (`GET /api/mall/shop/goods`, the storefront's first call after its config) per second;
 * - checkouts per second, each one card-secret goods paid by wallet, two ways: "smart purchase" (the
 *   mall holds no code and buys each one from the supplier at checkout through the ordinary purchase
 *   path, SUP to supplier, then income to the mall) and "own stock" (the codes bought beforehand);
 * - pgbench's TPC-B on the same server in the same run. The headline ratio (budget: at least a third)
 *   uses the own-stock figure: a running mall sells the codes its merchant stocked, smart purchase is the
 *   fallback when the stock runs out; both ratios are printed.
 * Beside each rate: statements, server CPU and PostgreSQL CPU per request (the machine is shared, so these
 * compare better than raw rates); BENCH_STATEMENTS=1 lists each statement text per request.
 * The shop is set up with the mall tests' fixtures through the real routes. The ledger's invariants are
 * checked afterwards. Without BENCH_DATABASE_URL it runs on the embedded database, without pgbench.
 */
const CUSTOMERS = sized(200, 40);
/**
 * Codes for both checkout phases: enough that the own-stock phase never runs dry (a dry stock ends in fast
 * refusals, and the figure would count the seconds after it as if they sold nothing): up to about 500 smart
 * purchases and 1,000 stock sales a second on an idle machine.
 */
const codesFor = (seconds: number) => Math.max(6_000, 1_500 * seconds);
const PGBENCH_CLIENTS = 20;

interface Figure {
  ok: number;
  refused: number;
  rps: number;
  p50: number;
  p99: number;
  /** Per request: statements sent, server (this process) CPU ms, PostgreSQL CPU ms (every postgres process; null on PGlite or without /proc). */
  costs: string;
  statements: Map<string, number>;
}

/**
 * The CPU (ms) the backends serving this database used between two readings of every postgres process
 * (the pool's connections; other databases on the shared server, such as other benches, do not count).
 */
async function ownBackendsCpu(db: Database["db"], before: Map<number, number> | null): Promise<number | null> {
  const after = postgresCpuByPid();
  if (before === null || after === null) return null;
  const pids = (
    await sql<{
      pid: number;
    }>`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`.execute(db)
  ).rows.map((r) => Number(r.pid));
  return pids.reduce((sum, pid) => sum + (after.get(pid) ?? 0) - (before.get(pid) ?? 0), 0);
}

/** Why calls were refused, per phase: the server's message and how often (printed beside an INVALID verdict). */
const refusedWhy = new Map<string, Map<string, number>>();
function answered(body: { code: number; msg: string }, phase: string): boolean {
  if (body.code === 1) return true;
  const why = refusedWhy.get(phase) ?? new Map<string, number>();
  why.set(body.msg, (why.get(body.msg) ?? 0) + 1);
  refusedWhy.set(phase, why);
  return false;
}
const reasons = (phase: string) =>
  [...(refusedWhy.get(phase) ?? [])].map(([msg, n]) => `  ${phase} refused ×${n}: ${msg}`);

/** Every customer calls in a closed loop for `seconds`; `request(i, n)` is customer i's n-th call. */
async function closedLoop(
  seconds: number,
  clients: number,
  request: (i: number, n: number) => Promise<boolean>,
  postgres: Database["db"] | null,
): Promise<Figure> {
  const latencies: number[] = [];
  let ok = 0;
  let refused = 0;
  const statements = countStatements();
  const cpu0 = process.cpuUsage();
  const db0 = postgres ? postgresCpuByPid() : null;
  const started = Date.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async (_, i) => {
      for (let n = 0; Date.now() < deadline; n++) {
        const t0 = performance.now();
        const good = await request(i, n);
        latencies.push(performance.now() - t0);
        if (good) ok++;
        else refused++;
      }
    }),
  );
  const elapsed = (Date.now() - started) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const byText = statements.stop();
  const dbCpu = postgres ? await ownBackendsCpu(postgres, db0) : null;
  const n = Math.max(1, ok + refused);
  const costs =
    `${([...byText.values()].reduce((a, b) => a + b, 0) / n).toFixed(1)} statements, server CPU ${((cpu.user + cpu.system) / 1000 / n).toFixed(2)} ms` +
    (dbCpu === null ? "" : `, PostgreSQL CPU ${(dbCpu / n).toFixed(2)} ms (this database's backends)`) +
    " per request";
  latencies.sort((a, b) => a - b);
  return {
    ok,
    refused,
    rps: Math.round(ok / elapsed),
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    costs,
    statements: byText,
  };
}

async function run(
  database: Database,
  seconds: number,
  onPostgres: boolean,
): Promise<{ lines: string[]; stockRps: number; smartRps: number }> {
  const t = await benchApp(database);
  try {
    const codes = codesFor(seconds);
    const shop = await newShop(t, { codes, sup: codes * 2_700 + 1_000_000 });
    const ids = await stockMall(t, shop);
    // Enough SMS for every customer's login code (a package holds 1,000).
    const customers: Record<string, string>[] = [];
    for (let i = 0; i < CUSTOMERS; i++) customers.push((await login(t, shop)).headers);

    const list = await closedLoop(
      seconds,
      CUSTOMERS,
      async (i) => {
        const res = await t.app.inject({
          method: "GET",
          url: "/api/mall/shop/goods?page=1&pageSize=20",
          headers: customers[i] ?? {},
        });
        return res.json<{ code: number }>().code === 1;
      },
      onPostgres ? database.db : null,
    );
    const checkout = await closedLoop(
      seconds,
      CUSTOMERS,
      async (i, n) => {
        const res = await t.app.inject({
          method: "POST",
          url: "/api/mall/shop/checkout",
          headers: customers[i] ?? {},
          payload: {
            lines: [{ kind: "goods", id: ids.cardSelf, quantity: 1 }],
            payMethod: "wallet",
            requestKey: `bench-${i}-${n}`,
          },
        });
        return answered(res.json<{ code: number; msg: string }>(), "checkout, smart purchase");
      },
      onPostgres ? database.db : null,
    );
    // The same with the codes in the mall's own stock, bought beforehand in one purchase order.
    for (let left = codes - checkout.ok - 100, n = 0; left > 0; left -= 10, n++) {
      const body = { goodsId: String(shop.cardGoodsId), quantity: Math.min(left, 10), orderNo: `BENCH-STOCK-${n}` }; // the goods' limit per order
      const stocked = await t.call("POST", "/api/card-user/orders", { token: shop.purchaser.token, body });
      if (stocked.body.code !== 1) throw new Error(`stock: ${stocked.body.msg}`);
    }
    const fromStock = await closedLoop(
      seconds,
      CUSTOMERS,
      async (i, n) => {
        const res = await t.app.inject({
          method: "POST",
          url: "/api/mall/shop/checkout",
          headers: customers[i] ?? {},
          payload: {
            lines: [{ kind: "goods", id: ids.cardSelf, quantity: 1 }],
            payMethod: "wallet",
            requestKey: `bench-stock-${i}-${n}`,
          },
        });
        return res.json<{ code: number }>().code === 1;
      },
      onPostgres ? database.db : null,
    );
    const problems = await checkInvariants(database.db);
    if (problems.length > 0) throw new Error(`ledger invariants broken: ${problems.join("; ")}`);
    // BENCH_STATEMENTS=1: each statement text a phase ran, with its count per request.
    const breakdown = (name: string, f: Figure) =>
      process.env.BENCH_STATEMENTS === "1"
        ? [
            `  statements per request, ${name}:`,
            ...[...f.statements]
              .sort((a, b) => b[1] - a[1])
              .map(
                ([text, n]) =>
                  `    ${(n / Math.max(1, f.ok + f.refused)).toFixed(2)}  ${text.replace(/\s+/g, " ").slice(0, 160)}`,
              ),
          ]
        : [];
    return {
      smartRps: checkout.rps,
      stockRps: fromStock.rps,
      lines: [
        `mall goods list  ${String(list.rps).padStart(7)} req/s     p50 ${list.p50} ms ` +
          `  p99 ${list.p99} ms   (${CUSTOMERS} customers, ${list.refused} refused)`,
        `                 ${list.costs}`,
        `checkout, smart purchase ${String(checkout.rps).padStart(5)} orders/s  p50 ${checkout.p50} ms   p99 ${checkout.p99} ms   ` +
          `(${CUSTOMERS} customers, one card-secret goods each, bought from the supplier per order, ${checkout.refused} refused)`,
        `                 ${checkout.costs}`,
        `checkout, own stock      ${String(fromStock.rps).padStart(5)} orders/s  p50 ${fromStock.p50} ms   p99 ${fromStock.p99} ms   (codes bought beforehand, ` +
          `${fromStock.refused} refused${fromStock.refused > 0 ? ": the stock ran dry, the rate is understated" : ""}; ledger invariants hold)`,
        `                 ${fromStock.costs}`,
        ...refusals("mall goods list", list.ok, list.refused),
        ...refusals("checkout, smart purchase", checkout.ok, checkout.refused),
        ...reasons("checkout, smart purchase"),
        // A refusal here is the stock running dry: the rate would be understated.
        ...refusals("checkout, own stock", fromStock.ok, fromStock.refused),
        ...breakdown("goods list", list),
        ...breakdown("checkout, smart purchase", checkout),
        ...breakdown("checkout, own stock", fromStock),
      ],
    };
  } finally {
    await t.close();
  }
}

export async function benchMall(seconds: number, serverUrl: string | undefined): Promise<string[]> {
  if (!serverUrl) {
    const dataDir = mkdtempSync(path.join(tmpdir(), "tessera-mall-pglite-"));
    const database = await openPglite(path.join(dataDir, "db"));
    try {
      const { lines } = await run(database, seconds, false);
      return [...lines, "mall checkout beside pgbench: set BENCH_DATABASE_URL to a PostgreSQL server"];
    } finally {
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  const fresh = await freshDatabase(serverUrl, `tessera_mall_bench_${process.pid}`);
  try {
    const database = await openPostgres(fresh.url, 20);
    const { lines, stockRps, smartRps } = await run(database, seconds, true).finally(() => database.close());
    const tpcb = pgbenchTps(fresh.url, PGBENCH_CLIENTS, seconds);
    const pct = (rps: number) => (tpcb > 0 ? Math.round((rps / tpcb) * 100) : 0);
    return [
      ...lines,
      `pgbench TPC-B    ${String(tpcb).padStart(7)} tx/s      (${PGBENCH_CLIENTS} clients, same server, same run)`,
      `checkout/pgbench ${String(pct(stockRps)).padStart(7)} %         (own stock, the headline; budget: at least 33 %)`,
      `  smart purchase ${String(pct(smartRps)).padStart(7)} %         (each order buys its code from the supplier first)`,
    ];
  } finally {
    await fresh.drop();
  }
}

// Run alone: [BENCH_DATABASE_URL=postgres://...] npx tsx bench/mall.bench.ts
if (import.meta.url === `file://${process.argv[1]}`) {
  console.log((await benchMall(Number(process.env.BENCH_SECONDS ?? 10), process.env.BENCH_DATABASE_URL)).join("\n"));
}
