import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { startServerProcess, type ServerProcess } from "../../../test/server-process";
import { openPostgres, type Database } from "../../db/database";
import { createPasswordHasher } from "../../platform/crypto/passwords";
import { insertUser } from "../accounts";
import { checkInvariants } from "../ledger";

/**
 * The crash test (PostgreSQL server only): a real server process is killed with SIGKILL in the middle
 * of a stream of concurrent money movements, then started again. Nothing may be half-done: the ledger
 * balances, every confirmed top-up has exactly its ledger transaction and no other has one, and every
 * request retried with its key after the restart moves money at most once.
 */
const PASSWORD = "Crash#Test2026";
let database: Database;
let dataDir: string;
let server: ServerProcess | undefined;
let base = "";

async function startServer(): Promise<void> {
  server = await startServerProcess({
    DATABASE_URL: inject("postgresUrl"),
    DATA_DIR: dataDir,
    ARGON2_MEMORY_KIB: "4096",
    ARGON2_ITERATIONS: "1",
    AUTO_PAYOUT: "false",
  });
  base = server.base;
}

async function call<T>(
  method: string,
  url: string,
  token: string | null,
  body?: unknown,
): Promise<{ status: number; code: number; data: T }> {
  const res = await fetch(base + url, {
    method,
    headers: {
      ...(body !== undefined && { "content-type": "application/json" }),
      ...(token && { "x-auth-token": token }),
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const json = (await res.json()) as { code: number; data: T };
  return { status: res.status, code: json.code, data: json.data };
}

beforeAll(async () => {
  database = await openPostgres(inject("postgresUrl"), 2);
  dataDir = mkdtempSync(path.join(tmpdir(), "tessera-crash-"));
  await startServer();
});
afterAll(async () => {
  await server?.kill();
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
});

it("a SIGKILL in the middle of concurrent money movements leaves nothing half-done", async () => {
  // An operator and a purchaser.
  const opsEmail = `crash-ops-${Date.now()}@example.com`;
  await insertUser(database.db, {
    kind: "operator",
    merchantId: null,
    email: opsEmail,
    passwordHash: await createPasswordHasher(4096, 1).hash(PASSWORD),
  });
  const ops = (
    await call<{ token: string }>("POST", "/api/card-user/login", null, {
      email: opsEmail,
      password: PASSWORD,
      version: "domestic",
    })
  ).data.token;
  const email = `crash-buyer-${Date.now()}@example.com`;
  await call("POST", "/api/card-user/sendEmail", null, { email, scene: "register" });
  const outbox = await call<{ list: { body: string }[] }>(
    "GET",
    `/api/dev/outbox?to=${encodeURIComponent(email)}`,
    null,
  );
  const emailCode = /\b(\d{6})\b/.exec(outbox.data.list[0]?.body ?? "")?.[1];
  const reg = await call<{ merchantId: string }>("POST", "/api/card-user/register", null, {
    email,
    emailCode,
    password: PASSWORD,
    confirmPassword: PASSWORD,
    orgName: "Crash Co",
  });
  const merchantId = reg.data.merchantId;
  const login = async () =>
    (
      await call<{ token: string }>("POST", "/api/card-user/login", null, {
        email,
        password: PASSWORD,
        version: "domestic",
      })
    ).data.token;
  let buyer = await login();

  // The stream: notices filed and confirmed, manual credits, reserve transfers, from 8 workers at once.
  const sent: { method: string; url: string; token: "ops" | "buyer"; body?: unknown }[] = [];
  let stop = false;
  const worker = async (w: number) => {
    for (let i = 0; !stop; i++) {
      const key = `crash-${w}-${i}`;
      const requests: (typeof sent)[number][] = [
        {
          method: "POST",
          url: `/api/ops/funds/merchants/${merchantId}/credit`,
          token: "ops",
          body: { amount: 1_000 + i, reason: "stream", requestKey: `${key}-c` },
        },
        {
          method: "POST",
          url: "/api/card-user/funds/reserveTransfer",
          token: "buyer",
          body: { amount: 300 + w, requestKey: `${key}-t` },
        },
      ];
      for (const r of requests) {
        sent.push(r);
        try {
          await call(r.method, r.url, r.token === "ops" ? ops : buyer, r.body);
        } catch {
          return; // the server died under us
        }
      }
      try {
        const notice = await call<{ id: string }>("POST", "/api/card-user/funds/topups", buyer, {
          amount: 5_000,
          payerType: "company",
          payerName: "Crash Co",
          idNumber: "REG-1234",
          otherAccount: "62220202001",
          transferRef: `T${w}x${i}`,
          confirmed: true,
          requestKey: `${key}-n`,
        });
        if (notice.code === 1) {
          const confirm = {
            method: "POST",
            url: `/api/ops/funds/topups/${notice.data.id}/confirm`,
            token: "ops" as const,
          };
          sent.push(confirm);
          await call(confirm.method, confirm.url, ops);
        }
      } catch {
        return;
      }
    }
  };
  const workers = Array.from({ length: 8 }, (_, w) => worker(w));
  await new Promise((r) => setTimeout(r, 1_500));
  await server?.kill();
  stop = true;
  await Promise.all(workers);
  expect(sent.length).toBeGreaterThan(16);

  // Right after the crash, before anything else runs: the ledger and the notices agree.
  expect(await checkInvariants(database.db)).toEqual([]);
  const mismatched = await sql<{ id: number }>`
    SELECT n.id FROM topup_notices n
    LEFT JOIN ledger_transactions t ON t.subject_type = 'topup_notice' AND t.subject_id = n.id::text AND t.kind = 'top_up'
    WHERE n.merchant_id = ${Number(merchantId)} AND ((n.state = 'confirmed') <> (t.id IS NOT NULL))`.execute(
    database.db,
  );
  expect(mismatched.rows).toEqual([]);

  // Restart and retry every request with its key: nothing moves twice.
  await startServer();
  buyer = await login();
  for (const r of sent) {
    const res = await call(r.method, r.url, r.token === "ops" ? ops : buyer, r.body);
    expect(res.status).toBeLessThan(500);
  }
  // Every credit the stream asked for now exists exactly once, whether or not the crash cut it off.
  const credits = sent.filter((r) => r.url.endsWith("/credit"));
  const creditTotal = credits.reduce((sum, r) => sum + (r.body as { amount: number }).amount, 0);
  const booked = await sql<{ n: string; total: string }>`
    SELECT count(*)::text AS n, COALESCE(sum(e.amount), 0)::text AS total FROM ledger_transactions t
    JOIN ledger_entries e ON e.transaction_id = t.id JOIN ledger_accounts a ON a.id = e.account_id
    WHERE t.kind = 'manual_credit' AND a.merchant_id = ${Number(merchantId)}`.execute(database.db);
  expect(Number(booked.rows[0]?.n)).toBe(credits.length);
  expect(Number(booked.rows[0]?.total)).toBe(creditTotal);
  // And the purchaser holds exactly what came in: credits plus confirmed top-ups (no fee configured).
  const confirmed = await sql<{ total: string }>`
    SELECT COALESCE(sum(amount), 0)::text AS total FROM topup_notices WHERE merchant_id = ${Number(merchantId)} AND state = 'confirmed'`.execute(
    database.db,
  );
  const held = await sql<{ total: string }>`
    SELECT COALESCE(sum(balance), 0)::text AS total FROM ledger_accounts WHERE merchant_id = ${Number(merchantId)}`.execute(
    database.db,
  );
  expect(Number(held.rows[0]?.total)).toBe(creditTotal + Number(confirmed.rows[0]?.total));
  expect(await checkInvariants(database.db)).toEqual([]);
});
