import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openPglite, openPostgres, type Database } from "../apps/server/src/db/database";
import { checkInvariants } from "../apps/server/src/modules/ledger";
import { login, newShop, stockMall } from "../apps/server/src/modules/mall/fixtures";
import { benchApp } from "./lib/app";
import { freshDatabase, percentile, pgbenchTps } from "./lib/seed";

/**
 * The equity mall (issue 30) with 200 customers logged in by SMS code:
 * - the goods list (`GET /api/mall/shop/goods`, the storefront's first call after its config) per second;
 * - checkouts per second, each one card-secret goods paid by wallet (the mall buys the code from the
 *   supplier through the ordinary purchase path, SUP to supplier and income to the mall), beside
 *   pgbench's TPC-B on the same server in the same run (budget: at least a quarter).
 * The shop is set up with the mall tests' fixtures through the real routes. The ledger's invariants are
 * checked afterwards. Without BENCH_DATABASE_URL it runs on the embedded database, without pgbench.
 */
const CUSTOMERS = 200;
const CODES = 6_000;
const PGBENCH_CLIENTS = 20;

interface Figure {
  ok: number;
  refused: number;
  rps: number;
  p50: number;
  p99: number;
}

/** Every customer calls in a closed loop for `seconds`; `request(i, n)` is customer i's n-th call. */
async function closedLoop(seconds: number, clients: number, request: (i: number, n: number) => Promise<boolean>): Promise<Figure> {
  const latencies: number[] = [];
  let ok = 0;
  let refused = 0;
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
  latencies.sort((a, b) => a - b);
  return { ok, refused, rps: Math.round(ok / ((Date.now() - started) / 1000)), p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99) };
}

async function run(database: Database, seconds: number): Promise<{ lines: string[]; checkoutRps: number }> {
  const t = await benchApp(database);
  try {
    const shop = await newShop(t, { codes: CODES, sup: CODES * 2_700 + 1_000_000 });
    const ids = await stockMall(t, shop);
    // Enough SMS for every customer's login code (a package holds 1,000).
    const customers: Record<string, string>[] = [];
    for (let i = 0; i < CUSTOMERS; i++) customers.push((await login(t, shop)).headers);

    const list = await closedLoop(seconds, CUSTOMERS, async (i) => {
      const res = await t.app.inject({ method: "GET", url: "/api/mall/shop/goods?page=1&pageSize=20", headers: customers[i] ?? {} });
      return res.json<{ code: number }>().code === 1;
    });
    const checkout = await closedLoop(seconds, CUSTOMERS, async (i, n) => {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/mall/shop/checkout",
        headers: customers[i] ?? {},
        payload: { lines: [{ kind: "goods", id: ids.cardSelf, quantity: 1 }], payMethod: "wallet", requestKey: `bench-${i}-${n}` },
      });
      return res.json<{ code: number }>().code === 1;
    });
    // The same with the codes in the mall's own stock, bought beforehand in one purchase order.
    for (let left = CODES - checkout.ok - 100, n = 0; left > 0; left -= 10, n++) {
      const body = { goodsId: String(shop.cardGoodsId), quantity: Math.min(left, 10), orderNo: `BENCH-STOCK-${n}` }; // the goods' limit per order
      const stocked = await t.call("POST", "/api/card-user/orders", { token: shop.purchaser.token, body });
      if (stocked.body.code !== 1) throw new Error(`stock: ${stocked.body.msg}`);
    }
    const fromStock = await closedLoop(seconds, CUSTOMERS, async (i, n) => {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/mall/shop/checkout",
        headers: customers[i] ?? {},
        payload: { lines: [{ kind: "goods", id: ids.cardSelf, quantity: 1 }], payMethod: "wallet", requestKey: `bench-stock-${i}-${n}` },
      });
      return res.json<{ code: number }>().code === 1;
    });
    const problems = await checkInvariants(database.db);
    if (problems.length > 0) throw new Error(`ledger invariants broken: ${problems.join("; ")}`);
    return {
      checkoutRps: checkout.rps,
      lines: [
        `mall goods list  ${String(list.rps).padStart(7)} req/s     p50 ${list.p50} ms   p99 ${list.p99} ms   (${CUSTOMERS} customers, ${list.refused} refused)`,
        `mall checkout    ${String(checkout.rps).padStart(7)} orders/s  p50 ${checkout.p50} ms   p99 ${checkout.p99} ms   (${CUSTOMERS} customers, one card-secret goods each, ${checkout.refused} refused; ledger invariants hold)`,
        `  from own stock ${String(fromStock.rps).padStart(7)} orders/s  p50 ${fromStock.p50} ms   p99 ${fromStock.p99} ms   (${fromStock.refused} refused)`,
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
      const { lines } = await run(database, seconds);
      return [...lines, "mall checkout beside pgbench: set BENCH_DATABASE_URL to a PostgreSQL server"];
    } finally {
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  const fresh = await freshDatabase(serverUrl, `tessera_mall_bench_${process.pid}`);
  try {
    const database = await openPostgres(fresh.url, 20);
    const { lines, checkoutRps } = await run(database, seconds).finally(() => database.close());
    const tpcb = pgbenchTps(fresh.url, PGBENCH_CLIENTS, seconds);
    const ratio = tpcb > 0 ? Math.round((checkoutRps / tpcb) * 100) : 0;
    return [
      ...lines,
      `pgbench TPC-B    ${String(tpcb).padStart(7)} tx/s      (${PGBENCH_CLIENTS} clients, same server, same run)`,
      `checkout/pgbench ${String(ratio).padStart(7)} %         (budget: at least 25 %)`,
    ];
  } finally {
    await fresh.drop();
  }
}

// Run alone: [BENCH_DATABASE_URL=postgres://...] npx tsx bench/mall.bench.ts
if (import.meta.url === `file://${process.argv[1]}`) {
  console.log((await benchMall(Number(process.env.BENCH_SECONDS ?? 10), process.env.BENCH_DATABASE_URL)).join("\n"));
}
