import ExcelJS from "exceljs";
import type {
  BatchPurchasePreview,
  BatchPurchaseReply,
  FundSheetRow,
  LinkDataReply,
  Page,
  PurchaseOrder,
} from "@tessera/contracts";
import { describe, expect, it } from "vitest";
import { dock } from "../../../test/docking";
import { registerMerchant, STRONG_PASSWORD } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { fundSup } from "../../../test/money";
import { registerOperator } from "../../../test/operators";
import { platformDay } from "../../platform/clock";
import { balancesOf } from "../ledger";
import { importFile, newBrand, newGoods } from "../../../test/kit/catalog-fixtures";
import { deflatedSheet, withSheet } from "../../../test/xlsx-bomb";
import { BATCH_HEADERS, XLSX_MIME } from "./sheets";
import { cardCsv } from "../../../test/kit/cards";

const t = useTestApp();

let seq = 0;
const csv = (n: number) => cardCsv(n, (i) => `PBAT${Date.now()}${++seq}${i},S${i},`);

async function provider(ops: { token: string }, orgName: string) {
  const p = await registerMerchant(t, { orgName });
  await t.call("POST", `/api/ops/merchants/${p.merchantId}/providerRole`, { token: ops.token, body: { grant: true } });
  const login = await t.call<{ token: string }>("POST", "/api/card-user/login", {
    body: { email: p.email, password: STRONG_PASSWORD, version: "domestic" },
  });
  return { ...p, token: login.body.data.token };
}

