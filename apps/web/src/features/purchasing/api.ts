import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  ApplicationDecisionReq,
  ApplicationState,
  FulfilReq,
  OrderReportRow,
  OrderReq,
  OrderState,
  Page,
  PurchaseApplication,
  PurchaseOrder,
  RefundOrder,
  RefundReq,
  RefundState,
  ReportUnit,
} from "@tessera/contracts";
import type { Query } from "../../api/client";
import { unwrap } from "../../api/errors";
import { http } from "../../api/http";
import { queryKeys } from "../../api/queryKeys";
import { fundsKeys } from "../funds/api";

/**
 * The purchasing feature's react-query keys (orders, applications, refunds, reports); dockings and brand
 * authorisations are features/docking's (dockingKeys).
 */
export const purchasingKeys = {
  orders: (side: "purchaser" | "supplier", query: Query) => ["orders", side, query] as const,
  ordersAll: ["orders"] as const,
  applications: (side: "purchaser" | "supplier", query: Query) => ["applications", side, query] as const,
  applicationsAll: ["applications"] as const,
  refunds: (side: "purchaser" | "supplier", query: Query) => ["refunds", side, query] as const,
  refundsAll: ["refunds"] as const,
  orderReports: (side: "purchaser" | "supplier", query: Query) => ["orderReports", side, query] as const,
  orderReportsAll: ["orderReports"] as const,
};

/** Purchase orders (`orders`, `supplyOrders`), refunds, reports and purchase applications. */
const user = "/api/card-user";

export function ordersQuery(
  query: Query & { page: number; pageSize: number; state?: OrderState },
  side: "purchaser" | "supplier",
) {
  return {
    queryKey: purchasingKeys.orders(side, query),
    queryFn: async () =>
      unwrap(
        await http.get<Page<PurchaseOrder>>(
          side === "purchaser" ? `${user}/orders` : "/api/card-brander/supplyOrders",
          { query },
        ),
      ),
  };
}

export function usePlaceOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (req: OrderReq) => http.post<PurchaseOrder>(`${user}/orders`, req, { toast: false }),
    onSuccess: () => {
      // The goods' stock changed too: the selection lists and the open goods drawer show it.
      for (const key of [purchasingKeys.ordersAll, queryKeys.userInfoAll, fundsKeys.fundChangesAll, ["selection"]]) {
        void queryClient.invalidateQueries({ queryKey: key });
      }
    },
  });
}

export function useFulfilOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...req }: FulfilReq & { id: string }) =>
      http.put<PurchaseOrder>(`/api/card-brander/supplyOrders/${id}/fulfil`, req, { toast: false }),
    onSuccess: () => {
      for (const key of [purchasingKeys.ordersAll, queryKeys.userInfoAll]) {
        void queryClient.invalidateQueries({ queryKey: key });
      }
    },
  });
}

export function refundsQuery(
  query: Query & { page: number; pageSize: number; state?: RefundState },
  side: "purchaser" | "supplier",
) {
  return {
    queryKey: purchasingKeys.refunds(side, query),
    queryFn: async () =>
      unwrap(
        await http.get<Page<RefundOrder>>(
          side === "purchaser" ? `${user}/refunds` : "/api/card-brander/supplyRefunds",
          { query },
        ),
      ),
  };
}

export function useOrderReport(
  side: "purchaser" | "supplier",
  query: { kind: "purchase" | "refund"; unit: ReportUnit; from: string; to: string },
) {
  return useQuery({
    queryKey: purchasingKeys.orderReports(side, query),
    queryFn: async () =>
      unwrap(
        await http.get<OrderReportRow[]>(
          side === "purchaser" ? `${user}/orders/reports` : "/api/card-brander/sup/reports",
          { query },
        ),
      ),
  });
}

function useRefundMutation<A, R>(fn: (args: A) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => {
      for (const key of [
        purchasingKeys.refundsAll,
        purchasingKeys.ordersAll,
        queryKeys.userInfoAll,
        purchasingKeys.orderReportsAll,
      ]) {
        void queryClient.invalidateQueries({ queryKey: key });
      }
    },
  });
}

export const useRequestRefund = () =>
  useRefundMutation((req: RefundReq) => http.post<RefundOrder>(`${user}/refunds`, req, { toast: false }));
export const useDecideRefund = () =>
  useRefundMutation(({ id, approve, reason }: { id: string; approve: boolean; reason?: string }) =>
    http.put<RefundOrder>(
      `/api/card-brander/supplyRefunds/${id}`,
      { approve, ...(reason && { reason }) },
      { toast: false },
    ),
  );

export function applicationsQuery(
  query: Query & { page: number; pageSize: number; state?: ApplicationState },
  side: "purchaser" | "supplier",
) {
  return {
    queryKey: purchasingKeys.applications(side, query),
    queryFn: async () =>
      unwrap(
        await http.get<Page<PurchaseApplication>>(
          side === "purchaser" ? `${user}/purchaseApplications` : "/api/card-brander/purchaseApplications",
          { query },
        ),
      ),
  };
}
function useApplicationMutation<A, R>(fn: (args: A) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: purchasingKeys.applicationsAll }),
  });
}
export const useApplyToPurchase = () =>
  useApplicationMutation((req: { goodsId: string; remark?: string }) =>
    http.post<PurchaseApplication>(`${user}/purchaseApplications`, req, { toast: false }),
  );
export const useDecideApplication = () =>
  useApplicationMutation(({ id, ...req }: ApplicationDecisionReq & { id: string }) =>
    http.put<PurchaseApplication>(`/api/card-brander/purchaseApplications/${id}`, req, { toast: false }),
  );
