import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { startServerProcess, type ServerProcess } from "../../../test/server-process";
import { dock } from "../../../test/docking";
import { registerMerchant } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { fundSup } from "../../../test/money";
import { checkInvariants } from "../ledger";
import { invariantProblems } from "./repo";

/**
 * The crash test of the card books (PostgreSQL server only): a real server process redeems from 20
 * cards for 8 clients at once and is killed with SIGKILL mid-stream, then started again and every
 * request retried with its key. Each card's moves must sum to its stored balance, before and after the
 * retries, and a request key must move a card's money at most once.
 */
const t = useTestApp();
let dataDir: string;
let server: ServerProcess | undefined;
let base = "";

async function startServer(): Promise<void> {
  server = await startServerProcess({
    DATABASE_URL: inject("postgresUrl"),
    DATA_DIR: dataDir,
    SECRET_KEY: t.ctx.secret.toString("hex"),
    AUTO_PAYOUT: "false",
  });
  base = server.base;
}

beforeAll(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), "tessera-onecard-crash-"));
});
afterAll(async () => {
  await server?.kill();
  rmSync(dataDir, { recursive: true, force: true });
});

it("a SIGKILL during a stream of redemptions leaves every card's book summing to its balance; retried keys move money once", async () => {
  // Twenty activated 100-yuan cards, held by a purchaser docked with the brand.
  const brand = await registerMerchant(t);
  const product = await t.call<{ id: string }>("POST", "/api/card-brander/onecard/products", {
    token: brand.token,
    body: {
      kind: "face_value",
      name: "Crash card",
      faceValue: 10_000,
      salePrice: 10_000,
      named: true,
      validity: { kind: "none" },
      rechargeAllowed: true,
    },
  });
  await t.call("POST", "/api/card-brander/onecard/batches", {
    token: brand.token,
    body: { productId: product.body.data.id, count: 20, requestKey: `crash-batch-${Date.now()}` },
  });
  const p = await registerMerchant(t);
  await dock(t, brand, p);
  await fundSup(t, p, 200_000);
  await t.call("POST", "/api/card-user/onecard/purchase", {
    token: p.token,
    body: { productId: product.body.data.id, quantity: 20, requestKey: `crash-buy-${Date.now()}` },
  });
  const ids = (
    await t.call<{ list: { id: string }[] }>("GET", "/api/card-user/onecard/cards?pageSize=100", { token: p.token })
  ).body.data.list.map((c) => c.id);
  const file = await t.app.inject({
    method: "POST",
    url: "/api/card-user/onecard/extract",
    headers: { "x-auth-token": p.token },
    payload: { cardIds: ids },
  });
  const ExcelJS = (await import("exceljs")).default;
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
  const cards: { no: string; password: string }[] = [];
  wb.worksheets[0]?.eachRow((row, n) => {
    if (n > 1) cards.push({ no: row.getCell(1).text, password: row.getCell(2).text });
  });
  await t.call("POST", "/api/card-user/onecard/activate", {
    token: p.token,
    body: { cardIds: ids, requestKey: `crash-act-${Date.now()}` },
  });

  // The stream, against a separate server process: 8 clients redeeming small amounts with their own keys.
  await startServer();
  const sent: { cardNo: string; password: string; amount: number; requestKey: string }[] = [];
  let stop = false;
  const redeem = (body: (typeof sent)[number]) =>
    fetch(`${base}/api/card-brander/onecard/redeem`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-auth-token": brand.token },
      body: JSON.stringify(body),
    });
  const worker = async (w: number) => {
    for (let i = 0; !stop; i++) {
      const card = cards[(w * 7 + i) % cards.length];
      if (!card) return;
      const body = { cardNo: card.no, password: card.password, amount: 100 + w, requestKey: `crash-${w}-${i}` };
      sent.push(body);
      try {
        await redeem(body);
      } catch {
        return; // the server died under us
      }
    }
  };
  const workers = Array.from({ length: 8 }, (_, w) => worker(w));
  await new Promise((r) => setTimeout(r, 2_000));
  await server?.kill();
  stop = true;
  await Promise.all(workers);
  expect(sent.length).toBeGreaterThan(16);

  const db = t.ctx.database.db;
  expect(await invariantProblems(db)).toEqual([]);
  expect(await checkInvariants(db)).toEqual([]);

  // Restart and retry every request with its key: each key is one move, whether or not the crash cut it off.
  await startServer();
  for (const body of sent) expect((await redeem(body)).status).toBeLessThan(500);
  expect(await invariantProblems(db)).toEqual([]);
  const moves = await sql<{ n: string; total: string }>`
    SELECT count(*)::text AS n, COALESCE(-sum(v.amount), 0)::text AS total FROM onecard_moves v
    WHERE v.kind = 'redeem' AND v.request_key LIKE 'redeem:crash-%' AND v.card_id IN (${sql.join(ids.map(Number))})`.execute(
    db,
  );
  expect(Number(moves.rows[0]?.n)).toBe(sent.length);
  expect(Number(moves.rows[0]?.total)).toBe(sent.reduce((sum, b) => sum + b.amount, 0));
}, 180_000); // two server starts (tsx compiles the server each time)
