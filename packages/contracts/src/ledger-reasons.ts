import type { Lang } from "./lang";
import { isMessageKey, renderMessage } from "./messages";

/**
 * Fund-change reasons (issue 37). A ledger transaction's `reason` is text; flows that used to write internal
 * words there (`onecard activation`, `collection …`, `refund PAY…`) write a structured reason instead: a
 * message key and its parameters, which every list renders in its reader's language. Free text typed by a
 * person (a refund reason, an operator's note) and rows written before stay plain text and read as they are.
 */
const MARK = "§";

/** The structured reason to store: a message key (`ledgerReason.*`) and its parameters. */
export function ledgerReason(key: string, params: Record<string, string | number> = {}): string {
  return `${MARK}${JSON.stringify([key, params])}`;
}

/** A stored reason as the reader reads it: a structured one in `lang`, anything else as it was written. */
export function renderLedgerReason(stored: string, lang: Lang): string {
  if (!stored.startsWith(MARK)) return stored;
  try {
    const parsed: unknown = JSON.parse(stored.slice(MARK.length));
    if (!Array.isArray(parsed) || typeof parsed[0] !== "string" || !isMessageKey(parsed[0])) return stored;
    const params = (typeof parsed[1] === "object" && parsed[1] !== null ? parsed[1] : {}) as Record<
      string,
      string | number
    >;
    return renderMessage(parsed[0], lang, params);
  } catch {
    return stored;
  }
}
