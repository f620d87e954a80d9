import { describe, expect, it } from "vitest";
import { ledgerReason, renderLedgerReason } from "./ledger-reasons";
import { LEDGER_TRANSACTION_KINDS } from "./ledger";
import { isMessageKey, renderMessage } from "./messages";

describe("fund-change reasons and types (issue 37)", () => {
  it("a structured reason renders in the reader's language; plain text and old rows read as written", () => {
    const stored = ledgerReason("ledgerReason.collection", { name: "Front desk" });
    expect(renderLedgerReason(stored, "cn")).toBe("收款：Front desk");
    expect(renderLedgerReason(stored, "tw")).toBe("收款：Front desk");
    expect(renderLedgerReason(stored, "en")).toBe("Collected: Front desk");
    expect(renderLedgerReason(ledgerReason("ledgerReason.cardActivation", { count: 3 }), "en")).toBe(
      "3 one-card card(s) activated",
    );
    expect(renderLedgerReason("onecard activation", "cn")).toBe("onecard activation");
    expect(renderLedgerReason("CM2026 damaged", "en")).toBe("CM2026 damaged");
    // A stored text that only looks structured is shown as it is, never an error.
    expect(renderLedgerReason("§not json", "en")).toBe("§not json");
    expect(renderLedgerReason('§["no.such.key",{}]', "en")).toBe('§["no.such.key",{}]');
  });

  it("every ledger transaction kind has a label in three languages", () => {
    for (const kind of LEDGER_TRANSACTION_KINDS) {
      const key = `fundType.${kind}`;
      expect(isMessageKey(key), key).toBe(true);
      if (!isMessageKey(key)) continue;
      for (const lang of ["cn", "tw", "en"] as const) expect(renderMessage(key, lang)).not.toMatch(/^[a-z_]+$/);
    }
  });
});
