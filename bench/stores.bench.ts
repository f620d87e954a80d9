import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import ExcelJS from "exceljs";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../apps/server/src/app";
import { loadConfig } from "../apps/server/src/config";
import { createContext } from "../apps/server/src/context";
import { openPglite, openPostgres, type Database } from "../apps/server/src/db/database";
import { migrate } from "../apps/server/src/db/migrate";
import { checkInvariants } from "../apps/server/src/modules/ledger";
import { sized } from "./lib/scale";
import { refusals, requires } from "./lib/verdict";
import { STORE_HEADERS, XLSX_MIME } from "../apps/server/src/modules/stores/sheets";
import { cardCsv } from "../apps/server/test/kit/cards";
import { cpuMs } from "./lib/proc";
import { benchMerchant, call, freshDatabase, percentile, pgbenchTps, seedDocking, seedSup } from "./lib/seed";
import { countStatements } from "./lib/statements";

/**
 * Brand stores and write-off (issue 27), two figures:
 * - redemptions per second: 20 clerks, each bound to its own store of one brand, redeeming distinct
 *   voucher codes bought through the purchasing path (one code per request, each its own transaction:
 *   the code's row locked and marked, the redemption row written), beside pgbench's TPC-B figure with
 *   20 clients on the same server in the same run (budget: at least a third). The pgbench half needs a
 *   PostgreSQL server (BENCH_DATABASE_URL); on the embedded database the redemption rate is printed alone.
 * - importing 10,000 stores from an xlsx through the route the web page posts to (budget: under 10 s).
 */
const CLERKS = 20;
const IMPORT_ROWS = sized(10_000, 500);
const PASSWORD = "Bench#2026pass";
const PRICE = 900;

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
    IM_RATE_LIMIT_PER_SECOND: "0",
  });
  const ctx = await createContext(config, { database, log: () => undefined });
  const app = await buildApp(ctx);
  await app.ready();
  return { app, database, close: () => app.close() };
}

interface Seeded {
  codes: { number: string; secret: string }[];
  clerks: string[];
}

/**
 * A brand with a voucher goods and `count` codes imported, bought in full by a docked purchaser through
 * the order route; 20 stores, each with a clerk (a sub-account with the verification page) logged in.
 */
async function seed(env: Env, count: number): Promise<Seeded> {
  const { app, database } = env;
  const brand = await benchMerchant(app, 0);
  const b = await call<{ id: number }>(app, "POST", "/api/card-brander/brander/update", brand.token, {
    name: "Bench store brand",
    description: "",
  });
  const perOrder = 1000;
  const goods = await call<{ id: number }>(app, "POST", "/api/card-brander/product/add", brand.token, {
    name: "Bench voucher",
    brandId: b.id,
    businessType: "card_voucher",
    equityType: "video",
    faceValue: 1000,
    code: "BENCH-V1",
    perOrderMax: perOrder,
    invoiceType: "vat_6",
    price: PRICE,
    settlementPrice: 800,
  });
  const codes = Array.from({ length: count }, (_, i) => ({
    number: `BV${String(i).padStart(9, "0")}`,
    secret: `S${i}x${(i * 7919) % 100_003}`,
  }));
  const csv = cardCsv(
    codes.map((c) => `${c.number},${c.secret},`),
    { end: false },
  );
  const imported = await app.inject({
    method: "POST",
    url: `/api/card-brander/sup/merchandises/${goods.id}/cards?fileName=bench.csv`,
    headers: { "x-auth-token": brand.token, "content-type": "text/csv" },
    payload: csv,
  });
  const imp = imported.json<{ code: number; msg: string; data: { imported: number } }>();
  if (imp.code !== 1 || imp.data.imported !== count) {
    throw new Error(`code import: ${imp.msg} (${imp.code === 1 ? imp.data.imported : 0} of ${count})`);
  }
  const buyer = await benchMerchant(app, 1);
  await seedDocking(database, buyer.merchantId, brand.merchantId);
  // Real-name verified, as an operator's approval marks it (purchases above the threshold need it).
  await database.db
    .updateTable("merchants")
    .set({ real_name_state: "verified" })
    .where("id", "=", Number(buyer.merchantId))
    .execute();
  await seedSup(database, buyer.merchantId, count * PRICE);
  for (let bought = 0, n = 0; bought < count; n++) {
    const quantity = Math.min(perOrder, count - bought);
    await call(app, "POST", "/api/card-user/orders", buyer.token, {
      goodsId: String(goods.id),
      quantity,
      orderNo: `BENCH-V-${n}`,
    });
    bought += quantity;
  }
  const clerks: string[] = [];
  for (let i = 0; i < CLERKS; i++) {
    const store = await call<{ id: string }>(app, "POST", "/api/card-brander/branderStores", brand.token, {
      name: `Bench store ${i}`,
      provinceCode: "440000",
      cityCode: "440300",
      countyCode: "440305",
      address: `${i} Science Park Road`,
    });
    const email = `bench-clerk-${i}-${Date.now()}@example.com`;
    const added = await call<{ passportId: string }>(app, "POST", "/api/card-brander/passport/sub/add", brand.token, {
      email,
      name: `Clerk ${i}`,
      password: PASSWORD,
      menus: ["business/WriteOff"],
    });
    await call(app, "POST", `/api/card-brander/branderStores/${store.id}/clerks`, brand.token, {
      passportId: added.passportId,
    });
    clerks.push(
      (
        await call<{ token: string }>(app, "POST", "/api/card-user/login", undefined, {
          email,
          password: PASSWORD,
          version: "domestic",
        })
      ).token,
    );
  }
  return { codes, clerks };
}

