import { sql } from "kysely";
import pg from "pg";
import { openPostgres } from "../apps/server/src/db/database";
import { sized } from "./lib/scale";
import { requires } from "./lib/verdict";
import { migrate } from "../apps/server/src/db/migrate";
import { insertUser } from "../apps/server/src/modules/accounts";
import { CommissionService, shiftPeriod } from "../apps/server/src/modules/commission";
import { renderInvoicePdf } from "../apps/server/src/modules/invoices";
import { activeBindings } from "../apps/server/src/modules/onboarding";
import { orderMovementsSql } from "../apps/server/src/modules/purchasing";
import { platformDay } from "../apps/server/src/platform/clock";

/**
 * Issue 29 budgets: one invoice PDF rendered in under 200 ms at p99 (Chinese font embedded), and a month's
 * commission close over 10,000 merchants and 1,000,000 orders in under 60 s on PostgreSQL. The close's
 * data is written straight into the tables (100 providers, 2,000 brands, 7,900 purchasers, each bound to
 * a provider; 1,000,000 successful orders and 10,000 refunds last month), then the close runs once.
 */
// Smaller runs (for profiling) set BENCH_COMMISSION_MERCHANTS and BENCH_COMMISSION_ORDERS; the shape stays
// the same: 1% providers, 20% brands, the rest purchasers; one refund per 100 orders.
const MERCHANTS = sized(10_000, 200, process.env.BENCH_COMMISSION_MERCHANTS);
const PROVIDERS = Math.max(1, Math.round(MERCHANTS / 100));
const BRANDS = Math.max(1, Math.round(MERCHANTS / 5));
/** Invoice PDFs timed (after 20 that load the font). */
const PDF_RENDERS = sized(100, 10);
const ORDERS = sized(1_000_000, 5_000, process.env.BENCH_COMMISSION_ORDERS);
const REFUNDS = Math.max(1, Math.floor(ORDERS / 100));

