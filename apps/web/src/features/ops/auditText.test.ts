import i18next, { type TFunction } from "i18next";
import { beforeAll, describe, expect, it } from "vitest";
import { translationsFor } from "../../i18n/allTranslations";
import { auditAction, auditLines, auditSubject } from "./auditText";

/** Issue 25 item 7: the audit log in the reader's language, money formatted, never raw keys or minor units. */
describe("audit log text", () => {
  const ts: Record<"cn" | "tw" | "en", TFunction> = {} as Record<"cn" | "tw" | "en", TFunction>;
  beforeAll(async () => {
    for (const lang of ["cn", "tw", "en"] as const) {
      const inst = i18next.createInstance();
      await inst.init({ lng: lang, resources: { [lang]: { translation: translationsFor(lang) } } });
      ts[lang] = inst.t;
    }
  });

  it("names actions, subjects, fields and states in each language", () => {
    expect(auditAction(ts.cn, "topUp.confirm")).toBe("确认充值");
    expect(auditAction(ts.tw, "topUp.confirm")).toBe("確認充值");
    expect(auditAction(ts.en, "withdrawal.secondReview")).toBe("Withdrawal second review passed");
    // A review queue's decision: the queue's name and the verb.
    expect(auditAction(ts.cn, "bankCard.approve")).toBe("银行卡 · 通过");
    expect(auditSubject(ts.cn, "topUpNotice", "1")).toBe("充值通知 #1");
    expect(auditSubject(ts.en, "withdrawal", "7")).toBe("Withdrawal #7");
    // Unknown keys are shown as they are, not dropped.
    expect(auditAction(ts.en, "someModule.newThing")).toBe("someModule.newThing");
  });

  it("formats money of the record's currency and translates state values", () => {
    const after = { state: "confirmed", amount: 1234567, fee: 50, currency: "CNY" };
    expect(auditLines(ts.cn, after)).toEqual([
      { label: "状态", text: "已确认" },
      { label: "金额", text: "¥12,345.67" },
      { label: "手续费", text: "¥0.50" },
    ]);
    // The "before" side takes its partner's currency.
    expect(auditLines(ts.en, { state: "bank_paying", amount: 100 }, { state: "success", currency: "USD" })).toEqual([
      { label: "State", text: "Bank paying" },
      { label: "Amount", text: "US$1.00" },
    ]);
    expect(auditLines(ts.en, null)).toEqual([]);
  });
});
