import type { TableColumnsType } from "antd";
import { createElement, isValidElement, type ReactElement } from "react";
import { describe, expect, it } from "vitest";
import { dense } from "./denseColumns";

/** Issue 25 item 4 and issue 40 item 15: the shared list page's columns are dense and never cut a value. */
describe("dense list columns", () => {
  interface Row {
    id: string;
    amount: string;
    remark: string;
  }
  const columns: TableColumnsType<Row> = [
    { title: "数量", dataIndex: "qty" },
    { title: "金额", dataIndex: "amount", width: 90, align: "right" },
    { title: "备注", dataIndex: "remark", width: 240 },
    { title: "名称", dataIndex: "remark", ellipsis: true },
    { title: "标签", dataIndex: "remark", width: 260, ellipsis: false },
    {
      title: "明细",
      key: "lines",
      width: 240,
      render: () => [createElement("div", { key: "1" }, "A × 1"), createElement("div", { key: "2" }, "B × 2")],
    },
    { title: "操作", key: "actions", width: 220 },
    { title: "固定在左", key: "action", fixed: "left" },
  ];
  const out = dense(columns);
  const row: Row = { id: "1", amount: "¥1,095.00", remark: "尺码偏小，颜色与图片不符" };

  it("keeps every header on one line", () => {
    for (const col of out) expect(col.onHeaderCell?.({}, 0)).toMatchObject({ style: { whiteSpace: "nowrap" } });
  });

  it("fixes the action column on the right unless a page placed it", () => {
    expect(out.map((c) => c.fixed)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      "right",
      "left",
    ]);
    // As wide as its buttons, on one line when there is room.
    expect(out[6]!.width).toBeUndefined();
    expect(out[6]!.onCell?.(row, 0)).toMatchObject({ style: { whiteSpace: "nowrap" } });
  });

  it("keeps a short column (amount, state, date) on one line and never cuts it", () => {
    const amount = out[1]!;
    expect(amount.ellipsis).toBeUndefined();
    expect(amount.render).toBeUndefined();
    // Its width is its content's: the table scrolls sideways rather than cutting it.
    expect(amount.width).toBeUndefined();
    expect(amount.onCell?.(row, 0)).toMatchObject({ style: { whiteSpace: "nowrap" } });
  });

  it("cuts a text column at its width with its text as the tooltip; ellipsis: false wraps", () => {
    const cell = out[2]!.render?.(row.remark, row, 0) as ReactElement<{ title?: string; style: object }>;
    expect(isValidElement(cell)).toBe(true);
    expect(cell.props).toMatchObject({ title: row.remark, style: { maxWidth: 240, minWidth: 96, WebkitLineClamp: 1 } });
    expect(out[2]!.width).toBeUndefined();
    const named = out[3]!.render?.(undefined, row, 0) as ReactElement<{ title?: string; style: object }>;
    expect(named.props).toMatchObject({ title: row.remark, style: { maxWidth: 320 } });
    expect(out[4]!.render).toBeUndefined();
    expect(out[4]!.onCell).toBeUndefined();
  });

  it("wraps a text cell of several parts (an order's lines) rather than hiding all but the first", () => {
    const cell = out[5]!.render?.(undefined, row, 0) as ReactElement<{ title?: string; style: object }>;
    expect(cell.props.title).toBeUndefined();
    expect(cell.props.style).toMatchObject({ overflowWrap: "anywhere", maxWidth: 240 });
    expect(cell.props.style).not.toHaveProperty("WebkitLineClamp");
  });

  it("leaves a free column as it is", () => {
    expect(out[0]!.render).toBeUndefined();
    expect(out[0]!.onCell).toBeUndefined();
  });
});
