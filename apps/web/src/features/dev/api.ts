import type { OutboxItem, OutboxQuery, Page } from "@tessera/contracts";
import { unwrap } from "../../api/errors";
import { http } from "../../api/http";

/** The dev tools' react-query keys (the local mail/SMS outbox). */
export const devKeys = {
  outbox: (query: OutboxQuery) => ["outbox", query] as const,
};

/** The local mail/SMS outbox (`GET /api/dev/outbox`), newest first. No token needed. */
export function outboxQueryOptions(query: OutboxQuery) {
  return {
    queryKey: devKeys.outbox(query),
    queryFn: async (): Promise<Page<OutboxItem>> =>
      unwrap(await http.get<Page<OutboxItem>>("/api/dev/outbox", { query: { ...query }, auth: false })),
  };
}

/** The same filters as an .xlsx download. */
export const OUTBOX_EXPORT_PATH = "/api/dev/outbox/export";
