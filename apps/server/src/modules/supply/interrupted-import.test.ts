import type { Brand, CardBatch, Goods } from "@tessera/contracts";
import { sql } from "kysely";
import { beforeAll, expect, it } from "vitest";
import { useTestApp } from "../../../test/kit/use-test-app";
import { cardCsv } from "../../../test/kit/cards";
import { importFile, newBrand, newGoods, newMerchant, type TestMerchant } from "../../../test/kit/catalog-fixtures";
import { buildApp } from "../../app";
import { createContext } from "../../context";

/** Issue 44, item 2: a card import whose server died mid-way is closed at the next start and can be resumed. */
const t = useTestApp();
let a: TestMerchant;
let brand: Brand;
beforeAll(async () => {
  a = await newMerchant(t, "Interrupted Importer");
  brand = await newBrand(t, a, "Interrupted Cards");
});

const row = (i: number) => `INT-${String(i).padStart(4, "0")},PIN-${i},`;
const batchOf = async (id: number) =>
  (await t.call<CardBatch>("GET", `/api/card-brander/sup/purchaseCardRecords/${id}`, { token: a.token, lang: "en" }))
    .body.data;
const stockOf = async (id: number) =>
  (await t.call<Goods>("GET", `/api/card-brander/product/${id}`, { token: a.token })).body.data.stock;

/** What a SIGKILL leaves: the chunks landed so far stored with their counters, the batch still `importing`. */
async function leftImporting(batchId: number, heartbeat: "stale" | "fresh"): Promise<void> {
  await sql`UPDATE supply_card_batches
               SET status = 'importing', finished_at = NULL,
                   heartbeat_at = now() - ${heartbeat === "stale" ? "3 minutes" : "0 seconds"}::interval
             WHERE id = ${batchId}`.execute(t.ctx.database.db);
}

it("an import killed mid-way is closed at the next start with its counts, and the same file resumes it", async () => {
  const g = await newGoods(t, a, brand.id, { name: "Interrupted goods" });
  const file = cardCsv(10, (i) => row(i + 1));
  // The first six rows landed before the process died.
  const partial = await importFile(
    t,
    a.token,
    g.id,
    "codes.csv",
    cardCsv(6, (i) => row(i + 1)),
  );
  expect(partial.body.data).toMatchObject({ imported: 6, rejected: 0 });
  const killed = partial.body.data.id;
  await leftImporting(killed, "stale");
  expect(await batchOf(killed)).toMatchObject({ status: "importing", failReason: null });

  // Another node's import, alive (it beats), is not touched.
  const live = (
    await importFile(
      t,
      a.token,
      g.id,
      "live.csv",
      cardCsv(1, () => "LIVE-0001,PIN-L,"),
    )
  ).body.data.id;

  // The next start, on the same database.
  const ctx = await createContext(t.config, { database: t.ctx.database, clock: t.clock, log: () => undefined });
  const restarted = await buildApp(ctx);
  await leftImporting(live, "fresh");
  await restarted.ready(); // the sweep looks at once...
  await restarted.close(); // ...and closing waits for that look

  const closed = await batchOf(killed);
  expect(closed).toMatchObject({ status: "failed", totalRows: 6, imported: 6, rejected: 0 });
  expect(closed.finishedAt).not.toBeNull();
  expect(closed.failReason).toBe(
    "The import was interrupted (the server stopped during it) after 6 rows: 6 imported, 0 rejected. Upload the " +
      "same file again to finish: the codes already stored are skipped as duplicates and only the rest is imported",
  );
  const cn = await t.call<CardBatch>("GET", `/api/card-brander/sup/purchaseCardRecords/${killed}`, {
    token: a.token,
    lang: "cn",
  });
  expect(cn.body.data.failReason).toContain("请重新上传同一文件");
  expect((await batchOf(live)).status).toBe("importing");
  const importing = await t.call<{ list: CardBatch[] }>(
    "GET",
    `/api/card-brander/sup/purchaseCardRecords?goodsId=${g.id}&status=importing`,
    { token: a.token },
  );
  expect(importing.body.data.list.map((b) => b.id)).toEqual([live]);

  // Resume: the same file again; the six stored codes are skipped as stored duplicates, the other four land.
  const resumed = await importFile(t, a.token, g.id, "codes.csv", file);
  expect(resumed.body.data).toMatchObject({ status: "done", totalRows: 10, imported: 4, rejected: 6 });
  const rejects = await sql<{ reason: string; n: number }>`
    SELECT reason, count(*)::int AS n FROM supply_card_rejects WHERE batch_id = ${resumed.body.data.id} GROUP BY reason`.execute(
    t.ctx.database.db,
  );
  expect(rejects.rows).toEqual([{ reason: "duplicateStored", n: 6 }]);
  expect(await stockOf(g.id)).toBe(11); // ten codes of the file and the live import's one, each once
  await sql`UPDATE supply_card_batches SET status = 'done', finished_at = now() WHERE id = ${live}`.execute(
    t.ctx.database.db,
  );
});
