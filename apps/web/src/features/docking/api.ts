import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { BrandAuth, BrandAuthReq, Docking, DockingStatus, Page } from "@tessera/contracts";
import type { Query } from "../../api/client";
import { unwrap } from "../../api/errors";
import { http } from "../../api/http";

/** The docking feature's react-query keys (dockings between purchaser and supplier, brand authorisations). */
export const dockingKeys = {
  dockings: (query: Query) => ["dockings", query] as const,
  dockingsAll: ["dockings"] as const,
  brandAuths: (query: Query) => ["brandAuths", query] as const,
  brandAuthsAll: ["brandAuths"] as const,
};

/** Docking (`abutment/*`, `apply/{id}`) and brand authorisations (`brandAuth`). */
const user = "/api/card-user";

export function dockingsQuery(
  query: Query & { page: number; pageSize: number; side: "purchaser" | "supplier"; status?: DockingStatus },
) {
  return {
    queryKey: dockingKeys.dockings(query),
    queryFn: async () => unwrap(await http.get<Page<Docking>>(`${user}/abutment/brander/apply`, { query })),
  };
}

function useDockingMutation<A, R>(fn: (args: A) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: dockingKeys.dockingsAll }),
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

export function brandAuthsQuery(query: { page: number; pageSize: number; side: "brand" | "grantee" }) {
  return {
    queryKey: dockingKeys.brandAuths(query),
    queryFn: async () => unwrap(await http.post<Page<BrandAuth>>(`${user}/brandAuth/list`, query)),
  };
}
function useBrandAuthMutation<A, R>(fn: (args: A) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: dockingKeys.brandAuthsAll }),
  });
}
export const useGrantBrandAuth = () =>
  useBrandAuthMutation((req: BrandAuthReq) => http.post<BrandAuth>(`${user}/brandAuth`, req, { toast: false }));
export const useRevokeBrandAuth = () =>
  useBrandAuthMutation((id: string) => http.del<BrandAuth>(`${user}/brandAuth/${id}`));
