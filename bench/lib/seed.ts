import { execFileSync } from "node:child_process";
import type { FastifyInstance } from "fastify";
import pg from "pg";
import type { Database } from "../../apps/server/src/db/database";
import { withTx } from "../../apps/server/src/db/tx";
import { post } from "../../apps/server/src/modules/ledger";

/** What the benches seed through the real routes, and what they seed directly where a dialog is not the point. */
const PASSWORD = "Bench#2026pass";

/** One in-process call that must succeed: its `data`. */
export async function call<T>(
  app: FastifyInstance,
  method: "GET" | "POST" | "PUT",
  url: string,
  token?: string,
  body?: unknown,
): Promise<T> {
  const res = await app.inject({
    method,
    url,
    headers: token ? { "x-auth-token": token } : {},
    ...(body !== undefined && { payload: body as object }),
  });
  const json = res.json<{ code: number; data: T; msg: string }>();
  if (json.code !== 1) throw new Error(`${url}: ${json.msg}`);
  return json.data;
}

/** A merchant registered through the e-mail flow, logged in. */
export async function benchMerchant(app: FastifyInstance, i: number): Promise<{ token: string; merchantId: string }> {
  const email = `bench-${i}-${Date.now()}@example.com`;
  await call(app, "POST", "/api/card-user/sendEmail", undefined, { email, scene: "register" });
  const outbox = await call<{ list: { body: string }[] }>(
    app,
    "GET",
    `/api/dev/outbox?to=${encodeURIComponent(email)}`,
  );
  const emailCode = /\b(\d{6})\b/.exec(outbox.list[0]?.body ?? "")?.[1];
  const reg = await call<{ merchantId: string }>(app, "POST", "/api/card-user/register", undefined, {
    email,
    emailCode,
    password: PASSWORD,
    confirmPassword: PASSWORD,
    orgName: `Bench ${i}`,
  });
  const login = await call<{ token: string }>(app, "POST", "/api/card-user/login", undefined, {
    email,
    password: PASSWORD,
    version: "domestic",
  });
  return { token: login.token, merchantId: reg.merchantId };
}

/**
 * A docking signed by both sides, seeded: the benches measure what comes after the signing dialog. Both
 * merchants are marked real-name verified first, as an operator's approval does and as docking and every
 * order require (the test kit's markVerified): without it every order is refused (issue 43).
 */
export async function seedDocking(database: Database, purchaserId: string, supplierId: string): Promise<void> {
  await database.db
    .updateTable("merchants")
    .set({ real_name_state: "verified" })
    .where("id", "in", [Number(purchaserId), Number(supplierId)])
    .execute();
  await database.db
    .insertInto("dockings")
    .values({
      purchaser_merchant_id: Number(purchaserId),
      supplier_merchant_id: Number(supplierId),
      status: "approved",
      purchaser_signed_at: new Date(),
      supplier_signed_at: new Date(),
      created_by: 1,
    })
    .execute();
}

/** Money in a merchant's SUP account, through the ledger. */
export async function seedSup(database: Database, merchantId: string, amount: number): Promise<void> {
  await withTx(database.db, (tx) =>
    post(tx, {
      idempotencyKey: `bench-fund-${merchantId}`,
      kind: "manual_credit",
      currency: "CNY",
      postings: [
        { account: { platform: "bank_clearing" }, amount: -amount },
        { account: { merchantId: Number(merchantId), kind: "sup" }, amount },
      ],
    }),
  );
}

/** pgbench's TPC-B-like figure on a database: `clients` clients for `seconds` (tables initialised at scale 1). */
export function pgbenchTps(url: string, clients: number, seconds: number): number {
  execFileSync("pgbench", ["-i", "-q", "-s", "1", url], { stdio: "ignore" });
  const out = execFileSync("pgbench", ["-n", "-c", String(clients), "-j", "2", "-T", String(seconds), url], {
    encoding: "utf8",
  });
  return Math.round(Number(/tps = ([\d.]+)/.exec(out)?.[1] ?? 0));
}

/** Latency percentile (ms, one decimal) of sorted samples. */
export function percentile(sorted: number[], p: number): number {
  return Math.round((sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0) * 10) / 10;
}

/** A new database on the PostgreSQL server for one bench (dropped first if a crashed run left it), and its removal. */
export async function freshDatabase(serverUrl: string, name: string): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name}`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}
