import { CURRENCIES, type Currency } from "@tessera/contracts";
import type { TFunction } from "i18next";
import { formatMoney } from "../../ui/money";

/**
 * The audit log in the reader's language: an action key ("topUp.confirm", "withdrawal.secondReview"),
 * the subject ("topUpNotice" #12) and the before/after records are stored as the server wrote them, in
 * keys and minor units; these turn them into words and formatted money. A key without a translation is
 * shown as it is (a new module's action still shows, untranslated, rather than vanishing).
 */

/** Record fields that hold an amount of minor units. */
const MONEY_FIELDS = new Set(["amount", "fee", "reserve", "balance", "total", "refundAmount"]);

function key(raw: string): string {
  return raw.replace(/\./g, "_");
}

export function auditAction(t: TFunction, action: string): string {
  const exact = t(`ops.action.${key(action)}`, { defaultValue: "" });
  if (exact) return exact;
  // "<queue>.<verb>" from a review queue: the queue's name and the verb.
  const [kind = "", verb = ""] = action.split(".");
  const kindText = t(`ops.queue.${kind}`, { defaultValue: t(`ops.auditText.kind.${kind}`, { defaultValue: "" }) });
  const verbText = t(`ops.auditText.verb.${verb}`, { defaultValue: "" });
  return kindText && verbText ? `${kindText} · ${verbText}` : action;
}

export function auditSubject(t: TFunction, type: string, id: string): string {
  return `${t(`ops.auditText.subject.${type}`, { defaultValue: type })} #${id}`;
}

function currencyOf(record: unknown): Currency | null {
  if (record && typeof record === "object" && "currency" in record) {
    const c = record.currency;
    if (typeof c === "string") return CURRENCIES.find((known) => known === c) ?? null;
  }
  return null;
}

function valueText(t: TFunction, field: string, value: unknown, currency: Currency | null): string {
  if (value === null || value === undefined) return "-";
  if (MONEY_FIELDS.has(field) && typeof value === "number" && Number.isInteger(value)) {
    // Without a currency the amount is still shown in major units, never as raw minor units.
    return currency ? formatMoney({ amount: value, currency }) : (value / 100).toFixed(2);
  }
  if (Array.isArray(value)) return value.map((v) => valueText(t, field, v, currency)).join(", ") || "-";
  if (typeof value === "string") return t(`ops.auditText.value.${value}`, { defaultValue: value });
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value);
}

/**
 * One line per field of a before/after record, labelled in the reader's language. The currency is read
 * from the record itself or from its partner (a "before" of `{state}` takes the "after"'s currency).
 */
export function auditLines(t: TFunction, record: unknown, partner?: unknown): { label: string; text: string }[] {
  if (record === null || record === undefined) return [];
  if (typeof record !== "object" || Array.isArray(record)) return [{ label: "", text: valueText(t, "", record, null) }];
  const currency = currencyOf(record) ?? currencyOf(partner);
  // The database keeps a record's keys in its own order: the state first, then the money, then the rest.
  const rank = (field: string) => (field === "state" ? 0 : MONEY_FIELDS.has(field) ? 1 : 2);
  return Object.entries(record as Record<string, unknown>)
    .filter(([field]) => field !== "currency")
    .sort(([a], [b]) => rank(a) - rank(b))
    .map(([field, value]) => ({
      label: t(`ops.field.${field}`, { defaultValue: t(`ops.auditText.field.${field}`, { defaultValue: field }) }),
      text: valueText(t, field, value, currency),
    }));
}
