import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { BrandTokenReply, Page, ServiceBinding, ServiceKind } from "@tessera/contracts";
import { unwrap } from "../../api/errors";
import { http } from "../../api/http";

/**
 * The provider's side of service binding (spec 01 §7 Servicer calls): `POST card-servicer/brander`
 * lists the merchants bound to this provider (the server scopes it to the caller), `DELETE
 * card-servicer/brander/{id}` ends a binding.
 */
const servicer = "/api/card-servicer";

export const servedKeys = {
  all: ["providers", "served"] as const,
  page: (q: ServedQuery) => ["providers", "served", q] as const,
};

/** A page of served merchants; `kind` keeps one list (brands or vendors). */
export interface ServedQuery {
  page: number;
  pageSize: number;
  keyword?: string;
  kind?: ServiceKind;
}

export function servedQuery(q: ServedQuery) {
  return {
    queryKey: servedKeys.page(q),
    queryFn: async () => unwrap(await http.post<Page<ServiceBinding>>(`${servicer}/brander`, q)),
  };
}

export function useEndBinding() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (bindingId: string) => http.del<null>(`${servicer}/brander/${bindingId}`),
    onSuccess: (r) => r?.ok && void qc.invalidateQueries({ queryKey: servedKeys.all }),
  });
}

/** The token exchange (spec 01 §6): a brand token for one bound brand, asked with the provider's session. */
export function useBrandTokenExchange() {
  return useMutation({
    mutationFn: (bindingId: string) => http.post<BrandTokenReply>(`${servicer}/brander/${bindingId}/token`),
  });
}