async function pdfFigures(): Promise<string> {
  const times: number[] = [];
  for (let i = 0; i < 20 + PDF_RENDERS; i++) {
    const started = performance.now();
    await renderInvoicePdf({
      invoiceNo: `26${String(i).padStart(18, "0")}`,
      issuedOn: "2026-11-26",
      category: "special",
      rateBp: 600,
      amount: 1_060_000 + i,
      taxAmount: 60_000,
      itemName: "数字权益商品",
      buyer: {
        name: "上海星辰数字科技有限公司",
        taxId: "91310000MA1K00002C",
        address: "上海市浦东新区世纪大道100号",
        phone: "021-50000000",
        bank: "招商银行上海分行",
        bankAccount: "121900000000001",
      },
      seller: {
        name: "Tessera Digital Technology Co., Ltd.",
        taxId: "91440300MA5G00001W",
        address: "深圳市南山区科技园",
        bank: "China Merchants Bank",
        bankAccount: "755900000000001",
      },
      remark: "第四季度采购",
      issuer: "ops@tessera.local",
    });
    if (i >= 20) times.push(performance.now() - started); // the first renders load the font
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => (times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0).toFixed(1);
  return `invoice PDF        p50 ${at(0.5)} ms   p99 ${at(0.99)} ms   (${PDF_RENDERS} renders after 20 warm-up; budget p99 < 200 ms)`;
}

async function closeFigures(serverUrl: string): Promise<string[]> {
  const name = `tessera_bench_commission_${Date.now()}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openPostgres(url.toString(), 4);
  try {
    await migrate(database);
    const db = database.db;
    const user = await insertUser(db, {
      kind: "operator",
      merchantId: null,
      email: "bench-commission@example.com",
      passwordHash: "x",
    });
    const now = new Date();
    const month = shiftPeriod(platformDay(now).slice(0, 7), -1);
    const from = new Date(`${month}-01T00:00:00+08:00`);
    const seeded = performance.now();
    await sql`INSERT INTO merchants (name, version, currency, roles)
      SELECT 'Bench ' || g, 'domestic', 'CNY', CASE WHEN g <= ${PROVIDERS} THEN ARRAY['sale','business','providers'] ELSE ARRAY['sale','business'] END
      FROM generate_series(1, ${MERCHANTS}) g`.execute(db);
    const ids = (await sql<{ id: number }>`SELECT id FROM merchants ORDER BY id`.execute(db)).rows.map((r) => r.id);
    const providers = ids.slice(0, PROVIDERS);
    const brands = ids.slice(PROVIDERS, PROVIDERS + BRANDS);
    const buyers = ids.slice(PROVIDERS + BRANDS);
    await sql`INSERT INTO service_bindings (merchant_id, provider_id, kind, state, bound_by, bound_at)
      SELECT t.m, (${providers}::bigint[])[1 + (t.i % ${PROVIDERS})], CASE WHEN t.i <= ${BRANDS} THEN 'brand' ELSE 'vendor' END, 'active', ${user}, now()
      FROM unnest(${[...brands, ...buyers]}::bigint[]) WITH ORDINALITY AS t(m, i)`.execute(db);
    await sql`INSERT INTO catalog_brands (merchant_id, name) SELECT m, 'Brand ' || m FROM unnest(${brands}::bigint[]) m`.execute(
      db,
    );
    await sql`INSERT INTO catalog_goods (merchant_id, brand_id, name, business_type, selection, equity_type, currency,
      face_value, code, per_order_max, deduction_account, invoice_type, sales_scope, price, settlement_price,
      arrival_query_method, top_up_account_type)
      SELECT b.merchant_id, b.id, 'Goods ' || b.id, 'card_secret', 'card', 'video', 'CNY', 10000, 'G' || b.id, 100,
        'sup', 'vat_6', 'all', 9500, 9000, 'none', 'none' FROM catalog_brands b`.execute(db);
    await sql`INSERT INTO commission_rules (provider_id, rate_bp, valid_from, created_by) SELECT p, 100 + (p % 5) * 50,
      '2020-01-01', ${user} FROM unnest(${providers}::bigint[]) p`.execute(db);
    const goods = (await sql<{ id: number }>`SELECT id FROM catalog_goods ORDER BY id`.execute(db)).rows.map(
      (r) => r.id,
    );
    await sql`INSERT INTO purchase_orders (order_no, purchaser_merchant_id, supplier_merchant_id, goods_id, goods_name,
      business_type, quantity, unit_price, face_value, amount, currency, state, request_digest, created_at,
      finished_at)
      SELECT 'B' || s.g, s.buyer, gd.merchant_id, gd.id, gd.name, 'card_secret', 1, 9500, 10000, 9500, 'CNY', 'success', 'x', s.at, s.at
      FROM (SELECT g, (${buyers}::bigint[])[1 + (g % ${buyers.length})] AS buyer, (${goods}::bigint[])[1 + (g % ${goods.length})] AS goods_id,
                   ${from}::timestamptz + (g % 2400000) * interval '1 second' AS at
            FROM generate_series(1, ${ORDERS}) g) s
      JOIN catalog_goods gd ON gd.id = s.goods_id`.execute(db);
    await sql`INSERT INTO refund_orders (order_id, purchaser_merchant_id, supplier_merchant_id, quantity, amount,
      currency, reason, state, created_at, finished_at)
      SELECT id, purchaser_merchant_id, supplier_merchant_id, 1, amount, currency, 'bench', 'success', finished_at, finished_at + interval '1 hour'
      FROM purchase_orders WHERE id % ${Math.floor(ORDERS / REFUNDS)} = 0`.execute(db);
    await sql`ANALYZE`.execute(db);
    const seedSeconds = ((performance.now() - seeded) / 1000).toFixed(0);
    const commission = new CommissionService({
      db,
      clock: { now: () => now },
      orderMovements: orderMovementsSql,
      activeBindings,
      payRebates: () => Promise.resolve(0),
      holdDays: 7,
    });
    const started = performance.now();
    const r = await commission.close(month, null);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    return [
      `commission close   ${seconds} s for ${MERCHANTS} merchants, ${ORDERS} orders, ${REFUNDS} refunds: ` +
        `${r.statements} statements, ${r.lines} lines (seeded in ${seedSeconds} s; budget < 60 s)`,
      ...requires("commission close", r.lines > 0, "no statement lines: the seeded orders missed the month closed"),
    ];
  } finally {
    await database.close();
    const cleanup = new pg.Client({ connectionString: serverUrl });
    await cleanup.connect();
    await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await cleanup.end();
  }
}

export async function benchCommission(databaseUrl: string | undefined): Promise<string[]> {
  const lines = [await pdfFigures()];
  lines.push(
    ...(databaseUrl
      ? await closeFigures(databaseUrl)
      : ["commission close   skipped: needs a PostgreSQL server (BENCH_DATABASE_URL)"]),
  );
  return lines;
}

if (process.argv[1]?.endsWith("commission.bench.ts")) {
  console.log(await pdfFigures());
  const url = process.env.BENCH_DATABASE_URL;
  console.log(
    url
      ? (await closeFigures(url)).join("\n")
      : "commission close   skipped: needs a PostgreSQL server (BENCH_DATABASE_URL)",
  );
}