/** 20 clerks redeeming distinct codes for `seconds` (each clerk its own stride of the codes). */
async function redeem(
  app: FastifyInstance,
  s: Seeded,
  seconds: number,
): Promise<{ rps: number; done: number; refused: number; exhausted: boolean; line: string }> {
  let done = 0;
  let refused = 0;
  let exhausted = false;
  const reasons = new Map<string, number>();
  const latencies: number[] = [];
  const deadline = Date.now() + seconds * 1000;
  const started = Date.now();
  await Promise.all(
    s.clerks.map(async (token, w) => {
      for (let i = 0; Date.now() < deadline; i++) {
        const code = s.codes[w + i * CLERKS];
        if (!code) {
          exhausted = true;
          break;
        }
        const t0 = performance.now();
        const res = await app.inject({
          method: "POST",
          url: "/api/card-brander/writeOff/redeem",
          headers: { "x-auth-token": token },
          payload: { kind: "coupon", code: code.number, secret: code.secret, requestKey: `bench-${w}-${i}` },
        });
        latencies.push(performance.now() - t0);
        const body = res.json<{ code: number; msg: string }>();
        if (body.code === 1) done++;
        else {
          refused++;
          reasons.set(body.msg, (reasons.get(body.msg) ?? 0) + 1);
        }
      }
    }),
  );
  const elapsed = (Date.now() - started) / 1000;
  const rps = Math.round(done / elapsed);
  latencies.sort((a, b) => a - b);
  const why = reasons.size === 0 ? "" : `: ${[...reasons].map(([m, n]) => `${n}× ${m}`).join(", ")}`;
  const line =
    `store redemptions ${String(rps).padStart(6)} /s        p50 ${percentile(latencies, 0.5)} ms   p99 ${percentile(latencies, 0.99)} ms   (${CLERKS} clerks ` +
    `at ${CLERKS} stores over distinct codes, ${done} redeemed, ${refused} refused${why}${exhausted ? "; ran out of codes before the time was up" : ""})`;
  return { rps, done, refused, exhausted, line };
}

