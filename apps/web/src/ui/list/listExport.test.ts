import type { TableColumnsType } from "antd";
import { createElement } from "react";
import { describe, expect, it } from "vitest";
import { exportTable, textOf } from "./listExport";

interface Row {
  id: string;
  state: "pending" | "done";
  amount: { amount: number; currency: string };
  quantity: number;
  tags: string[];
}
const money = (m: { amount: number; currency: string }) => `${m.currency} ${(m.amount / 100).toFixed(2)}`;

describe("a list's export follows its columns", () => {
  it("exports what each column shows, skips the action column, keeps numbers numbers", () => {
    const columns: TableColumnsType<Row> = [
      { title: "ID", dataIndex: "id" },
      {
        title: "State",
        dataIndex: "state",
        render: (v: Row["state"]) =>
          createElement("span", { className: "tag" }, v === "pending" ? "Pending review" : "Done"),
      },
      { title: "Amount", dataIndex: "amount" },
      { title: "Quantity", dataIndex: "quantity", render: (v: number) => v },
      { title: "Tags", dataIndex: "tags" },
      { title: "Actions", key: "actions", render: () => createElement("button", null, "Approve") },
      {
        title: createElement("span", null, "Group"),
        children: [{ title: "Inner", key: "inner", render: (_: unknown, r: Row) => `#${r.id}` }],
      },
    ];
    const rows: Row[] = [
      { id: "7", state: "pending", amount: { amount: 19_400, currency: "CNY" }, quantity: 2, tags: ["a", "b"] },
    ];
    expect(exportTable(columns, rows, money)).toEqual({
      header: ["ID", "State", "Amount", "Quantity", "Tags", "Group Inner"],
      rows: [["7", "Pending review", "CNY 194.00", 2, "a, b", "#7"]],
    });
  });

  it("reads the text out of nested elements", () => {
    expect(
      textOf(createElement("div", null, createElement("b", null, "¥97.00"), " ", createElement("i", null, 3))),
    ).toBe("¥97.00 3");
    expect(textOf(null)).toBe("");
  });
});
