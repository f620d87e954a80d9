import { useQuery } from "@tanstack/react-query";
import { formatMoney } from "../../ui/money";
import { ocKeys, ocSaleApi } from "./api";

/** The purchaser's latest 100 purchases as select options ("#id · product × n · amount"). */
export function useSaleOptions() {
  const q = { page: 1, pageSize: 100 };
  const { data } = useQuery({ queryKey: ocKeys.sales(q), queryFn: () => ocSaleApi.sales(q) });
  return (data?.list ?? []).map((s) => ({
    value: s.id,
    label: `#${s.id} · ${s.productName} × ${s.quantity} · ${formatMoney(s.amount)}`,
    productId: s.productId,
    productName: s.productName,
  }));
}
