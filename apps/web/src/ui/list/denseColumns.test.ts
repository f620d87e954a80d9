import type { TableColumnsType } from "antd";
import { describe, expect, it } from "vitest";
import { dense } from "./denseColumns";

/** Issue 25 item 4: the shared list page's columns are dense and predictable. */
describe("dense list columns", () => {
  const columns: TableColumnsType<{ id: string }> = [
    { title: "数量", dataIndex: "qty" },
    { title: "备注", dataIndex: "remark", width: 200 },
    { title: "操作", key: "actions" },
    { title: "固定在左", key: "action", fixed: "left" },
  ];
  const out = dense(columns);

  it("keeps every header on one line", () => {
    for (const col of out) expect(col.onHeaderCell?.({}, 0)).toMatchObject({ style: { whiteSpace: "nowrap" } });
  });

  it("fixes the action column on the right unless a page placed it", () => {
    expect(out.map((c) => c.fixed)).toEqual([undefined, undefined, "right", "left"]);
  });

  it("ellipses a column with a width, with its text as the tooltip, and leaves free columns whole", () => {
    expect(out.map((c) => c.ellipsis)).toEqual([undefined, { showTitle: true }, undefined, undefined]);
  });
});
