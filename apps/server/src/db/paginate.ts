import type { SelectQueryBuilder } from "kysely";

/** The rows of one page: skip `offset`, take `limit`. */
export interface PageWindow {
  offset: number;
  limit: number;
}

/** Page `page` (from 1) of `pageSize` rows as a window. */
export function pageWindow(q: { page: number; pageSize: number }): PageWindow {
  return { offset: (q.page - 1) * q.pageSize, limit: q.pageSize };
}

/**
 * One page of a list and how many rows the list has, as two statements run together: `listed`, selected
 * and ordered, with `LIMIT` and `OFFSET` from the window, and `SELECT count(*) AS n` over `counted` (the
 * list's FROM and WHERE, usually the builder `listed` was made from).
 */
export async function paginate<LDB, LTB extends keyof LDB, Row, CDB, CTB extends keyof CDB, CO>(
  listed: SelectQueryBuilder<LDB, LTB, Row>,
  counted: SelectQueryBuilder<CDB, CTB, CO>,
  window: PageWindow,
): Promise<{ rows: Row[]; total: number }> {
  const [rows, count] = await Promise.all([
    listed.offset(window.offset).limit(window.limit).execute(),
    counted
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .$castTo<{ n: string }>()
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}
