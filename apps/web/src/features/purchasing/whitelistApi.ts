import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Page, WhitelistEntry, WhitelistReq, WhitelistScope } from "@tessera/contracts";
import type { Query } from "../../api/client";
import { unwrap } from "../../api/errors";
import { http } from "../../api/http";

/** Supplier whitelists (`/api/card-brander/whitelists`): business/VendorWhiteList and business/PurchaseWhiteList. */
const path = "/api/card-brander/whitelists";
const all = ["whitelists"] as const;

export function whitelistsQuery(query: Query & { page: number; pageSize: number; scope: WhitelistScope }) {
  return {
    queryKey: [...all, query] as const,
    queryFn: async () => unwrap(await http.get<Page<WhitelistEntry>>(path, { query })),
  };
}

function useWhitelistMutation<A, R>(fn: (args: A) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => void queryClient.invalidateQueries({ queryKey: all }) });
}

export const useAddWhitelist = () =>
  useWhitelistMutation((req: WhitelistReq) => http.post<WhitelistEntry>(path, req, { toast: false }));
export const useRemoveWhitelist = () => useWhitelistMutation((id: string) => http.del<WhitelistEntry>(`${path}/${id}`));
