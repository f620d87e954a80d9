/**
 * A card-secret import file (CSV) as the tests and journeys upload it: the import template's header, then
 * one line a card ("number,secret,expiry", the expiry empty for a card that does not expire). Imports
 * nothing, so journeys and benches can use it.
 */
export const CARD_CSV_HEADER = {
  /** The English template's header (what the server's template offers in English). */
  en: "Card number,Card secret,Expiry date (YYYY-MM-DD)",
  /** The short Chinese header a supplier's own spreadsheet might have. */
  cn: "卡号,卡密,有效期",
} as const;

export interface CardCsvOptions {
  header?: keyof typeof CARD_CSV_HEADER;
  /** A line end after the last line too (the default). */
  end?: boolean;
}

/**
 * `cardCsv(n, (i) => \`SKU${i},S${i},\`)`: n cards, line i made by `row`; `cardCsv(["A1,S1,", "A2,S2,"])`:
 * the lines given. CRLF line ends.
 */
export function cardCsv(n: number, row: (i: number) => string, options?: CardCsvOptions): string;
export function cardCsv(rows: readonly string[], options?: CardCsvOptions): string;
export function cardCsv(
  rows: number | readonly string[],
  rowOrOptions?: ((i: number) => string) | CardCsvOptions,
  maybeOptions: CardCsvOptions = {},
): string {
  const options = typeof rowOrOptions === "function" ? maybeOptions : (rowOrOptions ?? {});
  const lines =
    typeof rows === "number"
      ? Array.from({ length: rows }, (_, i) => (rowOrOptions as (i: number) => string)(i))
      : [...rows];
  const text = [CARD_CSV_HEADER[options.header ?? "en"], ...lines].join("\r\n");
  return options.end === false ? text : `${text}\r\n`;
}
