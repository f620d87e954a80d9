import pg from "pg";

/**
 * Counts the statements every pg client sends (BEGIN and COMMIT included) from now until stop(), by
 * statement text, so a bench can print statements per request beside its CPU figures. On PGlite nothing
 * goes through pg.Client: the count is 0 there.
 */
export function countStatements(): { stop(): Map<string, number> } {
  const counts = new Map<string, number>();
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  proto.query = function (this: unknown, ...args: unknown[]) {
    const first = args[0];
    const text =
      typeof first === "string"
        ? first
        : typeof first === "object" && first !== null && "text" in first
          ? String(first.text)
          : "?";
    counts.set(text, (counts.get(text) ?? 0) + 1);
    return original.apply(this, args);
  };
  return {
    stop() {
      proto.query = original;
      return counts;
    },
  };
}
