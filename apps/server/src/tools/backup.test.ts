import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { PurchaseOrder } from "@tessera/contracts";
import { afterAll, describe, expect, it } from "vitest";
import { buildApp } from "../app";
import { loadConfig } from "../config";
import { createContext } from "../context";
import { openPglite } from "../db/database";
import { checkInvariants } from "../modules/ledger";
import { newBrand, newGoods, newMerchant, importFile } from "../../test/kit/catalog-fixtures";
import { dock } from "../../test/docking";
import { useTestApp } from "../../test/kit/use-test-app";
import { fundSup } from "../../test/money";
import { restoreBackup, writeBackup } from "./archive";
import { cardCsv } from "../../test/kit/cards";

/**
 * Backup and restore of a running embedded installation: the copy is taken while requests go on, and the
 * restored folder starts with the same money, orders and readable card secrets.
 */
const scratch = mkdtempSync(path.join(tmpdir(), "tessera-backup-test-"));
// Registered before the app's hooks, so it runs after the app is closed.
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});
const t = useTestApp();

type Balances = { balances: { sup: { amount: number }; income: { amount: number } } };

describe("backup", () => {
  it("copies a running installation while it serves, and the restored copy has the same money, orders and card secrets", async () => {
    if (t.ctx.database.kind === "postgres") {
      // A server database is backed up with pg_dump; the node says so rather than sending anything.
      const res = await t.app.inject({ method: "GET", url: "/backup/database" });
      expect(res.statusCode).toBe(409);
      expect(res.body).toContain("pg_dump");
      return;
    }
    const supplier = await newMerchant(t, "Backup Supplier");
    const brand = await newBrand(t, supplier);
    const goods = await newGoods(t, supplier, brand.id, { name: "Backup card", price: 1_000, settlementPrice: 900 });
    await importFile(
      t,
      supplier.token,
      goods.id,
      "cards.csv",
      cardCsv(["BKP0000001,SECRET-ONE,", "BKP0000002,SECRET-TWO,", "BKP0000003,SECRET-3,"], { end: false }),
    );
    const { buyer } = await dock(t, supplier);
    await fundSup(t, buyer, 10_000);
    const order = await t.call<PurchaseOrder>("POST", "/api/card-user/orders", {
      token: buyer.token,
      body: { goodsId: String(goods.id), quantity: 2, orderNo: `BKP-${Date.now()}` },
    });
    expect(order.body.data.state).toBe("success");

    // Only the machine itself may take a copy.
    expect((await t.app.inject({ method: "GET", url: "/backup/database", remoteAddress: "10.0.0.7" })).statusCode).toBe(
      403,
    );
    // The copy is taken while other requests are answered.
    const [copy, ...others] = await Promise.all([
      t.app.inject({ method: "GET", url: "/backup/database" }),
      ...Array.from({ length: 5 }, () => t.call<Balances>("GET", "/api/card-user/userInfo", { token: buyer.token })),
    ]);
    expect(copy.statusCode).toBe(200);
    for (const o of others) expect(o.status).toBe(200);

    const file = path.join(scratch, "backup.tar.gz");
    const manifest = await writeBackup(t.ctx.config.dataDir, new Blob([copy.rawPayload]), file);
    expect(manifest.secretKeyIncluded).toBe(true);
    const restoredDir = path.join(scratch, "restored");
    await restoreBackup(file, restoredDir);
    await expect(restoreBackup(file, restoredDir)).rejects.toThrow("not empty");

    const config = loadConfig({
      DATA_DIR: restoredDir,
      ARGON2_MEMORY_KIB: "4096",
      ARGON2_ITERATIONS: "1",
      LOG_LEVEL: "silent",
    });
    const database = await openPglite(path.join(restoredDir, "pgdata"));
    const ctx = await createContext(config, { database, clock: t.clock, log: () => undefined });
    const restored = await buildApp(ctx);
    try {
      expect(await checkInvariants(database.db)).toEqual([]);
      const ask = async <T>(url: string, token: string, method: "GET" | "POST" = "GET", body?: object) =>
        (
          await restored.inject({ method, url, headers: { "x-auth-token": token }, ...(body && { payload: body }) })
        ).json<{ code: number; data: T }>();
      const original = (await t.call<Balances>("GET", "/api/card-user/userInfo", { token: buyer.token })).body.data
        .balances;
      expect((await ask<Balances>("/api/card-user/userInfo", buyer.token)).data.balances).toEqual(original);
      expect((await ask<Balances>("/api/card-user/userInfo", supplier.token)).data.balances.income.amount).toBe(2_000);
      const cards = await ask<{ list: { id: string }[] }>(
        `/api/card-user/purchasedCards?orderId=${order.body.data.id}`,
        buyer.token,
      );
      expect(cards.data.list).toHaveLength(2);
      const revealed = await ask<{ cardSecret: string }[]>(
        "/api/card-user/purchasedCards/reveal",
        buyer.token,
        "POST",
        { ids: cards.data.list.map((c) => c.id) },
      );
      expect(revealed.data.map((c) => c.cardSecret).sort()).toEqual(["SECRET-ONE", "SECRET-TWO"]);
    } finally {
      await restored.close();
      await database.close();
    }
  }, 120_000);
});
