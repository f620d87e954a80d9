import {
  TEMPLATE_EXAMPLE_CARD,
  type Brand,
  type Card,
  type CardBatch,
  type Goods,
  type Page,
  type RevealedCard,
} from "@tessera/contracts";
import ExcelJS from "exceljs";
import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { withTx } from "../../db/tx";
import { useTestApp } from "../../../test/kit/use-test-app";
import { importFile, newBrand, newGoods, newMerchant, type TestMerchant } from "../../../test/kit/catalog-fixtures";
import { platformDay } from "../../platform/clock";
import { allocateCards } from "./allocate";

const t = useTestApp();
let a: TestMerchant;
let b: TestMerchant;
let brandA: Brand;
let brandB: Brand;

beforeAll(async () => {
  a = await newMerchant(t, "Card Supplier A");
  b = await newMerchant(t, "Card Supplier B");
  brandA = await newBrand(t, a, "A Cards");
  brandB = await newBrand(t, b, "B Cards");
});

const HEADER = ["Card number", "Card secret", "Expiry date (YYYY-MM-DD)"];

async function xlsx(rows: unknown[][], header: string[] = HEADER): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet("cards");
  ws.addRow(header);
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

function csv(rows: string[][], header: string[] = HEADER): string {
  return (
    [header, ...rows]
      .map((r) => r.map((c) => (/[",\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(","))
      .join("\r\n") + "\r\n"
  );
}

async function download(url: string, token: string, lang = "en") {
  const res = await t.app.inject({ method: "GET", url, headers: { "x-auth-token": token, lang } });
  return res;
}

async function readSheet(data: Buffer): Promise<unknown[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(data as unknown as ArrayBuffer);
  const out: unknown[][] = [];
  wb.worksheets[0]?.eachRow((row) => out.push((row.values as unknown[]).slice(1)));
  return out;
}

async function goodsOf(m: TestMerchant, id: number): Promise<Goods> {
  return (await t.call<Goods>("GET", `/api/card-brander/product/${id}`, { token: m.token })).body.data;
}

describe("template", () => {
  it("downloads an xlsx with the columns in the user's language and the example on a separate instructions sheet", async () => {
    const res = await download("/api/card-brander/sup/cards/template", a.token, "cn");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toContain("spreadsheetml");
    const rows = await readSheet(res.rawPayload);
    expect(rows[0]).toEqual(["卡号", "卡密", "有效期(YYYY-MM-DD)"]);
    // The data sheet holds the header only: imported as downloaded, it adds no card.
    expect(rows).toHaveLength(1);
    const g = await newGoods(t, a, brandA.id);
    const imp = await importFile(t, a.token, g.id, "template.xlsx", res.rawPayload, "en");
    expect(imp.status).toBe(400);
    expect((await goodsOf(a, g.id)).stock).toBe(0);
    // The example of the instructions sheet, pasted into the data sheet, is refused with its own reason.
    const pasted = await xlsx([
      [TEMPLATE_EXAMPLE_CARD.number, TEMPLATE_EXAMPLE_CARD.secret, "2099-12-31"],
      ["8800123456789012", "Q7WX-9KD2-LM4P", ""],
      ["REAL-0001", "PIN-1", ""],
    ]);
    const mixed = await importFile(t, a.token, g.id, "pasted.xlsx", pasted, "en");
    expect(mixed.body.data).toMatchObject({ imported: 1, rejected: 2 });
    expect((await goodsOf(a, g.id)).stock).toBe(1);
  });
});

describe("import", () => {
  it("lands good rows of an xlsx and reports each kind of bad row with its row number and reason", async () => {
    const g = await newGoods(t, a, brandA.id, { name: "Mixed import" });
    await importFile(t, a.token, g.id, "first.csv", csv([["STORED-0001", "S1", ""]]));
    const today = platformDay(t.clock.now());
    const file = await xlsx([
      ["GOOD-0001", "PIN-1", "2099-12-31"], // row 2 ok
      ["", "PIN-2", ""], // 3 number missing
      ["BAD NUMBER", "PIN-3", ""], // 4 malformed number
      ["GOOD-0005", "", ""], // 5 secret missing
      ["GOOD-0006", "has space", ""], // 6 malformed secret
      ["GOOD-0007", "PIN-7", "31/12/2099"], // 7 malformed expiry
      ["GOOD-0008", "PIN-8", "2000-01-01"], // 8 expired
      ["GOOD-0001", "PIN-9", ""], // 9 duplicate within the file
      ["STORED-0001", "PIN-10", ""], // 10 duplicate of a stored code
      [123456789012, "PIN-11", today], // 11 ok: numeric cell, expires today
      ["GOOD-0012", "PIN-12", new Date("2099-06-30T00:00:00Z")], // 12 ok: a date cell
    ]);
    const imp = await importFile(t, a.token, g.id, "mixed.xlsx", file);
    expect(imp.status).toBe(200);
    expect(imp.body.data).toMatchObject({ totalRows: 11, imported: 3, rejected: 8, status: "done" });
    expect((await goodsOf(a, g.id)).stock).toBe(4);

    const report = await download(
      `/api/card-brander/sup/purchaseCardRecords/${imp.body.data.id}/rejects`,
      a.token,
      "en",
    );
    expect(report.statusCode).toBe(200);
    const rows = await readSheet(report.rawPayload);
    expect(rows[0]).toEqual(["Row", "Reason", "Card number (masked)"]);
    expect(rows.slice(1).map((r) => [r[0], r[1]])).toEqual([
      [3, "Card number is missing"],
      [4, "Card number is malformed (1-64 letters, digits or -)"],
      [5, "Card secret is missing"],
      [6, "Card secret is malformed (1-128 visible characters, no spaces)"],
      [7, "Expiry date is malformed (YYYY-MM-DD)"],
      [8, "Expiry date is in the past"],
      [9, "Duplicate card number within the file"],
      [10, "This card number is already stored for the goods"],
    ]);
    expect(rows[8]?.[2]).toBe("ST*******01");
    const cn = await readSheet(
      (await download(`/api/card-brander/sup/purchaseCardRecords/${imp.body.data.id}/rejects`, a.token, "cn"))
        .rawPayload,
    );
    expect(cn[1]?.[1]).toBe("卡号为空");

    const cards = await t.call<Page<Card>>(
      "GET",
      `/api/card-brander/sup/merchandises/${g.id}/cards?batchId=${imp.body.data.id}`,
      { token: a.token },
    );
    expect(cards.body.data.list.map((c) => [c.cardNumber, c.cardSecret, c.expiryDate]).sort()).toEqual([
      ["123******012", "********", today],
      ["GO*****01", "********", "2099-12-31"],
      ["GO*****12", "********", "2099-06-30"],
    ]);
    // Nothing stored is plaintext.
    const stored = await t.ctx.database.db
      .selectFrom("supply_cards")
      .select(["sealed", "number_hash", "number_mask"])
      .where("goods_id", "=", g.id)
      .execute();
    for (const row of stored) {
      expect(row.sealed).not.toContain("GOOD");
      expect(Buffer.from(row.sealed, "base64").toString("latin1")).not.toContain("PIN-");
      expect(row.number_hash).toMatch(/^[A-Za-z0-9_-]{24}$/);
    }
  });

  it("imports csv with the same rules, duplicates within one chunk and across chunks", async () => {
    const g = await newGoods(t, a, brandA.id, { name: "CSV import" });
    const rows: string[][] = [];
    for (let i = 0; i < 12000; i++) rows.push([`CSV-${String(i).padStart(6, "0")}`, `secret-${i}`, "2099-01-01"]);
    rows.push(["CSV-000001", "again", ""]); // row 12002: duplicate of a row from the first chunk
    rows.push(["CSV-011999", "again", ""]); // row 12003: duplicate within the last chunk
    rows.push(["", "", ""]); // blank line: skipped, not a reject
    const imp = await importFile(t, a.token, g.id, "codes.csv", csv(rows));
    expect(imp.body.data).toMatchObject({ imported: 12000, rejected: 2, totalRows: 12002 });
    const report = await readSheet(
      (await download(`/api/card-brander/sup/purchaseCardRecords/${imp.body.data.id}/rejects`, a.token)).rawPayload,
    );
    expect(report.slice(1).map((r) => [r[0], r[1]])).toEqual([
      [12002, "Duplicate card number within the file"],
      [12003, "Duplicate card number within the file"],
    ]);
    expect((await goodsOf(a, g.id)).stock).toBe(12000);
    const again = await importFile(t, a.token, g.id, "codes.csv", csv(rows.slice(0, 3)));
    expect(again.body.data).toMatchObject({ imported: 0, rejected: 3 });
    expect((await goodsOf(a, g.id)).stock).toBe(12000);
  });

  it("leaves foreign-key checks on after an import (the embedded engine's COPY path switches them off for itself only)", async () => {
    const g = await newGoods(t, a, brandA.id, { name: "Checks stay on" });
    const imp = await importFile(t, a.token, g.id, "codes.csv", csv([["FK-1", "s", ""]]));
    expect(imp.body.data).toMatchObject({ imported: 1, rejected: 0 });
    const db = t.ctx.database.db;
    expect(
      (await sql<{ session_replication_role: string }>`SHOW session_replication_role`.execute(db)).rows[0]
        ?.session_replication_role,
    ).toBe("origin");
    const orphan =
      sql`INSERT INTO supply_cards (merchant_id, goods_id, batch_id, row_no, number_hash, number_mask, sealed)
      VALUES (${a.merchantId}, ${g.id}, ${imp.body.data.id + 1_000_000}, 1, 'h', 'm', 's')`.execute(db);
    await expect(orphan).rejects.toThrow(/foreign key/);
  });

  it("imports a 100,000-row xlsx file", { timeout: 240_000 }, async () => {
    const g = await newGoods(t, a, brandA.id, { name: "Big import" });
    const { PassThrough } = await import("node:stream");
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on("data", (c: Buffer) => chunks.push(c));
    const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: false, useStyles: false });
    const ws = wb.addWorksheet("cards");
    ws.addRow(HEADER).commit();
    for (let i = 0; i < 100_000; i++) ws.addRow([`BIG-${i}`, `S${i}x`, "2099-12-31"]).commit();
    ws.commit();
    await wb.commit();
    const imp = await importFile(t, a.token, g.id, "big.xlsx", Buffer.concat(chunks));
    expect(imp.body.data).toMatchObject({ imported: 100_000, rejected: 0, totalRows: 100_000, status: "done" });
    expect((await goodsOf(a, g.id)).stock).toBe(100_000);
    const count = await t.ctx.database.db
      .selectFrom("supply_cards")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("goods_id", "=", g.id)
      .where("state", "=", "available")
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(100_000);
  });

  it("refuses wrong files with a clear message and changes nothing", async () => {
    const g = await newGoods(t, a, brandA.id, { name: "Refusals" });
    const cases: [string, Buffer | string, string][] = [
      ["codes.txt", "x", "Please upload an xlsx or csv file"],
      ["codes.csv", "number,pin\nA,B\n", "The file's header row is wrong; please use the downloaded template"],
      ["codes.csv", csv([]), "The file contains no card secrets"],
      ["codes.csv", "", "The file contains no card secrets"],
      ["codes.xlsx", "this is not a zip file", "The file cannot be read; please check its format"],
    ];
    for (const [name, data, msg] of cases) {
      const res = await importFile(t, a.token, g.id, name, data);
      expect(res.status, name).toBe(400);
      expect(res.body.msg).toBe(msg);
    }
    const records = await t.call<Page<CardBatch>>("GET", `/api/card-brander/sup/purchaseCardRecords?goodsId=${g.id}`, {
      token: a.token,
    });
    expect(records.body.data.list.filter((r) => r.status !== "failed")).toHaveLength(0);
    expect((await goodsOf(a, g.id)).stock).toBe(0);

    const topUp = await newGoods(t, a, brandA.id, { businessType: "top_up" });
    const notCards = await importFile(t, a.token, topUp.id, "codes.csv", csv([["A1", "B1", ""]]));
    expect(notCards.body.msg).toBe("Card secrets can be imported only for card-secret goods");
  });
});

describe("tenancy and masking", () => {
  it("a supplier never sees or touches another supplier's codes or import records", async () => {
    const g = await newGoods(t, a, brandA.id, { name: "Private codes" });
    const imp = await importFile(t, a.token, g.id, "p.csv", csv([["PRIV-0001", "P1", ""]]));
    const bGoods = await newGoods(t, b, brandB.id);
    expect((await t.call("GET", `/api/card-brander/sup/merchandises/${g.id}/cards`, { token: b.token })).status).toBe(
      404,
    );
    expect((await importFile(t, b.token, g.id, "x.csv", csv([["X1", "Y1", ""]]))).status).toBe(404);
    expect(
      (await t.call("GET", `/api/card-brander/sup/purchaseCardRecords/${imp.body.data.id}`, { token: b.token })).status,
    ).toBe(404);
    expect(
      (await download(`/api/card-brander/sup/purchaseCardRecords/${imp.body.data.id}/rejects`, b.token)).statusCode,
    ).toBe(404);
    const list = await t.call<Page<CardBatch>>("GET", "/api/card-brander/sup/purchaseCardRecords", { token: b.token });
    expect(list.body.data.list.some((r) => r.id === imp.body.data.id)).toBe(false);
    const cards = await t.call<Page<Card>>("GET", `/api/card-brander/sup/merchandises/${g.id}/cards`, {
      token: a.token,
    });
    const voidForeign = await t.call("POST", `/api/card-brander/sup/merchandises/${bGoods.id}/cards/void`, {
      token: a.token,
      body: { ids: [cards.body.data.list[0]?.id] },
    });
    expect(voidForeign.status).toBe(404);
    // The same number may exist for another supplier's goods: dedupe is per goods.
    const bImp = await importFile(t, b.token, bGoods.id, "p.csv", csv([["PRIV-0001", "P1", ""]]));
    expect(bImp.body.data.imported).toBe(1);
  });

  it("finds a card by its full number without storing it in clear", async () => {
    const g = await newGoods(t, a, brandA.id);
    await importFile(
      t,
      a.token,
      g.id,
      "f.csv",
      csv([
        ["FIND-0001", "F1", ""],
        ["FIND-0002", "F2", ""],
      ]),
    );
    const found = await t.call<Page<Card>>(
      "GET",
      `/api/card-brander/sup/merchandises/${g.id}/cards?cardNumber=FIND-0002`,
      { token: a.token },
    );
    expect(found.body.data.list.map((c) => c.cardNumber)).toEqual(["FI*****02"]);
  });
});

describe("sale, reveal and void", () => {
  it("allocates codes to an order, reveals them only to the buyer (audited), and keeps stock exact", async () => {
    const g = await newGoods(t, a, brandA.id, { name: "Sellable", lowStockThreshold: 3 });
    await importFile(
      t,
      a.token,
      g.id,
      "s.csv",
      csv([
        ["SELL-0001", "SEC-A", ""],
        ["SELL-0002", "SEC-B", ""],
        ["SELL-0003", "SEC-C", ""],
        ["SELL-0004", "SEC-D", ""],
      ]),
    );
    const buyer = await newMerchant(t, "Buyer One");
    const other = await newMerchant(t, "Buyer Two");
    const db = t.ctx.database.db;
    const sale = await withTx(db, (tx) =>
      allocateCards(
        tx,
        { goodsId: g.id, quantity: 2, orderId: "ORD-1", buyerMerchantId: Number(buyer.merchantId) },
        t.clock.now(),
      ),
    );
    expect(sale.cardIds).toHaveLength(2);
    expect(sale.lowStock).toMatchObject({ goodsId: g.id, stock: 2, threshold: 3 });
    expect(await goodsOf(a, g.id)).toMatchObject({ stock: 2, sold: 2 });

    const mine = await t.call<Page<Card>>("GET", "/api/card-user/purchasedCards", { token: buyer.token });
    expect(mine.body.data.list.map((c) => [c.cardNumber, c.cardSecret, c.orderId]).sort()).toEqual([
      ["SE*****01", "********", "ORD-1"],
      ["SE*****02", "********", "ORD-1"],
    ]);
    const revealed = await t.call<RevealedCard[]>("POST", "/api/card-user/purchasedCards/reveal", {
      token: buyer.token,
      body: { ids: sale.cardIds },
    });
    expect(revealed.body.data.map((c) => [c.cardNumber, c.cardSecret])).toEqual([
      ["SELL-0001", "SEC-A"],
      ["SELL-0002", "SEC-B"],
    ]);
    const audits = await db
      .selectFrom("audit_log")
      .selectAll()
      .where("action", "=", "card.reveal")
      .where("subject_id", "in", sale.cardIds.map(String))
      .execute();
    expect(audits).toHaveLength(2);
    expect(audits.every((r) => r.actor_user_id === Number(buyer.userId))).toBe(true);

    // Another purchaser, and the supplier itself, cannot reveal or list them.
    expect(
      (
        await t.call("POST", "/api/card-user/purchasedCards/reveal", {
          token: other.token,
          body: { ids: sale.cardIds },
        })
      ).status,
    ).toBe(404);
    expect(
      (await t.call("POST", "/api/card-user/purchasedCards/reveal", { token: a.token, body: { ids: sale.cardIds } }))
        .status,
    ).toBe(404);
    expect(
      (await t.call<Page<Card>>("GET", "/api/card-user/purchasedCards", { token: other.token })).body.data.total,
    ).toBe(0);
    // Mixing one own code with a code not bought reveals nothing.
    const available = await t.call<Page<Card>>(
      "GET",
      `/api/card-brander/sup/merchandises/${g.id}/cards?state=available`,
      { token: a.token },
    );
    const availId = available.body.data.list[0]?.id ?? 0;
    expect(
      (
        await t.call("POST", "/api/card-user/purchasedCards/reveal", {
          token: buyer.token,
          body: { ids: [sale.cardIds[0], availId] },
        })
      ).status,
    ).toBe(404);

    // The supplier's list shows the sold codes masked too.
    const supplierView = await t.call<Page<Card>>(
      "GET",
      `/api/card-brander/sup/merchandises/${g.id}/cards?state=sold`,
      { token: a.token },
    );
    expect(supplierView.body.data.list.every((c) => c.cardSecret === "********" && c.cardNumber.includes("*"))).toBe(
      true,
    );

    // The goods shows among the buyer's resale goods, and nobody else's.
    const resale = await t.call<Page<{ goods: { id: number; name: string }; bought: number }>>(
      "GET",
      "/api/card-user/resale/merchandises",
      { token: buyer.token },
    );
    expect(resale.body.data.list.map((r) => [r.goods.id, r.goods.name, r.bought])).toEqual([[g.id, "Sellable", 2]]);
    expect(
      (await t.call<Page<unknown>>("GET", "/api/card-user/resale/merchandises", { token: other.token })).body.data
        .total,
    ).toBe(0);

    // The sale reported the dip; the flag stops a second notice until stock recovers.
    const flag = await db
      .selectFrom("catalog_goods")
      .select("low_stock_notified_at")
      .where("id", "=", g.id)
      .executeTakeFirstOrThrow();
    expect(flag.low_stock_notified_at).not.toBeNull();

    // Sold codes cannot be voided; unsold can, and stock follows.
    const voidSold = await t.call("POST", `/api/card-brander/sup/merchandises/${g.id}/cards/void`, {
      token: a.token,
      lang: "en",
      body: { ids: [sale.cardIds[0]] },
    });
    expect(voidSold.status).toBe(409);
    expect(voidSold.body.msg).toBe("Only unsold card secrets can be voided");
    const voided = await t.call<{ voided: number }>("POST", `/api/card-brander/sup/merchandises/${g.id}/cards/void`, {
      token: a.token,
      body: { ids: [availId] },
    });
    expect(voided.body.data.voided).toBe(1);
    expect(await goodsOf(a, g.id)).toMatchObject({ stock: 1, sold: 2 });

    // Asking for more than is left takes nothing.
    await expect(
      withTx(db, (tx) =>
        allocateCards(
          tx,
          { goodsId: g.id, quantity: 2, orderId: "ORD-2", buyerMerchantId: Number(buyer.merchantId) },
          t.clock.now(),
        ),
      ),
    ).rejects.toMatchObject({ messageKey: "supply.outOfStock" });
    expect(await goodsOf(a, g.id)).toMatchObject({ stock: 1, sold: 2 });
  });

  it("mails the supplier once when voiding takes stock below the threshold, and re-arms on restock", async () => {
    const g = await newGoods(t, a, brandA.id, { name: "Thin stock", lowStockThreshold: 3 });
    await importFile(
      t,
      a.token,
      g.id,
      "l.csv",
      csv([
        ["LOW-1", "S", ""],
        ["LOW-2", "S", ""],
        ["LOW-3", "S", ""],
      ]),
    );
    const ids = (
      await t.call<Page<Card>>("GET", `/api/card-brander/sup/merchandises/${g.id}/cards`, { token: a.token })
    ).body.data.list.map((c) => c.id);
    const notices = async () =>
      (
        await t.call<{ list: { subject: string; body: string }[] }>(
          "GET",
          `/api/dev/outbox?to=${encodeURIComponent(a.email)}&pageSize=200`,
        )
      ).body.data.list.filter((m) => m.subject === "库存不足提醒：Thin stock");
    await t.call("POST", `/api/card-brander/sup/merchandises/${g.id}/cards/void`, {
      token: a.token,
      body: { ids: [ids[0]] },
    });
    expect(await notices()).toHaveLength(1);
    expect((await notices())[0]?.body).toContain("可用库存为2");
    await t.call("POST", `/api/card-brander/sup/merchandises/${g.id}/cards/void`, {
      token: a.token,
      body: { ids: [ids[1]] },
    });
    expect(await notices()).toHaveLength(1);
    await importFile(
      t,
      a.token,
      g.id,
      "l2.csv",
      csv([
        ["LOW-4", "S", ""],
        ["LOW-5", "S", ""],
        ["LOW-6", "S", ""],
      ]),
    );
    const fresh = (
      await t.call<Page<Card>>("GET", `/api/card-brander/sup/merchandises/${g.id}/cards?state=available`, {
        token: a.token,
      })
    ).body.data.list.map((c) => c.id);
    await t.call("POST", `/api/card-brander/sup/merchandises/${g.id}/cards/void`, {
      token: a.token,
      body: { ids: fresh.slice(0, 2) },
    });
    expect(await notices()).toHaveLength(2);
  });

  it("records and reports imports", async () => {
    const g = await newGoods(t, a, brandA.id, { name: "Reported" });
    await importFile(
      t,
      a.token,
      g.id,
      "r1.csv",
      csv([
        ["R-1", "S", ""],
        ["R-1", "S", ""],
      ]),
    );
    await importFile(t, a.token, g.id, "r2.csv", csv([["R-2", "S", ""]]));
    const records = await t.call<Page<CardBatch>>("GET", `/api/card-brander/sup/purchaseCardRecords?goodsId=${g.id}`, {
      token: a.token,
    });
    expect(records.body.data.list.map((r) => [r.fileName, r.goodsName, r.imported, r.rejected])).toEqual([
      ["r2.csv", "Reported", 1, 0],
      ["r1.csv", "Reported", 1, 1],
    ]);
    const report = await t.call<Page<{ goodsId: number; batches: number; imported: number; rejected: number }>>(
      "GET",
      `/api/card-brander/sup/purchaseCard/reports?goodsId=${g.id}`,
      { token: a.token },
    );
    expect(report.body.data.list).toEqual([
      expect.objectContaining({ goodsId: g.id, goodsName: "Reported", batches: 2, imported: 2, rejected: 1 }),
    ]);
  });
});
