import type { TableColumnsType, TableColumnType } from "antd";
import { isValidElement, type CSSProperties, type ReactNode } from "react";

/** A header cell that never breaks inside a word (数/量, 手续/费). */
const headerCell = () => ({ style: { whiteSpace: "nowrap" as const } });

/**
 * The table layout of a dense list (issue 40 item 15): the columns take the width of their content, text
 * columns give way first, and the table scrolls sideways only when even that does not fit. A fixed layout
 * cut amounts and states at their columns' widths ("¥1,095.00" showed as "¥1,095.") and the table, wider
 * than a 1280 px screen, slid them under the action column fixed on the right.
 */
export const DENSE_TABLE_LAYOUT = "auto" as const;
/** The table's `scroll.x`: as wide as its container, wider only when its columns' least widths need it. */
export const DENSE_SCROLL_X = true;

/** A column of at most this width carries short values (amounts, states, dates, order numbers): never cut. */
const SHORT = 210;
/** How wide a text column without a width may grow. */
const TEXT_WIDTH = 320;
/** How narrow a text column may become before the table scrolls. */
const TEXT_LEAST = 96;

/**
 * A text cell of plain text: one line cut with an ellipsis. Laid out as text that may break anywhere
 * (clamped to one line), so its column can give way down to TEXT_LEAST before the table needs to scroll.
 */
const TEXT = {
  display: "-webkit-box",
  WebkitBoxOrient: "vertical",
  WebkitLineClamp: 1,
  overflow: "hidden",
  wordBreak: "break-all",
} as const;
/** A text cell of several parts (the lines of an order): wraps where it must, nothing hidden. */
const PARTS = { display: "block", overflowWrap: "anywhere" } as const;

function cellStyle(parts: boolean, minWidth: number, maxWidth: number): CSSProperties {
  const base: CSSProperties = parts ? PARTS : TEXT;
  return { ...base, minWidth, maxWidth };
}

/** A text cell's text as its tooltip, when the cell shows plain text. */
function titleOf(node: ReactNode): string | undefined {
  if (typeof node === "string" || typeof node === "number") return String(node);
  return undefined;
}

function text<Row>(col: TableColumnType<Row>): TableColumnType<Row> {
  const maxWidth = typeof col.width === "number" ? col.width : TEXT_WIDTH;
  const minWidth = Math.min(maxWidth, TEXT_LEAST);
  const dataIndex = (col as { dataIndex?: unknown }).dataIndex;
  const valueOf = (row: Row): unknown => {
    if (dataIndex === undefined) return undefined;
    const path = (Array.isArray(dataIndex) ? dataIndex : [dataIndex]) as readonly PropertyKey[];
    let v: unknown = row;
    for (const k of path) v = v && typeof v === "object" ? (v as Record<PropertyKey, unknown>)[k] : undefined;
    return v;
  };
  const own = col.render as ((value: unknown, row: Row, index: number) => unknown) | undefined;
  const render = (value: unknown, row: Row, index: number): ReactNode => {
    const shown = (own ? own(value, row, index) : valueOf(row)) as ReactNode;
    // A render that returns cell props ({ children, props }) is left as it is.
    if (shown && typeof shown === "object" && !isValidElement(shown) && !Array.isArray(shown)) return shown;
    const title = titleOf(shown);
    return (
      <span style={cellStyle(title === undefined, minWidth, maxWidth)} title={title}>
        {shown}
      </span>
    );
  };
  const out: TableColumnType<Row> = { ...col, width: undefined, ellipsis: undefined };
  out.render = render as TableColumnType<Row>["render"];
  return out;
}

/** A cell that keeps its content on one line, so its column is never narrower than it. */
function oneLine<Row>(col: TableColumnType<Row>): TableColumnType<Row> {
  const cell = col.onCell;
  return {
    ...col,
    width: undefined,
    onCell: (row: Row, index?: number) => {
      const own = cell?.(row, index) ?? {};
      return { ...own, style: { whiteSpace: "nowrap" as const, ...own.style } };
    },
  };
}

/**
 * The columns of a dense list (issue 25 item 4, as Ant Design Pro tables), for a table with
 * `tableLayout={DENSE_TABLE_LAYOUT}` and `scroll={{ x: DENSE_SCROLL_X }}`: headers on one line; the
 * action column fixed on the right, as wide as its buttons. Short columns (a width up to 210: amounts,
 * states, dates, order numbers) are as wide as their content, on one line, never cut. Text columns (marked
 * `ellipsis`, or wider than 210) are one line cut with an ellipsis, their full text as the tooltip, at most
 * their width, and the first to give way on a narrow screen (a cell of several parts, such as an order's
 * lines, wraps instead: nothing is hidden). `ellipsis: false` leaves a column as the page
 * made it (it wraps).
 */
export function dense<Row>(columns: TableColumnsType<Row>): TableColumnsType<Row> {
  return columns.map((col) => {
    const action = col.key === "actions" || col.key === "action" || col.fixed === "right";
    const base: TableColumnType<Row> = { ...col, onHeaderCell: col.onHeaderCell ?? headerCell };
    if (action) return oneLine({ ...base, fixed: col.fixed ?? ("right" as const) });
    if ("children" in col || col.ellipsis === false) return base;
    const width = typeof col.width === "number" ? col.width : undefined;
    if (col.ellipsis || (width !== undefined && width > SHORT)) return text(base);
    return width === undefined ? base : oneLine(base);
  });
}
