import { CODE, TUS_VERSION, UPLOAD_MAX_BYTES, type MessageKey } from "@tessera/contracts";
import { AppError } from "../../platform/http/errors";

/**
 * The tus 1.0 resumable-upload protocol (https://tus.io/protocols/resumable-upload), the parts we
 * speak: core (HEAD, PATCH with Upload-Offset), creation (POST with Upload-Length) and termination
 * (DELETE). Header names and status codes live here; the rules live in the service.
 */
export const TUS_EXTENSIONS = "creation,termination";
export const TUS_MAX_SIZE = UPLOAD_MAX_BYTES;
export const TUS_CONTENT_TYPE = "application/offset+octet-stream";

/** A refusal with the HTTP status tus prescribes (412, 413, 415, 409, 404, 410 ...) and a readable message. */
export class TusError extends AppError {
  constructor(
    readonly status: number,
    key: MessageKey,
    code: number = CODE.INVALID_PARAMETER,
  ) {
    super(code, key);
  }
  override get httpStatus(): number {
    return this.status;
  }
}

export function checkTusVersion(header: string | string[] | undefined): void {
  if (header !== TUS_VERSION) throw new TusError(412, "media.tusVersion");
}

/** A non-negative integer header value (Upload-Length, Upload-Offset), or null when malformed. */
export function intHeader(value: string | string[] | undefined): number | null {
  if (typeof value !== "string" || !/^\d{1,16}$/.test(value)) return null;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : null;
}

/**
 * `Upload-Metadata`: comma-separated `key base64value` pairs (value optional). Returns null when the
 * header is malformed (bad key, bad base64, a key twice).
 */
export function parseMetadata(header: string | undefined): Map<string, string> | null {
  const out = new Map<string, string>();
  if (header === undefined || header.trim() === "") return out;
  if (header.length > 4096) return null;
  for (const pair of header.split(",")) {
    const [key, value, ...rest] = pair.trim().split(" ");
    if (!key || rest.length > 0 || !/^[A-Za-z0-9_.-]{1,64}$/.test(key) || out.has(key)) return null;
    if (value === undefined || value === "") {
      out.set(key, "");
      continue;
    }
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(value) || value.length % 4 !== 0) return null;
    const decoded = Buffer.from(value, "base64").toString("utf8");
    if (decoded.includes("\uFFFD")) return null;
    out.set(key, decoded);
  }
  return out;
}

/**
 * An HTTP Range header against a file of `size` bytes: one range (inclusive), "all" when there is no
 * usable single range to honour (absent, or several ranges: the whole file is sent), or "unsatisfiable".
 */
export function parseRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | "all" | "unsatisfiable" {
  if (!header) return "all";
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m) return header.trim().startsWith("bytes=") && header.includes(",") ? "all" : "unsatisfiable";
  const [, a = "", b = ""] = m;
  if (a === "" && b === "") return "unsatisfiable";
  if (a === "") {
    const suffix = Number(b);
    if (suffix === 0 || size === 0) return "unsatisfiable";
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(a);
  const end = b === "" ? size - 1 : Math.min(Number(b), size - 1);
  if (start >= size || end < start) return "unsatisfiable";
  return { start, end };
}
