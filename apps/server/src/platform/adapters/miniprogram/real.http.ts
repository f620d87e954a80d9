import { PlatformError } from "./adapter";

/**
 * The real platform adapters (MP_ADAPTER=http): HTTP to the documented open APIs. They cannot be reached
 * from the build machine, so their request building and the push signature/encryption are tested against
 * recorded examples (real.test.ts) through the injectable `fetch`.
 */

export type Fetch = (
  url: string,
  init: { method: "GET" | "POST"; headers: Record<string, string>; body?: string },
) => Promise<{ status: number; headers: { get(name: string): string | null }; arrayBuffer(): Promise<ArrayBuffer> }>;

export interface HttpAdapterOptions {
  componentAppId: string;
  componentSecret: string;
  /**
   * Douyin only: the open-platform app (open.douyin.com) through which local-life merchants authorise,
   * with the scopes it asks for. Without it, local-life authorisation is refused.
   */
  life?: { clientKey: string; clientSecret: string; scopes: string[] } | undefined;
  fetch?: Fetch;
  now?: () => number;
}

export const defaultFetch: Fetch = (url, init) => fetch(url, init);

export async function json(res: Awaited<ReturnType<Fetch>>): Promise<Record<string, unknown>> {
  const text = Buffer.from(await res.arrayBuffer()).toString("utf8");
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === "object" && v !== null ? (v as Record<string, unknown>) : {};
  } catch {
    throw new PlatformError(-1, `bad reply (${res.status})`);
  }
}
/** One JSON call to a platform's open API (both platforms take query parameters and an optional JSON body). */
export async function callPlatform(
  fetchFn: Fetch,
  base: string,
  method: "GET" | "POST",
  path: string,
  query: Record<string, string>,
  body?: unknown,
): Promise<Record<string, unknown>> {
  const url = `${base}/${path}?${new URLSearchParams(query).toString()}`;
  return json(
    await fetchFn(url, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    }),
  );
}
export const str = (v: unknown): string => (typeof v === "string" ? v : typeof v === "number" ? String(v) : "");
export const num = (v: unknown): number => (typeof v === "number" ? v : Number(v) || 0);
