/**
 * Array parameters as PostgreSQL array literals, built with one JSON.stringify: pass the result as a
 * text parameter cast to the array type (`${textArray(xs)}::text[]`, `${intArray(ns)}::bigint[]`).
 *
 * Why: node-postgres builds an array parameter element by element in JavaScript (two regular-expression
 * replacements and a string concatenation each). For the IM gateway's batches of sends that was a third
 * of everything the server allocated, and so a good part of its garbage collection.
 *
 * JSON and PostgreSQL's array literals quote strings and escape `"` and `\` the same way, and `null` is
 * an array literal's NULL. JSON's other escapes (control characters, lone surrogates: `\n`, `\u0001`)
 * mean something else in an array literal; a list whose JSON has one is written element by element.
 */

/** Maybe a JSON escape other than `\"` and `\\` (also matches an escaped backslash before one of the letters). */
const MAYBE_OTHER_ESCAPE = /\\[bfnrtu]/;
/** A JSON escape other than `\"` and `\\`: a backslash after an even run of backslashes, then b f n r t or u. */
const OTHER_ESCAPE = /(?:^|[^\\])(?:\\\\)*\\[bfnrtu]/;

export function textArray(xs: readonly (string | null)[]): string {
  const json = JSON.stringify(xs);
  // The quick test first: the exact one is slower, and most lists pass the quick one.
  if (!MAYBE_OTHER_ESCAPE.test(json) || !OTHER_ESCAPE.test(json)) return `{${json.slice(1, -1)}}`;
  return `{${xs.map((x) => (x === null ? "NULL" : `"${x.replace(/["\\]/g, "\\$&")}"`)).join(",")}}`;
}

export function intArray(xs: readonly (number | null)[]): string {
  for (const x of xs) if (x !== null && !Number.isSafeInteger(x)) throw new Error(`not an integer: ${x}`);
  return `{${JSON.stringify(xs).slice(1, -1)}}`;
}
