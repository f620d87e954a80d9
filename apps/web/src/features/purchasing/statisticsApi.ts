import { useQuery } from "@tanstack/react-query";
import type { Page, SalesStatsRow, SettlementRow, SupOrderRow, SupplyCheckRow } from "@tessera/contracts";
import type { Query } from "../../api/client";
import { unwrap } from "../../api/errors";
import { http } from "../../api/http";

/** Statistics and settlement calls: sale/SalesStatistics, sale/PurchaseSettlement, business/CheckSupOrder, business/SUPOrder. */
const all = ["orderStatistics"] as const;

export function salesStatsQuery(query: Query & { page: number; pageSize: number; from: string; to: string }) {
  return {
    queryKey: [...all, "sales", query] as const,
    queryFn: async () => unwrap(await http.get<Page<SalesStatsRow>>("/api/card-user/salesStatistics", { query })),
  };
}

export function supOrdersQuery(query: Query & { page: number; pageSize: number }) {
  return {
    queryKey: [...all, "supOrders", query] as const,
    queryFn: async () => unwrap(await http.get<Page<SupOrderRow>>("/api/card-brander/supOrders", { query })),
  };
}

export function usePurchaseSettlement(query: { unit: "day" | "month"; from: string; to: string }) {
  return useQuery({
    queryKey: [...all, "settlement", query],
    queryFn: async () => unwrap(await http.get<SettlementRow[]>("/api/card-user/purchaseSettlement", { query })),
  });
}

export function useSupplyCheck(query: { from: string; to: string }) {
  return useQuery({
    queryKey: [...all, "check", query],
    queryFn: async () => unwrap(await http.get<SupplyCheckRow[]>("/api/card-brander/supplyOrders/check", { query })),
  });
}
