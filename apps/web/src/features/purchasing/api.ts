import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  ApplicationDecisionReq,
  ApplicationState,
  BrandAuth,
  BrandAuthReq,
  Docking,
  DockingStatus,
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

/** The purchasing feature's react-query keys (dockings, orders, applications, brand authorisations, refunds, reports). */
export const purchasingKeys = {
  dockings: (query: Query) => ["dockings", query] as const,
  dockingsAll: ["dockings"] as const,
  orders: (side: "purchaser" | "supplier", query: Query) => ["orders", side, query] as const,
  ordersAll: ["orders"] as const,
  applications: (side: "purchaser" | "supplier", query: Query) => ["applications", side, query] as const,
  applicationsAll: ["applications"] as const,
  brandAuths: (query: Query) => ["brandAuths", query] as const,
  brandAuthsAll: ["brandAuths"] as const,
  refunds: (side: "purchaser" | "supplier", query: Query) => ["refunds", side, query] as const,
  refundsAll: ["refunds"] as const,
  orderReports: (side: "purchaser" | "supplier", query: Query) => ["orderReports", side, query] as const,
  orderReportsAll: ["orderReports"] as const,
};

/** Docking (`abutment/*`, `apply/{id}`) and purchase orders (`orders`, `supplyOrders`). */
const user = "/api/card-user";

export function dockingsQuery(
  query: Query & { page: number; pageSize: number; side: "purchaser" | "supplier"; status?: DockingStatus },
) {
  return {
    queryKey: purchasingKeys.dockings(query),
    queryFn: async () => unwrap(await http.get<Page<Docking>>(`${user}/abutment/brander/apply`, { query })),
  };
}

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

function useDockingMutation<A, R>(fn: (args: A) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: purchasingKeys.dockingsAll }),
  });
}

export const useApplyDocking = () =>
  useDockingMutation((supplierId: string) =>
    http.post<Docking>(`${user}/abutment/brander/apply`, { supplierId }, { toast: false }),
  );
export const useReviewDocking = () =>
  useDockingMutation(({ id, approve, reason }: { id: string; approve: boolean; reason?: string }) =>
    http.post<Docking>(
      `${user}/abutment/brander/review/${id}`,
      { approve, ...(reason && { reason }) },
      { toast: false },
    ),
  );
export const useSignDocking = () =>
  useDockingMutation(({ id, phone, verifyCode }: { id: string; phone: string; verifyCode: string }) =>
    http.post<Docking>(`${user}/abutment/brander/confirm/${id}`, { phone, verifyCode }, { toast: false }),
  );
export const useEndDocking = () => useDockingMutation((id: string) => http.del<null>(`${user}/apply/${id}`));

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

export function brandAuthsQuery(query: { page: number; pageSize: number; side: "brand" | "grantee" }) {
  return {
    queryKey: purchasingKeys.brandAuths(query),
    queryFn: async () => unwrap(await http.post<Page<BrandAuth>>(`${user}/brandAuth/list`, query)),
  };
}
function useBrandAuthMutation<A, R>(fn: (args: A) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: purchasingKeys.brandAuthsAll }),
  });
}
export const useGrantBrandAuth = () =>
  useBrandAuthMutation((req: BrandAuthReq) => http.post<BrandAuth>(`${user}/brandAuth`, req, { toast: false }));
export const useRevokeBrandAuth = () =>
  useBrandAuthMutation((id: string) => http.del<BrandAuth>(`${user}/brandAuth/${id}`));

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
