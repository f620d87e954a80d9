import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import pg from "pg";
import { buildApp } from "../apps/server/src/app";
import { loadConfig } from "../apps/server/src/config";
import { createContext, type AppContext } from "../apps/server/src/context";
import { openPglite, openPostgres } from "../apps/server/src/db/database";
import { cpuMs, memoryMb } from "./lib/proc";
import { startServer } from "./lib/server";
import { sized } from "./lib/scale";
import { requires } from "./lib/verdict";

/**
 * Catalog and supply figures:
 * - card import: CATALOG_BENCH_CODES (default 1,000,000) codes streamed as CSV over HTTP into one goods, to
 *   the server process as `npm start` runs it on the embedded database; codes per second and the server's
 *   peak resident memory (budget < 60 s, < 300 MB);
 * - goods list, in-process through app.inject (the whole route stack, no sockets): a page of 1000 out of CATALOG_BENCH_GOODS (default 100,000) goods with filters, p50/p99,
 *   on the embedded database and, when BENCH_DATABASE_URL is set, on that PostgreSQL server (budget p99
 *   < 100 ms there). The PostgreSQL run uses a fresh database it drops afterwards.
 */

const PASSWORD = "Bench#2026pass";
/** Timed calls per list query (after 3 unmeasured). */
const LIST_RUNS = sized(40, 5);

interface Env {
  app: FastifyInstance;
  ctx: AppContext;
  /** The supplier's session. */
  token: string;
  /** A purchaser the supplier has whitelisted: goods lists show it only goods it may buy. */
  buyerToken: string;
  close(): Promise<void>;
}

/** One API call that must succeed, in-process (app.inject) or over HTTP: returns `data`. */
type Call = <T>(method: "GET" | "POST", url: string, token?: string, body?: unknown) => Promise<T>;

function unwrap<T>(url: string, json: { code: number; data: T; msg: string }): T {
  if (json.code !== 1) throw new Error(`${url}: ${json.msg}`);
  return json.data;
}

const injectCall =
  (app: FastifyInstance): Call =>
  async <T>(method: "GET" | "POST", url: string, token?: string, body?: unknown) => {
    const res = await app.inject({
      method,
      url,
      headers: token ? { "x-auth-token": token } : {},
      ...(body !== undefined && { payload: body as object }),
    });
    return unwrap(url, res.json<{ code: number; data: T; msg: string }>());
  };

