import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import { DICT_LABELS, isLang, type BusinessType, type InvoiceType } from "@tessera/contracts";

/** Labels of the shared enumerations (business and invoice types) in the interface language. */
export function useDictLabels() {
  const { i18n } = useTranslation();
  const lang = isLang(i18n.language) ? i18n.language : "cn";
  const businessType = useCallback((v: BusinessType) => DICT_LABELS.businessType[v][lang], [lang]);
  const invoiceType = useCallback((v: InvoiceType) => DICT_LABELS.invoiceType[v][lang], [lang]);
  return { businessType, invoiceType };
}

/** Basis points as a percentage: 9250 → "92.5%". */
export function percent(bp: number): string {
  return `${Number((bp / 100).toFixed(2))}%`;
}
