import type { TableColumnsType } from "antd";

/** A header cell that never breaks inside a word (数/量, 手续/费). */
const headerCell = () => ({ style: { whiteSpace: "nowrap" as const } });

/**
 * The columns of a dense list (issue 25 item 4, as Ant Design Pro tables): headers on one line, the action
 * column fixed on the right, text of a column with a width ellipsed with its full text as the tooltip.
 * The table scrolls sideways only when its columns exceed the screen (`max-content`).
 */
export function dense<Row>(columns: TableColumnsType<Row>): TableColumnsType<Row> {
  return columns.map((col) => {
    const action = col.key === "actions" || col.key === "action";
    return {
      ...col,
      onHeaderCell: col.onHeaderCell ?? headerCell,
      ...(action && { fixed: col.fixed ?? ("right" as const) }),
      ...(!action && col.width !== undefined && col.ellipsis === undefined && { ellipsis: { showTitle: true } }),
    };
  });
}