const httpCall =
  (baseUrl: string): Call =>
  async <T>(method: "GET" | "POST", url: string, token?: string, body?: unknown) => {
    const headers: Record<string, string> = {
      ...(token && { "x-auth-token": token }),
      ...(body !== undefined && { "content-type": "application/json" }),
    };
    const res = await fetch(`${baseUrl}${url}`, {
      method,
      headers,
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    return unwrap(url, (await res.json()) as { code: number; data: T; msg: string });
  };

/** Registers a merchant through the e-mail flow and logs it in. */
async function register(call: Call, orgName: string): Promise<{ token: string; merchantId: string }> {
  const email = `catalog-bench-${orgName.replace(/\W/g, "").toLowerCase()}-${Date.now()}@example.com`;
  await call("POST", "/api/card-user/sendEmail", undefined, { email, scene: "register" });
  const outbox = await call<{ list: { body: string }[] }>("GET", `/api/dev/outbox?to=${encodeURIComponent(email)}`);
  const emailCode = /\b(\d{6})\b/.exec(outbox.list[0]?.body ?? "")?.[1] ?? "";
  await call("POST", "/api/card-user/register", undefined, {
    email,
    emailCode,
    password: PASSWORD,
    confirmPassword: PASSWORD,
    orgName,
  });
  const { token } = await call<{ token: string }>("POST", "/api/card-user/login", undefined, {
    email,
    password: PASSWORD,
  });
  const me = await call<{ merchantId: string }>("GET", "/api/card-brander/brander", token);
  return { token, merchantId: me.merchantId };
}

async function inject<T>(
  app: FastifyInstance,
  method: "GET" | "POST",
  url: string,
  token?: string,
  body?: unknown,
): Promise<T> {
  return injectCall(app)<T>(method, url, token, body);
}

async function open(databaseUrl?: string): Promise<Env> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "tessera-catalog-bench-"));
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: "silent",
    DEV_ROUTES: "true",
    ARGON2_MEMORY_KIB: "4096",
    ARGON2_ITERATIONS: "1",
  });
  let dropDb: (() => Promise<void>) | undefined;
  let database;
  if (databaseUrl) {
    const name = `tessera_catalog_bench_${process.pid}`;
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${name}`);
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(databaseUrl);
    url.pathname = `/${name}`;
    database = await openPostgres(url.toString(), 4);
    dropDb = async () => {
      const c = new pg.Client({ connectionString: databaseUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name}`);
      await c.end();
    };
  } else {
    database = await openPglite(path.join(dataDir, "pgdata"));
  }
  const ctx = await createContext(config, { database, log: () => undefined });
  const app = await buildApp(ctx);
  await app.ready();
  const supplier = await register(injectCall(app), "Bench Supply");
  const buyer = await register(injectCall(app), "Bench Buyer");
  await inject(app, "POST", "/api/card-brander/whitelists", supplier.token, {
    purchaserId: buyer.merchantId,
    scope: "vendor",
  });
  const token = supplier.token;
  return {
    app,
    ctx,
    token,
    buyerToken: buyer.token,
    async close() {
      await app.close();
      await database.close();
      await dropDb?.();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A CSV of `n` codes generated as it is read: the bench never holds the file. */
function csvStream(n: number): Readable {
  let i = 0;
  return new Readable({
    read() {
      if (i === 0) this.push("cardNumber,cardSecret,expiryDate\n");
      const lines: string[] = [];
      for (let k = 0; k < 5000 && i < n; k++, i++) {
        lines.push(`88${String(i).padStart(14, "0")},S${(i * 2654435761) % 4294967296}Kx,2099-12-31`);
      }
      if (lines.length) this.push(lines.join("\n") + "\n");
      if (i >= n) this.push(null);
    },
  });
}

/**
 * The import through the product's own server process, as `npm start` runs it (bundled, plain node, the
 * embedded database in the same process), so the memory figures are the server's alone, not this bench's.
 */
async function importBench(codes: number): Promise<string[]> {
  const server = await startServer({ ARGON2_MEMORY_KIB: "4096", ARGON2_ITERATIONS: "1" });
  try {
    const call = httpCall(server.baseUrl);
    const { token } = await register(call, "Bench Import");
    const brand = await call<{ id: number }>("POST", "/api/card-brander/brander/update", token, {
      name: "Bench Brand",
    });
    const goods = await call<{ id: number }>("POST", "/api/card-brander/product/add", token, {
      name: "Bench card",
      brandId: brand.id,
      businessType: "card_secret",
      equityType: "video",
      faceValue: 1000,
      code: "BENCH-IMPORT",
      perOrderMax: 10,
      invoiceType: "vat_6",
      price: 950,
      settlementPrice: 900,
    });
    const before = memoryMb(server.pid).rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, memoryMb(server.pid).rss)), 100);
    const started = performance.now();
    const cpu0 = cpuMs(server.pid);
    const res = await fetch(
      `${server.baseUrl}/api/card-brander/sup/merchandises/${goods.id}/cards?fileName=bench.csv`,
      {
        method: "POST",
        headers: { "x-auth-token": token, "content-type": "text/csv" },
        body: Readable.toWeb(csvStream(codes)) as ReadableStream<Uint8Array>,
        duplex: "half",
      },
    );
    const seconds = (performance.now() - started) / 1000;
    const cpu = (cpuMs(server.pid) - cpu0) / 1000;
    clearInterval(sampler);
    const after = memoryMb(server.pid);
    peak = Math.max(peak, after.rss);
    const batch = unwrap(
      `import`,
      (await res.json()) as { code: number; msg: string; data: { imported: number; rejected: number } },
    );
    const stock = await call<{ stock: number }>("GET", `/api/card-brander/product/${goods.id}`, token);
    return [
      `card import       ${codes.toLocaleString("en")} codes in ${seconds.toFixed(1)} s = ${Math.round(codes / seconds).toLocaleString("en")} codes/s ` +
        `(server CPU ${cpu.toFixed(1)} s, load average ${loadavg()[0]?.toFixed(1)})   imported ` +
        `${batch.imported}, rejected ${batch.rejected}, stock ${stock.stock}   ` +
        `server RSS before ${before} MB, peak ${peak} MB (VmHWM since start ${after.hwm} MB; budget 300 MB)`,
      ...requires(
        "card import",
        batch.imported === codes && stock.stock === codes,
        `${batch.imported} of ${codes} codes imported, stock ${stock.stock}`,
      ),
    ];
  } finally {
    await server.stop();
  }
}

