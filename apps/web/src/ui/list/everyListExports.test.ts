import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Issue 25 item 6: every list exports. A list page (ListPage) exports by default (the server's file when
 * it has one, else its rows as shown); a table drawn outside ListPage exports through ExportButton or a
 * server download, unless it is one of the tables below, which are not lists of records.
 */
const SRC = path.resolve(import.meta.dirname, "../..");

/** Tables that are not record lists, each with why. Paths relative to apps/web/src. */
const NOT_LISTS: Record<string, string> = {
  "features/purchasing/CallbackLog.tsx": "one order's callback attempts, inside the order drawer",
  "features/purchasing/OrderCodesDrawer.tsx": "one order's revealed card secrets: never leave the screen in a file",
  "features/commission/OpsCommission.tsx": "the commission rules being edited, not records",
  "features/miniprogram/MpTemplates.tsx": "mini-program templates being configured",
  "features/miniprogram/Official.tsx":
    "a bound official account's last platform calls and the local-life authorisations being managed",
  "features/takeout/TakeoutApplet.tsx": "applet configuration",
  "features/catalog/BrandsDialog.tsx": "brand picker dialog",
  "features/onecard/BatchesDrawer.tsx": "one goods' import batches, inside a drawer",
  "features/stores/DocDrawer.tsx": "one settlement document's lines, inside a drawer",
  "features/stores/ClerksDrawer.tsx": "one store's clerks being edited, inside a drawer",
  "features/takeout/PackageSet.tsx": "takeout package configuration",
  "features/takeout/ItemSet.tsx": "takeout item configuration",
  "features/takeout/TakeoutType.tsx": "takeout category configuration",
  "features/commerce/CommodityForm.tsx": "the SKU rows of the goods being edited",
  "features/collection/receiptB.tsx": "payment codes being configured (QR images)",
  "features/developer/Developer.tsx": "the developer console's request and signature tables",
  "features/onecard/CardPicker.tsx": "card picker inside a form",
  "features/invoices/TicketSignature.tsx": "the merchant's invoice titles being edited",
  "features/miniprogram/ReleaseSteps.tsx": "mini-program configuration console (its release history)",
  "features/mall/SmsSendRecord.tsx": "SMS package records, shown in the mini-program console",
};

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sources(full);
    return e.name.endsWith(".tsx") && !e.name.includes(".test.") ? [full] : [];
  });
}

const files = sources(SRC).map((full) => ({
  file: path.relative(SRC, full).split(path.sep).join("/"),
  text: readFileSync(full, "utf8"),
}));

describe("every list exports", () => {
  it("no list page turns the default export off", () => {
    const lists = files.filter((f) => f.text.includes("<ListPage"));
    expect(lists.length).toBeGreaterThan(40);
    expect(lists.filter((f) => /exportable=\{false\}/.test(f.text)).map((f) => f.file)).toEqual([]);
  });

  it("a table outside ListPage has an export, or is named here as no list", () => {
    const missing = files
      .filter((f) => f.file !== "ui/list/ListPage.tsx" && /<Table[\s<]/.test(f.text))
      .filter((f) => !/<ListPage|<ExportButton|useExport\(|http\.download\(|download\(/.test(f.text))
      .map((f) => f.file)
      .filter((file) => !(file in NOT_LISTS));
    expect(missing).toEqual([]);
  });

  it("names no table that is gone or that exports after all", () => {
    const byFile = new Map(files.map((f) => [f.file, f.text]));
    const stale = Object.keys(NOT_LISTS).filter((file) => {
      const text = byFile.get(file);
      return text !== undefined && !/<Table[\s<]/.test(text);
    });
    expect(stale).toEqual([]);
  });

  it("the statements, period tables and reports export their rows", () => {
    for (const shared of [
      "features/funds/StatementPage.tsx",
      "features/purchasing/PeriodTable.tsx",
      "features/purchasing/OrderReport.tsx",
    ]) {
      expect(files.find((f) => f.file === shared)?.text, shared).toMatch(/<ExportButton|http\.download\(/);
    }
  });
});
