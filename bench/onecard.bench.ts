import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../apps/server/src/app";
import { loadConfig } from "../apps/server/src/config";
import { createContext } from "../apps/server/src/context";
import { openPglite, openPostgres, type Database } from "../apps/server/src/db/database";
import { migrate } from "../apps/server/src/db/migrate";
import { checkInvariants } from "../apps/server/src/modules/ledger";
import { sized } from "./lib/scale";
import { refusals } from "./lib/verdict";
import { invariantProblems } from "../apps/server/src/modules/onecard";
import { benchMerchant, call, freshDatabase, percentile, pgbenchTps, seedDocking, seedSup } from "./lib/seed";

/**
 * Stored-value cards (issue 26), three figures:
 * - issuing a batch of 100,000 cards on the embedded database (numbers, passwords, sealing, hashing,
 *   inserts), with the process's peak memory (budget: under 20 s and 300 MB);
 * - redemptions per second, 20 clients over 1,000 cards, each a locked debit with its move row, beside
 *   pgbench's TPC-B figure on the same server in the same run (budget: at least a third);
 * - the public balance query's latency at a steady 200 requests per second (budget: p99 under 50 ms).
 * The last two need a PostgreSQL server (BENCH_DATABASE_URL).
 */
const BATCH = sized(100_000, 2_000);
const CLIENTS = 20;
const CARDS = sized(1_000, 200);

interface Env {
  app: FastifyInstance;
  database: Database;
  close(): Promise<void>;
}

async function open(database: Database, dataDir: string): Promise<Env> {
  await migrate(database);
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: "silent",
    DEV_ROUTES: "true",
    ARGON2_MEMORY_KIB: "4096",
    ARGON2_ITERATIONS: "1",
    AUTO_PAYOUT: "false",
  });
  const ctx = await createContext(config, { database, log: () => undefined });
  const app = await buildApp(ctx);
  await app.ready();
  return { app, database, close: () => app.close() };
}

async function product(app: FastifyInstance, token: string, faceValue: number): Promise<string> {
  const p = await call<{ id: string }>(app, "POST", "/api/card-brander/onecard/products", token, {
    kind: "face_value",
    name: `Bench card ${faceValue}`,
    faceValue,
    salePrice: faceValue,
    named: true,
    validity: { kind: "none" },
    rechargeAllowed: true,
  });
  return p.id;
}

