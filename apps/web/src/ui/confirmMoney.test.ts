import type { ModalFuncProps } from "antd";
import { describe, expect, it } from "vitest";
import { confirmMoney, moneyPopconfirm, moneyText, moneyTitle } from "./confirmMoney";

describe("money confirmations", () => {
  it("name the action and the amount, formatted; several currencies joined", () => {
    expect(moneyTitle("付款", { amount: 59_600, currency: "CNY" })).toBe("付款 · ¥596.00");
    expect(
      moneyText([
        { amount: 150_000, currency: "CNY" },
        { amount: 1_050, currency: "USD" },
      ]),
    ).toBe("¥1,500.00 + US$10.50");
    expect(moneyText([])).toBe("—");
  });

  it("ask with modal.confirm: the action confirms, the effect is the content, the action runs only on OK", async () => {
    let asked: ModalFuncProps | undefined;
    let ran = 0;
    confirmMoney(
      { confirm: (p) => (asked = p) },
      {
        action: "Refund",
        amount: { amount: 2_000, currency: "CNY" },
        effect: "¥20.00 goes back",
        danger: true,
        testId: "refund-confirm",
        onOk: () => Promise.resolve(void ran++),
      },
    );
    expect(asked).toMatchObject({
      title: "Refund · ¥20.00",
      content: "¥20.00 goes back",
      okText: "Refund",
      okButtonProps: { danger: true, "data-testid": "refund-confirm" },
    });
    expect(ran).toBe(0);
    await asked?.onOk?.();
    expect(ran).toBe(1);
  });

  it("give a Popconfirm the same words", () => {
    expect(
      moneyPopconfirm({ action: "同意", amount: { amount: 29_800, currency: "CNY" }, effect: "退回" }),
    ).toMatchObject({ title: "同意 · ¥298.00", description: "退回", okText: "同意" });
  });
});
