import { useTranslation } from "react-i18next";
import { INVOICE_STATES, INVOICE_TYPES, type InvoiceState, type InvoiceType } from "@tessera/contracts";
import type { SearchValues } from "../../ui/list/searchValues";
import { useDictLabels } from "../catalog/labels";
import type { InvoiceListQuery } from "./api";

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** The list filters of an invoice list from the search bar: state, type and the request date range. */
export function invoiceFilters(values: SearchValues): Omit<InvoiceListQuery, "page" | "pageSize"> {
  const state = one(values.selVal);
  const type = one(values.selValT);
  return {
    state: (INVOICE_STATES as readonly string[]).includes(state ?? "") ? (state as InvoiceState) : undefined,
    invoiceType: (INVOICE_TYPES as readonly string[]).includes(type ?? "") ? (type as InvoiceType) : undefined,
    from: values.date?.[0].slice(0, 10),
    to: values.date?.[1].slice(0, 10),
  };
}

/** The search bar of an invoice list. */
export function useInvoiceSearch() {
  const { t } = useTranslation();
  const labels = useDictLabels();
  return {
    dateMode: "date" as const,
    select: {
      keys: [
        {
          value: "state",
          label: t("invoices.col.state"),
          options: INVOICE_STATES.map((s) => ({ value: s, label: t(`invoices.state.${s}`) })),
        },
      ],
    },
    selectT: {
      keys: [
        {
          value: "invoiceType",
          label: t("invoices.col.type"),
          options: INVOICE_TYPES.map((v) => ({ value: v, label: labels.invoiceType(v) })),
        },
      ],
    },
  };
}