async function seedGoods(env: Env, n: number): Promise<number[]> {
  const me = await inject<{ merchantId: string }>(env.app, "GET", "/api/card-brander/brander", env.token);
  const merchantId = Number(me.merchantId);
  const brandIds: number[] = [];
  for (let b = 0; b < 20; b++) {
    brandIds.push(
      (
        await inject<{ id: number }>(env.app, "POST", "/api/card-brander/brander/update", env.token, {
          name: `List Brand ${b}`,
        })
      ).id,
    );
  }
  const db = env.ctx.database.db;
  await sql`
    INSERT INTO catalog_goods (merchant_id, brand_id, name, business_type, selection, equity_type, currency, face_value, code, per_order_max,
      deduction_account, invoice_type, sales_scope, price, settlement_price, arrival_query_method, top_up_account_type, recommendation_index, sales_index)
    SELECT ${merchantId}::bigint, (${brandIds}::bigint[])[i % 20 + 1], 'Bench goods ' || i,
      (ARRAY['card_secret','top_up','coupon'])[i % 3 + 1], (ARRAY['card','direct','coupon'])[i % 3 + 1],
      (ARRAY['video','music','reading','food','travel','telecom','game','shopping','life','other'])[i % 10 + 1], 'CNY',
      (ARRAY[1000,3000,5000,10000])[i % 4 + 1], 'L-' || i, 10, 'sup', (ARRAY['vat_6','vat_13','ordinary_3'])[(i / 3) % 3 + 1], 'all',
      (ARRAY[950,2850,4750,9500])[i % 4 + 1], (ARRAY[900,2700,4500,9000])[i % 4 + 1], 'none', 'none', i % 101, (i * 37) % 101
    FROM generate_series(1, ${n}::int) AS i`.execute(db);
  await sql`ANALYZE catalog_goods`.execute(db);
  return brandIds;
}

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

async function listBench(env: Env, goods: number, label: string): Promise<string[]> {
  const brandIds = await seedGoods(env, goods);
  // A purchaser sees only goods it may buy: the supplier whitelists it for all its goods, so the goods
  // lists below run with the eligibility condition over every row, as a real purchaser's do.
  const buyer = await register(injectCall(env.app), "Bench Buyer");
  await inject(env.app, "POST", "/api/card-brander/whitelists", env.token, {
    purchaserId: buyer.merchantId,
    scope: "vendor",
  });
  const queries = [
    "/api/card-user/merchandises?type=card&pageSize=1000",
    "/api/card-user/merchandises?type=card&pageSize=1000&sort=sales&page=5",
    `/api/card-user/merchandises?type=direct&pageSize=1000&brandId=${brandIds[3]}`,
    "/api/card-user/merchandises?type=coupon&pageSize=1000&equityType=game&invoiceType=vat_13",
    "/api/card-user/merchandises?type=card&pageSize=1000&faceValue=5000&keyword=goods%201",
    "/api/card-brander/product/search?pageSize=1000&businessType=card_secret",
  ];
  const lines: string[] = [];
  for (const url of queries) {
    const token = url.startsWith("/api/card-user/") ? env.buyerToken : env.token;
    for (let w = 0; w < 3; w++) await env.app.inject({ method: "GET", url, headers: { "x-auth-token": token } });
    const times: number[] = [];
    let rows = 0;
    let total = 0;
    for (let r = 0; r < LIST_RUNS; r++) {
      const t0 = performance.now();
      const res = await env.app.inject({ method: "GET", url, headers: { "x-auth-token": token } });
      times.push(performance.now() - t0);
      const body = res.json<{ code: number; data: { list: unknown[]; total: number } }>();
      if (body.code !== 1) throw new Error(`${url} failed`);
      rows = body.data.list.length;
      total = body.data.total;
    }
    times.sort((a, b) => a - b);
    const q = url.replace(/^\/api\/card-(user|brander)\//, "");
    lines.push(
      `goods list [${label}] ${q.padEnd(78)} ${String(rows).padStart(4)} of ${String(total).padStart(6)} ` +
        `  p50 ${pct(times, 50).toFixed(1)} ms   p99 ${pct(times, 99).toFixed(1)} ms`,
      // A list page that found nothing timed an empty answer, not the list.
      ...requires(`goods list [${label}] ${q}`, rows > 0, "the page was empty: the seed produced no goods it lists"),
    );
  }
  return lines;
}

export async function benchCatalog(databaseUrl?: string): Promise<string[]> {
  const codes = sized(1_000_000, 20_000, process.env.CATALOG_BENCH_CODES);
  const goods = sized(100_000, 16_000, process.env.CATALOG_BENCH_GOODS);
  const lines: string[] = [];
  lines.push(...(await importBench(codes)));
  const embedded = await open();
  try {
    lines.push(...(await listBench(embedded, goods, "embedded")));
  } finally {
    await embedded.close();
  }
  if (databaseUrl) {
    const server = await open(databaseUrl);
    try {
      lines.push(...(await listBench(server, goods, "postgres")));
    } finally {
      await server.close();
    }
  }
  return lines;
}

// `tsx catalog.bench.ts` runs this benchmark alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  for (const line of await benchCatalog(process.env.BENCH_DATABASE_URL)) console.log(line);
}
