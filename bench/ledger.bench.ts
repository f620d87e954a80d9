import { execFileSync } from "node:child_process";
import pg from "pg";
import { openPostgres } from "../apps/server/src/db/database";
import { migrate } from "../apps/server/src/db/migrate";
import { withTx } from "../apps/server/src/db/tx";
import { checkInvariants, post } from "../apps/server/src/modules/ledger";
import { refusals } from "./lib/verdict";
import { createMerchant } from "../apps/server/src/modules/merchants";

/**
 * Ledger transactions per second with 8 concurrent clients on a PostgreSQL server, beside pgbench's
 * TPC-B-like figure measured in the same run on the same server (issue budget: at least half of it).
 * Each ledger transaction is a real `post`: idempotency row, two balance updates that refuse overdraft,
 * two entries, in one database transaction, between accounts that many clients hit at once.
 */
const CLIENTS = 8;
const MERCHANTS = 50;

async function withDatabase<T>(serverUrl: string, fn: (url: string) => Promise<T>): Promise<T> {
  const name = `tessera_bench_${Date.now()}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  try {
    return await fn(url.toString());
  } finally {
    const cleanup = new pg.Client({ connectionString: serverUrl });
    await cleanup.connect();
    await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await cleanup.end();
  }
}

async function ledgerTps(
  url: string,
  seconds: number,
): Promise<{ tps: number; done: number; refused: number; p99: number }> {
  const database = await openPostgres(url, CLIENTS);
  await migrate(database);
  const db = database.db;
  const ids: number[] = [];
  for (let i = 0; i < MERCHANTS; i++) {
    const id = await withTx(db, (tx) =>
      createMerchant(tx, { name: `Bench ${i}`, version: "domestic", country: null, currency: "CNY" }),
    );
    await withTx(db, (tx) =>
      post(tx, {
        idempotencyKey: `seed-${id}`,
        kind: "manual_credit",
        currency: "CNY",
        postings: [
          { account: { platform: "bank_clearing" }, amount: -1_000_000_000 },
          { account: { merchantId: id, kind: "reserve" }, amount: 1_000_000_000 },
        ],
      }),
    );
    ids.push(id);
  }
  let done = 0;
  let refused = 0;
  const latencies: number[] = [];
  const deadline = Date.now() + seconds * 1000;
  const client = async (c: number) => {
    for (let i = 0; Date.now() < deadline; i++) {
      // Two different accounts, spread so that clients contend on the same rows now and then.
      const a = (c * 7 + i) % ids.length;
      const b = (a + 1 + ((c * 13 + i * 3) % (ids.length - 1))) % ids.length;
      const from = ids[a] ?? 0;
      const to = ids[b] ?? 0;
      const started = performance.now();
      try {
        await withTx(db, (tx) =>
          post(tx, {
            idempotencyKey: `b-${c}-${i}`,
            kind: "transfer",
            currency: "CNY",
            postings: [
              { account: { merchantId: from, kind: "reserve" }, amount: -100 },
              { account: { merchantId: to, kind: "reserve" }, amount: 100 },
            ],
          }),
        );
        done++;
      } catch {
        refused++;
      }
      latencies.push(performance.now() - started);
    }
  };
  const started = Date.now();
  await Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c)));
  const elapsed = (Date.now() - started) / 1000;
  const problems = await checkInvariants(db);
  await database.close();
  if (problems.length > 0) throw new Error(`ledger invariants broken: ${problems.join("; ")}`);
  latencies.sort((a, b) => a - b);
  return {
    tps: Math.round(done / elapsed),
    done,
    refused,
    p99: Math.round((latencies[Math.floor(latencies.length * 0.99)] ?? 0) * 10) / 10,
  };
}

function pgbenchTps(url: string, seconds: number): number {
  execFileSync("pgbench", ["-i", "-q", "-s", "1", url], { stdio: "ignore" });
  const out = execFileSync("pgbench", ["-n", "-c", String(CLIENTS), "-j", "2", "-T", String(seconds), url], {
    encoding: "utf8",
  });
  const m = /tps = ([\d.]+)/.exec(out);
  return m?.[1] ? Math.round(Number(m[1])) : 0;
}

export async function benchLedger(seconds: number, serverUrl: string | undefined): Promise<string[]> {
  if (!serverUrl) {
    return [
      "ledger           (set BENCH_DATABASE_URL to a PostgreSQL server to measure ledger transactions beside pgbench)",
    ];
  }
  return withDatabase(serverUrl, async (url) => {
    const ledger = await ledgerTps(url, seconds);
    const tpcb = pgbenchTps(url, seconds);
    const ratio = tpcb > 0 ? Math.round((ledger.tps / tpcb) * 100) : 0;
    return [
      `ledger post      ${String(ledger.tps).padStart(7)} tx/s    p99 ${ledger.p99} ms ` +
        `  (${CLIENTS} clients, ${MERCHANTS} accounts, ${ledger.refused} refused)`,
      `pgbench TPC-B    ${String(tpcb).padStart(7)} tx/s    (${CLIENTS} clients, same server, same run)`,
      `ledger / pgbench ${String(ratio).padStart(7)} %       (budget: at least 50 %)`,
      ...refusals("ledger post", ledger.done, ledger.refused),
    ];
  });
}
