import { DEFAULT_PAGE_SIZE, PAGE_SIZES, type PageSize } from "@tessera/contracts";
import type { SearchValues } from "./searchValues";

/**
 * A list page's state in the URL query (spec 01 §2 lists: page sizes 20/50/100/200/1000), so a
 * reload, a shared link or the back button shows the same page with the same filters.
 */
export interface ListState {
  page: number;
  pageSize: PageSize;
  values: SearchValues;
}

const SCALARS = ["inpKey", "inpVal", "selKey", "selKeyT"] as const;
const LISTS = ["selVal", "selValT", "curCascader"] as const;

export function isPageSize(n: number): n is PageSize {
  return (PAGE_SIZES as readonly number[]).includes(n);
}

function oneOrMany(values: string[]): string | string[] | undefined {
  if (values.length === 0) return undefined;
  return values.length === 1 ? values[0] : values;
}

export function readListState(params: URLSearchParams): ListState {
  const page = Number(params.get("page"));
  const size = Number(params.get("pageSize"));
  const values: SearchValues = {};
  for (const key of SCALARS) {
    const v = params.get(key);
    if (v) values[key] = v;
  }
  for (const key of LISTS) {
    const v = oneOrMany(params.getAll(key).filter(Boolean));
    if (v === undefined) continue;
    if (key === "curCascader") values.curCascader = Array.isArray(v) ? v : [v];
    else values[key] = v;
  }
  const date = params.getAll("date");
  if (date.length === 2 && date[0] && date[1]) values.date = [date[0], date[1]];
  const month = params.getAll("month");
  if (month.length === 1 && month[0]) values.month = month[0];
  if (month.length === 2 && month[0] && month[1]) values.month = [month[0], month[1]];
  return {
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    pageSize: isPageSize(size) ? size : DEFAULT_PAGE_SIZE,
    values,
  };
}

/** Every query key a list page owns; other keys in the URL (a page's tab, say) belong to the page. */
export const LIST_PARAM_KEYS: ReadonlySet<string> = new Set([
  "page",
  "pageSize",
  ...SCALARS,
  ...LISTS,
  "date",
  "month",
]);

/** The list state written over `current`, keeping the query keys that are not the list's. */
export function mergeListState(current: URLSearchParams, state: ListState): URLSearchParams {
  const out = writeListState(state);
  for (const [k, v] of current) if (!LIST_PARAM_KEYS.has(k)) out.append(k, v);
  return out;
}

export function writeListState(state: ListState): URLSearchParams {
  const params = new URLSearchParams();
  if (state.page !== 1) params.set("page", String(state.page));
  if (state.pageSize !== DEFAULT_PAGE_SIZE) params.set("pageSize", String(state.pageSize));
  const v = state.values;
  for (const key of SCALARS) {
    const x = v[key];
    if (x) params.set(key, x);
  }
  for (const key of LISTS) {
    const x = v[key];
    if (x === undefined) continue;
    for (const item of Array.isArray(x) ? x : [x]) params.append(key, item);
  }
  if (v.date) for (const d of v.date) params.append("date", d);
  if (v.month) for (const m of Array.isArray(v.month) ? v.month : [v.month]) params.append("month", m);
  return params;
}