/** 100,000 cards in one batch on a fresh embedded database: seconds and peak RSS. */
async function issueOnPglite(): Promise<string> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "tessera-onecard-bench-"));
  const env = await open(await openPglite(path.join(dataDir, "db")), dataDir);
  try {
    const brand = await benchMerchant(env.app, 0);
    const productId = await product(env.app, brand.token, 10_000);
    // The kernel's high-water mark (a timer sampling RSS cannot run while the batch holds the event loop).
    // The process already holds the server and its embedded database; the budget is what the batch adds.
    const before = process.resourceUsage().maxRSS * 1024;
    const t0 = performance.now();
    await call(env.app, "POST", "/api/card-brander/onecard/batches", brand.token, {
      productId,
      count: BATCH,
      requestKey: "bench-batch",
    });
    const seconds = (performance.now() - t0) / 1000;
    const peak = process.resourceUsage().maxRSS * 1024;
    const mb = (bytes: number) => Math.round(bytes / 1048576);
    return (
      `card batch       ${seconds.toFixed(1).padStart(7)} s for ${BATCH.toLocaleString("en")} cards on the embedded database, ${Math.round(BATCH / seconds)} cards/s, ` +
      `peak RSS ${mb(peak)} MB: ${mb(peak - before)} MB above the ${mb(before)} MB the server and database held before (budget: under 20 s and 300 MB)`
    );
  } finally {
    await env.close();
    await env.database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The cards' numbers and passwords, as the purchaser's extraction gives them. */
async function extract(
  app: FastifyInstance,
  token: string,
  ids: string[],
): Promise<{ no: string; password: string }[]> {
  const res = await app.inject({
    method: "POST",
    url: "/api/card-user/onecard/extract",
    headers: { "x-auth-token": token },
    payload: { cardIds: ids },
  });
  const ExcelJS = (await import("exceljs")).default;
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  const cards: { no: string; password: string }[] = [];
  wb.worksheets[0]?.eachRow((row, n) => {
    if (n > 1) cards.push({ no: row.getCell(1).text, password: row.getCell(2).text });
  });
  return cards;
}

async function onPostgres(seconds: number, serverUrl: string): Promise<string[]> {
  const fresh = await freshDatabase(serverUrl, `tessera_onecard_bench_${process.pid}`);
  const url = new URL(fresh.url);
  const dataDir = mkdtempSync(path.join(tmpdir(), "tessera-onecard-bench-"));
  const env = await open(await openPostgres(url.toString(), CLIENTS), dataDir);
  const { app, database } = env;
  try {
    // 1,000 activated 5-yuan cards held by a purchaser docked with the brand (under the real-name purchase threshold).
    const brand = await benchMerchant(app, 0);
    const buyer = await benchMerchant(app, 1);
    const productId = await product(app, brand.token, 500);
    await call(app, "POST", "/api/card-brander/onecard/batches", brand.token, {
      productId,
      count: CARDS,
      requestKey: "bench-batch",
    });
    await seedDocking(database, buyer.merchantId, brand.merchantId);
    await seedSup(database, buyer.merchantId, CARDS * 500);
    await call(app, "POST", "/api/card-user/onecard/purchase", buyer.token, {
      productId,
      quantity: CARDS,
      requestKey: "bench-buy",
    });
    const ids: string[] = [];
    for (let page = 1; ids.length < CARDS; page++) {
      const list = await call<{ list: { id: string }[] }>(
        app,
        "GET",
        `/api/card-user/onecard/cards?page=${page}&pageSize=1000`,
        buyer.token,
      );
      if (list.list.length === 0) break;
      ids.push(...list.list.map((c) => c.id));
    }
    const cards = await extract(app, buyer.token, ids);
    await call(app, "POST", "/api/card-user/onecard/activate", buyer.token, {
      cardIds: ids,
      requestKey: "bench-activate",
    });

    // Redemptions: 20 clients, each redeeming 1 fen at a time from a card of its own stride over the 1,000.
    let done = 0;
    let refused = 0;
    const latencies: number[] = [];
    const deadline = Date.now() + seconds * 1000;
    const started = Date.now();
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, w) => {
        for (let i = 0; Date.now() < deadline; i++) {
          const card = cards[(w + i * CLIENTS) % cards.length];
          const t0 = performance.now();
          const res = await app.inject({
            method: "POST",
            url: "/api/card-brander/onecard/redeem",
            headers: { "x-auth-token": brand.token },
            payload: { cardNo: card?.no, password: card?.password, amount: 1, requestKey: `bench-${w}-${i}` },
          });
          latencies.push(performance.now() - t0);
          if (res.json<{ code: number }>().code === 1) done++;
          else refused++;
        }
      }),
    );
    const rps = Math.round(done / ((Date.now() - started) / 1000));
    latencies.sort((a, b) => a - b);
    const redeemLine =
      `card redemptions ${String(rps).padStart(7)} /s        p50 ${percentile(latencies, 0.5)} ms   p99 ${percentile(latencies, 0.99)} ` +
      `ms   (${CLIENTS} clients over ${CARDS} cards, ${refused} refused)`;

    // The public balance query at a steady 200 requests per second (an open loop: late replies do not slow the sender).
    const rate = 200;
    const queryLatencies: number[] = [];
    let queryErrors = 0;
    const pending: Promise<void>[] = [];
    const queryStart = performance.now();
    for (let i = 0; i < rate * seconds; i++) {
      const due = queryStart + (i * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const card = cards[(i * 7) % cards.length];
      const t0 = performance.now();
      pending.push(
        app
          .inject({
            method: "POST",
            url: "/api/card-public/onecard/balance",
            remoteAddress: `10.200.${i % 250}.${Math.floor(i / 250) % 250}`,
            payload: { cardNo: card?.no, password: card?.password },
          })
          .then((res) => {
            queryLatencies.push(performance.now() - t0);
            if (res.json<{ code: number }>().code !== 1) queryErrors++;
          }),
      );
    }
    await Promise.all(pending);
    queryLatencies.sort((a, b) => a - b);
    const queryLine =
      `balance query    ${String(rate).padStart(7)} req/s     p50 ${percentile(queryLatencies, 0.5)} ms   p90 ${percentile(queryLatencies, 0.9)} ` +
      `ms   p99 ${percentile(queryLatencies, 0.99)} ms   (${queryErrors} errors; budget: p99 under 50 ms)`;

    const problems = [...(await checkInvariants(database.db)), ...(await invariantProblems(database.db))];
    if (problems.length > 0) throw new Error(`invariants broken: ${problems.join("; ")}`);
    await env.close();

    const tpcb = pgbenchTps(url.toString(), CLIENTS, seconds);
    const ratio = tpcb > 0 ? Math.round((rps / tpcb) * 100) : 0;
    return [
      redeemLine,
      `pgbench TPC-B    ${String(tpcb).padStart(7)} tx/s      (${CLIENTS} clients, same server, same run)`,
      `redeem / pgbench ${String(ratio).padStart(7)} %         (budget: at least 40 %)`,
      queryLine,
      ...refusals("card redemptions", done, refused),
      ...refusals("balance query", queryLatencies.length - queryErrors, queryErrors),
    ];
  } finally {
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
    await fresh.drop();
  }
}

export async function benchOnecard(seconds: number, serverUrl: string | undefined): Promise<string[]> {
  const lines = [await issueOnPglite()];
  if (serverUrl) lines.push(...(await onPostgres(seconds, serverUrl)));
  else {
    lines.push(
      "card redemptions (set BENCH_DATABASE_URL to a PostgreSQL server to measure redemptions beside pgbench and the balance query)",
    );
  }
  return lines;
}

// Run alone: [BENCH_DATABASE_URL=postgres://...] npx tsx bench/onecard.bench.ts
if (import.meta.url === `file://${process.argv[1]}`) {
  console.log((await benchOnecard(Number(process.env.BENCH_SECONDS ?? 10), process.env.BENCH_DATABASE_URL)).join("\n"));
}
