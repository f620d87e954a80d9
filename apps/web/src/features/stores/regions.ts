import { useQuery } from "@tanstack/react-query";
import { unwrap } from "../../api/errors";
import { http } from "../../api/http";

/** Province → city → county options for antd's Cascader (GB/T 2260 codes, served by the server's region data). */
export interface RegionOption {
  value: string;
  label: string;
  children?: RegionOption[];
}

export function useRegions(): RegionOption[] {
  const q = useQuery({
    queryKey: ["stores", "regions"],
    queryFn: async () =>
      unwrap(await http.get<RegionOption[]>("/api/store-public/regions", { auth: false, overlay: false })),
    staleTime: Infinity,
  });
  return q.data ?? [];
}
