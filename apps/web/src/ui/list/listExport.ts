import type { TableColumnsType } from "antd";
import { isValidElement, type ReactNode } from "react";
import type { Cell } from "./xlsx";
import { formatTime, isInstant } from "../time";

/** Columns that hold buttons, not data: never exported. */
const ACTION_KEYS = new Set(["action", "actions"]);

/** The text a cell's rendering shows (tags, links, spans of formatted money), without the markup. */
export function textOf(node: ReactNode): string {
  if (node === null || node === undefined || typeof node === "boolean") return "";
  if (typeof node === "string" || typeof node === "number" || typeof node === "bigint") return String(node);
  if (Array.isArray(node)) {
    const parts = node.map((n: ReactNode) => textOf(n));
    return parts
      .join(" ")
      .replace(/\s{2,}/g, " ")
      .trim();
  }
  if (isValidElement<{ children?: ReactNode; title?: ReactNode }>(node)) {
    const inner = textOf(node.props.children);
    return inner !== "" ? inner : typeof node.props.title === "string" ? node.props.title : "";
  }
  return "";
}

function valueAt(row: object, path: unknown): unknown {
  const keys = Array.isArray(path) ? path : path === undefined ? [] : [path];
  let v: unknown = row;
  for (const k of keys) {
    if (typeof v !== "object" || v === null) return undefined;
    v = (v as Record<string, unknown>)[String(k)];
  }
  return keys.length === 0 ? undefined : v;
}

/** A raw value as a cell: numbers stay numbers, money reads as formatted, lists join. */
function rawCell(v: unknown, money: (m: { amount: number; currency: string }) => string): Cell {
  if (v === null || v === undefined) return null;
  if (typeof v === "number") return v;
  // An instant no column formatted (an ISO timestamp) reads as the platform's local time.
  if (typeof v === "string") return isInstant(v) ? formatTime(v, { seconds: true }) : v;
  if (typeof v === "boolean") return v ? "✓" : "";
  if (Array.isArray(v)) return v.map((x) => String(rawCell(x, money) ?? "")).join(", ");
  if (
    typeof v === "object" &&
    "amount" in v &&
    "currency" in v &&
    typeof v.amount === "number" &&
    typeof v.currency === "string"
  ) {
    return money({ amount: v.amount, currency: v.currency });
  }
  return null;
}

type Leaf<Row> = { title: string; cell: (row: Row, index: number) => Cell };

/**
 * The exportable columns of a list: every column with a title except the action column, in order
 * (groups flattened). A cell is what the column renders, as text, or its raw value when it renders nothing.
 */
export function exportColumns<Row extends object>(
  columns: TableColumnsType<Row>,
  money: (m: { amount: number; currency: string }) => string,
): Leaf<Row>[] {
  const leaves: Leaf<Row>[] = [];
  const walk = (cols: TableColumnsType<Row>, prefix: string) => {
    for (const col of cols) {
      const key = typeof col.key === "string" ? col.key : undefined;
      if (key && ACTION_KEYS.has(key)) continue;
      const title = typeof col.title === "function" ? "" : textOf(col.title);
      if ("children" in col && Array.isArray(col.children)) {
        walk(col.children, title ? `${prefix}${title} ` : prefix);
        continue;
      }
      const dataIndex = "dataIndex" in col ? col.dataIndex : undefined;
      const render = col.render;
      if (!title || (dataIndex === undefined && !render)) continue;
      leaves.push({
        title: `${prefix}${title}`,
        cell: (row, index) => {
          const value = valueAt(row, dataIndex);
          if (render) {
            const shown = render(value, row, index) as unknown;
            const node =
              typeof shown === "object" &&
              shown !== null &&
              !isValidElement(shown) &&
              !Array.isArray(shown) &&
              "children" in shown
                ? (shown as { children: ReactNode }).children
                : (shown as ReactNode);
            const text = textOf(node);
            if (text !== "") return typeof value === "number" && text === String(value) ? value : text;
          }
          return rawCell(value, money);
        },
      });
    }
  };
  walk(columns, "");
  return leaves;
}

/** The header and rows of an export. */
export function exportTable<Row extends object>(
  columns: TableColumnsType<Row>,
  rows: Row[],
  money: (m: { amount: number; currency: string }) => string,
): { header: string[]; rows: Cell[][] } {
  const leaves = exportColumns(columns, money);
  return { header: leaves.map((l) => l.title), rows: rows.map((row, i) => leaves.map((l) => l.cell(row, i))) };
}
