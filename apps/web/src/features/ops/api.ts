import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { AuditRow, OpsMerchantRow, Page, QueueItem, QueueSummary } from "@tessera/contracts";
import type { Query } from "../../api/client";
import { unwrap } from "../../api/errors";
import { http } from "../../api/http";

/** Operator console calls (`/api/ops`): review queues, merchant search, audit log, and their react-query keys. */
const base = "/api/ops";

export const opsKeys = {
  queues: ["ops", "queues"] as const,
  items: (kind: string, q: Query) => ["ops", "items", kind, q] as const,
  itemsAll: ["ops", "items"] as const,
  merchants: (q: Query) => ["ops", "merchants", q] as const,
  merchantsAll: ["ops", "merchants"] as const,
  audit: (q: Query) => ["ops", "audit", q] as const,
  auditAll: ["ops", "audit"] as const,
};

export function useQueues() {
  return useQuery({
    queryKey: opsKeys.queues,
    queryFn: async () => unwrap(await http.get<QueueSummary[]>(`${base}/queues`)),
  });
}

export function queueItemsQuery(kind: string, query: Query) {
  return {
    queryKey: opsKeys.items(kind, query),
    queryFn: async () => unwrap(await http.get<Page<QueueItem>>(`${base}/queues/${kind}/items`, { query })),
  };
}

export function useDecide() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ kind, id, reason }: { kind: string; id: string; reason?: string }) =>
      reason === undefined
        ? http.post<null>(`${base}/queues/${kind}/items/${id}/approve`)
        : http.post<null>(`${base}/queues/${kind}/items/${id}/reject`, { reason }, { toast: false }),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: opsKeys.itemsAll });
      void qc.invalidateQueries({ queryKey: opsKeys.queues });
      void qc.invalidateQueries({ queryKey: opsKeys.auditAll });
    },
  });
}

export function useProviderRole() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ merchantId, grant }: { merchantId: string; grant: boolean }) =>
      http.post<OpsMerchantRow>(`${base}/merchants/${merchantId}/providerRole`, { grant }),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: opsKeys.merchantsAll });
      void qc.invalidateQueries({ queryKey: opsKeys.auditAll });
    },
  });
}

export function merchantsQuery(query: Query) {
  return {
    queryKey: opsKeys.merchants(query),
    queryFn: async () => unwrap(await http.get<Page<OpsMerchantRow>>(`${base}/merchants`, { query })),
  };
}

export function auditQuery(query: Query) {
  return {
    queryKey: opsKeys.audit(query),
    queryFn: async () => unwrap(await http.get<Page<AuditRow>>(`${base}/auditLog`, { query })),
  };
}