/** 10,000 stores in the import template's columns (Chinese headers), as a brand fills it in. */
async function storeSheet(rows: number): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet("stores");
  ws.addRow(STORE_HEADERS.cn);
  const counties = [
    ["广东省", "深圳市", "南山区"],
    ["广东省", "深圳市", "福田区"],
    ["北京市", "北京市", "东城区"],
    ["上海市", "上海市", "黄浦区"],
  ];
  for (let i = 0; i < rows; i++) {
    const [province = "", city = "", county = ""] = counties[i % counties.length] ?? [];
    ws.addRow([
      `导入门店${String(i).padStart(5, "0")}`,
      province,
      city,
      county,
      `科技园路${i + 1}号`,
      (113.9 + (i % 100) / 1000).toFixed(3),
      (22.5 + (i % 100) / 1000).toFixed(3),
      "09:00-21:00",
      "张三",
      `0755-${String(10_000_000 + i)}`,
      "",
      i % 10 === 0 ? "停业" : "营业",
    ]);
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** The import as the store page posts it: the file as the body, its name in the query. */
async function importStores(env: Env, where: string): Promise<string[]> {
  const brand = await benchMerchant(env.app, 9);
  const file = await storeSheet(IMPORT_ROWS);
  const t0 = performance.now();
  const res = await env.app.inject({
    method: "POST",
    url: "/api/card-brander/branderStores/import?fileName=bench-stores.xlsx",
    headers: { "x-auth-token": brand.token, "content-type": XLSX_MIME },
    payload: file,
  });
  const seconds = (performance.now() - t0) / 1000;
  const body = res.json<{ code: number; msg: string; data: { imported: number; rejected: number } }>();
  if (body.code !== 1) throw new Error(`store import: ${body.msg}`);
  const stored = await env.database.db
    .selectFrom("stores")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("brander_id", "=", Number(brand.merchantId))
    .executeTakeFirst();
  return [
    `store import     ${seconds.toFixed(2).padStart(7)} s for ${IMPORT_ROWS.toLocaleString("en")} rows (${Math.round(file.length / 1024)} KB xlsx) ` +
      `on ${where}: ${body.data.imported} accepted, ${body.data.rejected} rejected, ${Number(stored?.n ?? 0)} stored (budget: under 10 s)`,
    // Every tenth row of the sheet is a closed store, still a valid row: all of them must be stored.
    ...requires(
      "store import",
      Number(stored?.n ?? 0) === IMPORT_ROWS,
      `${Number(stored?.n ?? 0)} of ${IMPORT_ROWS} rows stored`,
    ),
  ];
}

/** A redemption run that was refused or ran out of codes measured something else. */
function verdicts(r: { done: number; refused: number; exhausted: boolean }): string[] {
  return [
    ...refusals("store redemptions", r.done, r.refused),
    ...requires("store redemptions", !r.exhausted, "the codes ran out before the time was up: the rate is understated"),
  ];
}

async function onPglite(seconds: number): Promise<string[]> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "tessera-stores-bench-"));
  const env = await open(await openPglite(path.join(dataDir, "db")), dataDir);
  try {
    const lines = await importStores(env, "the embedded database");
    const s = await seed(env, Math.max(2_000, seconds * 300));
    const r = await redeem(env.app, s, seconds);
    const problems = await checkInvariants(env.database.db);
    if (problems.length > 0) throw new Error(`ledger invariants broken: ${problems.join("; ")}`);
    lines.push(`${r.line} on the embedded database`, ...verdicts(r));
    lines.push(
      "pgbench TPC-B    (needs a PostgreSQL server: set BENCH_DATABASE_URL to measure redemptions beside pgbench)",
    );
    return lines;
  } finally {
    await env.close();
    await env.database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function onPostgres(seconds: number, serverUrl: string): Promise<string[]> {
  const fresh = await freshDatabase(serverUrl, `tessera_stores_bench_${process.pid}`);
  const url = new URL(fresh.url);
  const dataDir = mkdtempSync(path.join(tmpdir(), "tessera-stores-bench-"));
  const env = await open(await openPostgres(url.toString(), CLERKS), dataDir);
  const { database } = env;
  try {
    const importLine = await importStores(env, "the PostgreSQL server");
    const s = await seed(env, Math.max(4_000, seconds * 1_500));
    const statements = countStatements();
    const cpu0 = process.cpuUsage();
    const db0 = cpuMs(null);
    const r = await redeem(env.app, s, seconds);
    const cpu = process.cpuUsage(cpu0);
    const dbCpu = cpuMs(null) - db0;
    const byText = statements.stop();
    const tries = Math.max(1, r.done + r.refused);
    const perRedemption =
      `server CPU ${((cpu.user + cpu.system) / 1000 / tries).toFixed(2)} ms per redemption, PostgreSQL CPU ${(dbCpu / tries).toFixed(2)} ` +
      `ms; ${([...byText.values()].reduce((a, b) => a + b, 0) / tries).toFixed(1)} statements per redemption`;
    const redeemed = await database.db
      .selectFrom("store_redemptions")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .executeTakeFirst();
    if (Number(redeemed?.n ?? 0) !== r.done) {
      throw new Error(`${r.done} redemptions answered, ${Number(redeemed?.n ?? 0)} stored`);
    }
    const problems = await checkInvariants(database.db);
    if (problems.length > 0) throw new Error(`ledger invariants broken: ${problems.join("; ")}`);
    await env.close();

    const tpcb = pgbenchTps(url.toString(), CLERKS, seconds);
    const ratio = tpcb > 0 ? Math.round((r.rps / tpcb) * 100) : 0;
    return [
      `${r.line}; ${perRedemption}`,
      `pgbench TPC-B    ${String(tpcb).padStart(7)} tx/s      (${CLERKS} clients, same server, same run)`,
      `redeem / pgbench ${String(ratio).padStart(7)} %         (budget: at least 40 %)`,
      ...verdicts(r),
      // BENCH_STATEMENTS=1: each statement text the redemptions ran, with its count per redemption.
      ...(process.env.BENCH_STATEMENTS === "1"
        ? [...byText]
            .sort((a, b) => b[1] - a[1])
            .map(([text, n]) => `  ${(n / tries).toFixed(2)}  ${text.replace(/\s+/g, " ").slice(0, 160)}`)
        : []),
      ...importLine,
    ];
  } finally {
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
    await fresh.drop();
  }
}

export async function benchStores(seconds: number, serverUrl: string | undefined): Promise<string[]> {
  return serverUrl ? onPostgres(seconds, serverUrl) : onPglite(seconds);
}

// Run alone: [BENCH_DATABASE_URL=postgres://...] npx tsx bench/stores.bench.ts
if (import.meta.url === `file://${process.argv[1]}`) {
  console.log((await benchStores(Number(process.env.BENCH_SECONDS ?? 10), process.env.BENCH_DATABASE_URL)).join("\n"));
}