async function xlsx(rows: (string | number)[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet("purchases");
  ws.addRow(BATCH_HEADERS.en);
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

async function upload<T extends "" | "/preview" = "">(
  token: string,
  file: Buffer,
  fileName = "batch.xlsx",
  lang: "cn" | "tw" | "en" = "en",
  path?: T,
) {
  const res = await t.app.inject({
    method: "POST",
    url: `/api/card-servicer/ops/batchPurchases${path ?? ""}?fileName=${fileName}`,
    headers: { "x-auth-token": token, "content-type": XLSX_MIME, lang },
    payload: file,
  });
  return {
    status: res.statusCode,
    body: res.json<{
      code: number;
      msg: string;
      data: T extends "/preview" ? BatchPurchasePreview : BatchPurchaseReply;
    }>(),
  };
}

const sup = async (merchantId: string) => (await balancesOf(t.ctx.database.db, Number(merchantId), "CNY")).sup.amount;

describe("the provider's fund sheet, link data and batch purchase", () => {
  it("shows and buys for served purchasers only, each line on its own, idempotently", async () => {
    const ops = await registerOperator(t);
    const mine = await provider(ops, "Batch Provider");
    const theirs = await provider(ops, "Other Batch Provider");
    const brandOwner = await registerMerchant(t, { orgName: "Batch Brand" });
    const brand = await newBrand(t, brandOwner, "Batch brand");
    const goods = await newGoods(t, brandOwner, brand.id, { name: "Batch card", price: 5_000, settlementPrice: 4_500 });
    await importFile(t, brandOwner.token, goods.id, "cards.csv", csv(6));
    const { buyer } = await dock(t, brandOwner);
    const { buyer: otherBuyer } = await dock(t, brandOwner, await registerMerchant(t, { orgName: "Other Buyer" }));
    await t.call("POST", "/api/card-servicer/brander/service", {
      token: buyer.token,
      body: { providerId: mine.merchantId, kind: "vendor" },
    });
    await t.call("POST", "/api/card-servicer/brander/service", {
      token: otherBuyer.token,
      body: { providerId: theirs.merchantId, kind: "vendor" },
    });
    await fundSup(t, buyer, 100_000);
    await fundSup(t, otherBuyer, 50_000);
    const own = await t.call<PurchaseOrder>("POST", "/api/card-user/orders", {
      token: buyer.token,
      body: { goodsId: String(goods.id), quantity: 1, orderNo: `OWN${Date.now()}` },
    });
    expect(own.body.data.state).toBe("success");

    // PurchaseFundSheet: the served purchaser's SUP changes (the credit and its own order), nobody else's.
    const sheet = await t.call<Page<FundSheetRow>>("GET", "/api/card-servicer/ops/fundSheet", { token: mine.token });
    expect(sheet.body.data.list.map((r) => [r.merchantId, r.increase, r.expense, r.balance])).toEqual([
      [buyer.merchantId, 0, 5_000, 95_000],
      [buyer.merchantId, 100_000, 0, 100_000],
    ]);
    expect(
      (await t.call<Page<FundSheetRow>>("GET", "/api/card-servicer/ops/fundSheet?type=purchase", { token: mine.token }))
        .body.data.total,
    ).toBe(1);
    expect(
      (
        await t.call<Page<FundSheetRow>>(
          "GET",
          `/api/card-servicer/ops/fundSheet?merchantId=${otherBuyer.merchantId}`,
          { token: mine.token },
        )
      ).body.data.total,
    ).toBe(0);
    expect(
      (
        await t.call<Page<FundSheetRow>>("GET", "/api/card-servicer/ops/fundSheet", { token: theirs.token })
      ).body.data.list.map((r) => r.merchantId),
    ).toEqual([otherBuyer.merchantId]);
    expect(
      (await t.call("GET", "/api/card-servicer/ops/fundSheet?from=2026-05-02&to=2026-05-01", { token: mine.token }))
        .status,
    ).toBe(400);
    const exported = await t.app.inject({
      method: "GET",
      url: "/api/card-servicer/ops/fundSheet/export",
      headers: { "x-auth-token": mine.token },
    });
    expect(exported.statusCode).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(exported.rawPayload as unknown as ArrayBuffer);
    expect(wb.worksheets[0]?.rowCount).toBe(3);
    expect((await t.call("GET", "/api/card-servicer/ops/fundSheet", { token: buyer.token })).status).toBe(403);

    // LinkData: today's orders, amount and dockings of the served purchaser.
    const today = platformDay(t.clock.now());
    const link = await t.call<LinkDataReply>("GET", `/api/card-servicer/ops/linkData?from=${today}&to=${today}`, {
      token: mine.token,
    });
    expect(link.body.data.totals).toMatchObject({
      orders: 1,
      amount: { amount: 5_000, currency: "CNY" },
      servedVendors: 1,
      servedBrands: 0,
    });
    expect(link.body.data.merchants).toEqual([
      expect.objectContaining({ merchantId: buyer.merchantId, role: "vendor", orders: 1 }),
    ]);
    expect(link.body.data.totals.newDockings).toBe(link.body.data.merchants[0]?.newDockings);
    expect(
      (
        await t.call<LinkDataReply>("GET", `/api/card-servicer/ops/linkData?from=${today}&to=${today}`, {
          token: theirs.token,
        })
      ).body.data.merchants.map((m) => m.merchantId),
    ).toEqual([otherBuyer.merchantId]);

    // BatchPurchase: two good lines (by merchant id and by account e-mail), five bad ones.
    const key = `B${Date.now()}`;
    const file = await xlsx([
      [buyer.merchantId, String(goods.id), "1", "", `${key}-1`],
      [buyer.email, String(goods.id), "2", "", `${key}-2`],
      [otherBuyer.merchantId, String(goods.id), "1", "", `${key}-3`],
      [buyer.merchantId, "999999999", "1", "", `${key}-4`],
      [buyer.merchantId, String(goods.id), "0", "", `${key}-5`],
      [buyer.merchantId, String(goods.id), "1", "", "x"],
      [buyer.merchantId, String(goods.id), "1", "", `${key}-1`],
    ]);
    const otherBefore = await sup(otherBuyer.merchantId);
    // The preview the upload's confirmation shows (issue 37): the new orders, their units and total, each line's
    // refusal; nothing is ordered, paid or kept.
    const preview = await upload(mine.token, file, "batch.xlsx", "en", "/preview");
    expect(preview.status).toBe(200);
    expect(preview.body.data).toMatchObject({
      fileName: "batch.xlsx",
      orders: 2,
      units: 3,
      totals: [{ amount: 15_000, currency: "CNY" }],
      replayed: 0,
      refused: 5,
    });
    expect(preview.body.data.lines.map((l) => [l.row, l.state, l.amount?.amount ?? null, l.orderId])).toEqual([
      [2, "ordered", 5_000, null],
      [3, "ordered", 10_000, null],
      [4, "refused", null, null],
      [5, "refused", null, null],
      [6, "refused", null, null],
      [7, "refused", null, null],
      [8, "refused", null, null],
    ]);
    expect(preview.body.data.lines[4]?.reason).toBe("The quantity must be a positive whole number");
    expect(await sup(buyer.merchantId)).toBe(95_000);
    expect(
      (await t.call<Page<{ id: string }>>("GET", "/api/card-servicer/ops/batchPurchases", { token: mine.token })).body
        .data.total,
    ).toBe(0);
    const first = await upload(mine.token, file);
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ ordered: 2, refused: 5 });
    expect(first.body.data.lines.map((l) => [l.row, l.state, l.reason])).toEqual([
      [2, "ordered", null],
      [3, "ordered", null],
      [4, "refused", "This purchaser is not a merchant you serve"],
      [5, "refused", "This goods does not exist"],
      [6, "refused", "The quantity must be a positive whole number"],
      [7, "refused", "The request key is 6-64 letters, digits, - or _"],
      [8, "refused", "This request key appears twice for the same purchaser in the file"],
    ]);
    expect(first.body.data.lines[1]).toMatchObject({
      orderNo: `${key}-2`,
      orderState: "success",
      amount: { amount: 10_000, currency: "CNY" },
    });
    expect(await sup(buyer.merchantId)).toBe(95_000 - 15_000);
    expect(await sup(otherBuyer.merchantId)).toBe(otherBefore);
    const placed = await t.call<Page<PurchaseOrder>>("GET", "/api/card-user/orders", { token: buyer.token });
    expect(
      placed.body.data.list
        .map((o) => o.orderNo)
        .filter((n) => n.startsWith(key))
        .sort(),
    ).toEqual([`${key}-1`, `${key}-2`]);

    // The same file again buys nothing twice: the good lines answer with their first orders.
    const again = await upload(mine.token, file, "batch.xlsx", "cn");
    expect(again.body.data.lines.slice(0, 2).map((l) => [l.state, l.orderId])).toEqual([
      ["replayed", first.body.data.lines[0]?.orderId],
      ["replayed", first.body.data.lines[1]?.orderId],
    ]);
    expect(again.body.data.lines[2]?.reason).toBe("该采购商不是您服务的商户");
    expect(await sup(buyer.merchantId)).toBe(80_000);
    // Previewed again, the file would pay nothing more: its good lines were ordered before.
    const previewAgain = await upload(mine.token, file, "batch.xlsx", "en", "/preview");
    expect(previewAgain.body.data).toMatchObject({ orders: 0, units: 0, totals: [], replayed: 2, refused: 5 });

    // The result file, the history, and tenancy of both.
    const result = await t.app.inject({
      method: "GET",
      url: `/api/card-servicer/ops/batchPurchases/${first.body.data.id}/result`,
      headers: { "x-auth-token": mine.token, lang: "en" },
    });
    expect(result.statusCode).toBe(200);
    const rb = new ExcelJS.Workbook();
    await rb.xlsx.load(result.rawPayload as unknown as ArrayBuffer);
    const rs = rb.worksheets[0];
    expect(rs?.getRow(2).getCell(7).text).toBe("Ordered");
    expect(rs?.getRow(2).getCell(8).text).toBe(`${key}-1`);
    expect(rs?.getRow(4).getCell(11).text).toBe("This purchaser is not a merchant you serve");
    const history = await t.call<Page<{ id: string }>>("GET", "/api/card-servicer/ops/batchPurchases", {
      token: mine.token,
    });
    expect(history.body.data.list.map((b) => b.id)).toEqual([again.body.data.id, first.body.data.id]);
    expect(
      (await t.call("GET", `/api/card-servicer/ops/batchPurchases/${first.body.data.id}`, { token: theirs.token }))
        .status,
    ).toBe(404);
    expect(
      (await t.call<Page<{ id: string }>>("GET", "/api/card-servicer/ops/batchPurchases", { token: theirs.token })).body
        .data.total,
    ).toBe(0);
    // The other provider cannot buy for a purchaser it does not serve.
    const foreign = await upload(theirs.token, await xlsx([[buyer.merchantId, String(goods.id), "1", "", `${key}-9`]]));
    expect(foreign.body.data.lines[0]?.reason).toBe("This purchaser is not a merchant you serve");
    expect(await sup(buyer.merchantId)).toBe(80_000);

    // A file that is not the template is refused as a whole.
    const template = await t.app.inject({
      method: "GET",
      url: "/api/card-servicer/ops/batchPurchases/template",
      headers: { "x-auth-token": mine.token },
    });
    expect(template.statusCode).toBe(200);
    const empty = await upload(mine.token, template.rawPayload);
    expect([empty.status, empty.body.msg]).toEqual([400, "The file has no purchase lines"]);
    const wrong = new ExcelJS.Workbook();
    wrong.addWorksheet("x").addRow(["a", "b"]);
    const bad = await upload(mine.token, Buffer.from(await wrong.xlsx.writeBuffer()));
    expect([bad.status, bad.body.msg]).toEqual([
      400,
      "The header row does not match the template; please use the downloaded template",
    ]);
    expect((await upload(mine.token, Buffer.from("not a spreadsheet"))).body.msg).toBe(
      "The file cannot be read; please use the downloaded template",
    );
    expect((await upload(mine.token, file, "batch.csv")).body.msg).toBe("Please upload an .xlsx file");
    // Bounded before parsing: a zip bomb is refused in the user's language, and reading stops at the line limit.
    const bombSheet = await deflatedSheet(200, BATCH_HEADERS.en);
    const bomb = await upload(
      mine.token,
      await withSheet({ name: "", data: bombSheet.data, size: 2 * 1024 * 1024 }, template.rawPayload),
      "batch.xlsx",
      "tw",
    );
    expect([bomb.status, bomb.body.msg]).toEqual([
      400,
      "檔案解壓後超過50MB或壓縮比異常，無法匯入；請使用範本並分批匯入",
    ]);
    const many = await upload(
      mine.token,
      await xlsx(
        Array.from({ length: 501 }, (_, i) => [buyer.merchantId, String(goods.id), "1", "", `${key}-many-${i}`]),
      ),
    );
    expect([many.status, many.body.msg]).toEqual([400, "At most 500 lines per file"]);
    expect(await sup(buyer.merchantId)).toBe(80_000);
  });
});
