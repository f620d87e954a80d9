import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  AnnouncementReq,
  OpsAnnouncement,
  Page,
  ServiceContact,
  ServiceContactReq,
  TextMessPage,
} from "@tessera/contracts";
import { unwrap } from "../../api/errors";
import { http } from "../../api/http";

/**
 * The platform's customer-service contact (`GET getQwContact`) and announcements (`GET textMess`, spec 01
 * §7 Account) for a merchant, and the operator's side of both (`/api/ops/serviceContact`, `/announcements`).
 */
export const announcementKeys = {
  all: ["announcements"] as const,
  contact: ["announcements", "contact"] as const,
  /** The operator's view of the contact (its own cache entry under the merchant's). */
  opsContact: ["announcements", "contact", "ops"] as const,
  mine: (q: { page: number; pageSize: number }) => ["announcements", "mine", q] as const,
  mineAll: ["announcements", "mine"] as const,
  ops: (q: { page: number; pageSize: number }) => ["announcements", "ops", q] as const,
};

export function useServiceContact(enabled = true) {
  return useQuery({
    queryKey: announcementKeys.contact,
    queryFn: async () =>
      unwrap(await http.get<ServiceContact | null>("/api/card-user/getQwContact", { overlay: false, toast: false })),
    staleTime: 10 * 60_000,
    enabled,
  });
}

/** The merchant's announcements with their read state; refreshed every few minutes for the bell. */
export function useTextMess(q: { page: number; pageSize: number }, enabled = true) {
  return useQuery({
    queryKey: announcementKeys.mine(q),
    queryFn: async () =>
      unwrap(await http.get<TextMessPage>("/api/card-user/textMess", { query: q, overlay: false, toast: false })),
    refetchInterval: 5 * 60_000,
    enabled,
  });
}

export function useMarkRead() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (id: string): Promise<boolean> => {
      const r =
        id === "all"
          ? await http.put<{ marked: number }>("/api/card-user/textMess/read", undefined, { overlay: false })
          : await http.put<null>(`/api/card-user/textMess/${id}/read`, undefined, { overlay: false });
      return Boolean(r?.ok);
    },
    onSuccess: () => void qc.invalidateQueries({ queryKey: announcementKeys.mineAll }),
  });
}

export const opsAnnouncementsApi = {
  contact: async () => unwrap(await http.get<ServiceContact | null>("/api/ops/serviceContact", { overlay: false })),
  setContact: (body: ServiceContactReq) => http.put<ServiceContact>("/api/ops/serviceContact", body, { toast: false }),
  list: async (q: { page: number; pageSize: number }) =>
    unwrap(await http.get<Page<OpsAnnouncement>>("/api/ops/announcements", { query: q, overlay: false })),
  publish: (body: AnnouncementReq) => http.post<OpsAnnouncement>("/api/ops/announcements", body, { toast: false }),
  withdraw: (id: string) => http.del<null>(`/api/ops/announcements/${id}`),
};
