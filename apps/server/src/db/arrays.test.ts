import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../test/kit/use-test-app";
import { intArray, textArray } from "./arrays";

const t = useTestApp();

/** What the database makes of a literal: the elements back, in order, nulls included. */
async function roundTrip(literal: string): Promise<(string | null)[]> {
  const r = await sql<{
    x: string | null;
  }>`SELECT x FROM unnest(${literal}::text[]) WITH ORDINALITY AS u(x, o) ORDER BY o`.execute(t.ctx.database.db);
  return r.rows.map((row) => row.x);
}

describe("array literals", () => {
  it("carry every string as it is: quotes, backslashes, braces, commas, blanks, NULL as text, empty", async () => {
    const xs = [
      'say "hi"',
      "back\\slash",
      "\\\\double",
      "{braces}",
      "a,b",
      " padded ",
      "NULL",
      "null",
      "",
      "ünïcödé ✓ 中文",
      null,
      '{"json":"\\"quoted\\""}',
    ];
    expect(await roundTrip(textArray(xs))).toEqual(xs);
  });

  it("carry control characters (JSON escapes them differently: such a list is written element by element)", async () => {
    const xs = ["line\nbreak", "tab\there", "bell\u0007", "json text \\n stays", "\\\n"];
    expect(textArray(xs).includes("\n")).toBe(true);
    expect(await roundTrip(textArray(xs))).toEqual(xs);
    // An escaped backslash before an n is not a JSON escape: the fast path keeps it.
    expect(textArray(["json text \\n stays"])).toBe('{"json text \\\\n stays"}');
  });

  it("carry integers and nulls, and refuse what is not a safe integer", async () => {
    const r = await sql<{
      x: number | null;
    }>`SELECT x FROM unnest(${intArray([1, null, 2 ** 40, -5])}::bigint[]) WITH ORDINALITY AS u(x, o) ORDER BY o`.execute(
      t.ctx.database.db,
    );
    expect(r.rows.map((row) => (row.x === null ? null : Number(row.x)))).toEqual([1, null, 2 ** 40, -5]);
    expect(() => intArray([1.5])).toThrow("not an integer");
  });

  it("an empty list is an empty array", async () => {
    expect(await roundTrip(textArray([]))).toEqual([]);
  });
});
