import { randomUUID } from "node:crypto";
import type { PurchaseOrder } from "@tessera/contracts";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { buildApp } from "../app";
import { createContext } from "../context";
import { openPostgres } from "../db/database";
import { checkInvariants } from "../modules/ledger";
import { newBrand, newGoods, newMerchant, importFile } from "../../test/kit/catalog-fixtures";
import { dock } from "../../test/docking";
import { startTestApp, type TestApp } from "../../test/harness";
import { fundSup } from "../../test/money";
import { copyDatabase } from "./copy-database";
import { cardCsv } from "../../test/kit/cards";

/**
 * `npm run migrate-to-postgres`: an embedded installation with merchants, money, orders and card secrets
 * is copied into an empty PostgreSQL database, and a server on that database has all of it, card secrets
 * readable with the same key.
 */
let t: TestApp;
const adminUrl = inject("postgresUrl");
const targetName = `tessera_copy_${randomUUID().replace(/-/g, "").slice(0, 12)}`;
const targetUrl = Object.assign(new URL(adminUrl), { pathname: `/${targetName}` }).toString();

async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

// Its own pair rather than useTestApp(): the start and the target database share one hook with a longer
// timeout (120 s) than useTestApp's hook has (the project's hookTimeout), and a failed start closes nothing.
beforeAll(async () => {
  t = await startTestApp({}, { embedded: true });
  await admin(`CREATE DATABASE ${targetName}`);
}, 120_000);
afterAll(async () => {
  await t?.close();
  await admin(`DROP DATABASE IF EXISTS ${targetName} WITH (FORCE)`);
});

describe("migrate-to-postgres", () => {
  it("copies every table, the sequences and the ledger; a server on the copy has the same money, orders and card secrets", async () => {
    expect(t.ctx.database.kind).toBe("pglite");
    const supplier = await newMerchant(t, "Copy Supplier");
    const brand = await newBrand(t, supplier);
    const goods = await newGoods(t, supplier, brand.id, { name: "Copy card", price: 1_000, settlementPrice: 900 });
    await importFile(
      t,
      supplier.token,
      goods.id,
      "cards.csv",
      cardCsv(["CPY0000001,COPY-ONE,", "CPY0000002,COPY-TWO,"], { end: false }),
    );
    const { buyer } = await dock(t, supplier);
    await fundSup(t, buyer, 5_000);
    const order = await t.call<PurchaseOrder>("POST", "/api/card-user/orders", {
      token: buyer.token,
      body: { goodsId: String(goods.id), quantity: 1, orderNo: `CPY-${Date.now()}` },
    });
    expect(order.body.data.state).toBe("success");

    const target = await openPostgres(targetUrl, 2);
    try {
      const lines: string[] = [];
      const report = await copyDatabase(t.ctx.database, target, (l) => lines.push(l));
      expect(report.tables.find((x) => x.name === "ledger_entries")?.rows).toBeGreaterThan(0);
      expect(lines.some((l) => l.startsWith("users:"))).toBe(true);
      expect(await checkInvariants(target.db)).toEqual([]);
      // A second copy into the now-used database is refused: nothing is overwritten.
      await expect(copyDatabase(t.ctx.database, target, () => undefined)).rejects.toThrow("already holds");

      const ctx = await createContext(t.config, { database: target, clock: t.clock, log: () => undefined });
      const copy = await buildApp(ctx);
      try {
        const ask = async <T>(url: string, token: string, method: "GET" | "POST" = "GET", body?: object) =>
          (
            await copy.inject({ method, url, headers: { "x-auth-token": token }, ...(body && { payload: body }) })
          ).json<{ code: number; data: T }>();
        type Balances = { balances: { sup: { amount: number } } };
        expect((await ask<Balances>("/api/card-user/userInfo", buyer.token)).data.balances.sup.amount).toBe(4_000);
        const cards = await ask<{ list: { id: string }[] }>(
          `/api/card-user/purchasedCards?orderId=${order.body.data.id}`,
          buyer.token,
        );
        const revealed = await ask<{ cardSecret: string }[]>(
          "/api/card-user/purchasedCards/reveal",
          buyer.token,
          "POST",
          { ids: cards.data.list.map((c) => c.id) },
        );
        expect(revealed.data.map((c) => c.cardSecret)).toEqual(["COPY-ONE"]);
        // Sequences moved: the next order on the copy gets a new id, and takes the remaining code.
        const next = await ask<PurchaseOrder>("/api/card-user/orders", buyer.token, "POST", {
          goodsId: String(goods.id),
          quantity: 1,
          orderNo: `CPY2-${Date.now()}`,
        });
        expect(next.data.state).toBe("success");
        expect(Number(next.data.id)).toBeGreaterThan(Number(order.body.data.id));
      } finally {
        await copy.close();
      }
    } finally {
      await target.close();
    }
  }, 120_000);
});
