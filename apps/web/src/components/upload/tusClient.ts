import { TUS_VERSION, UPLOAD_PART_BYTES, UPLOAD_RETRIES, UPLOAD_TIMEOUT_MS } from "@tessera/contracts";

/**
 * A small tus 1.0 client (core + creation) over fetch: PATCH parts of 1 MiB, each retried up to 3
 * times (spec 03 §9), resynchronising the offset with HEAD after a failure. The upload's URL is kept
 * in storage under the file's fingerprint, so a paused or interrupted upload — also after a page
 * reload — continues where the server says it stopped. Free of DOM globals (fetch and storage come
 * in), so it runs in unit tests.
 */

export interface TusStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface TusFile {
  name: string;
  size: number;
  type: string;
  lastModified: number;
  slice(start: number, end: number): Blob;
}

export interface TusOptions {
  endpoint: string;
  file: TusFile;
  /** Upload-Metadata fields (values are base64-encoded here). */
  metadata: Record<string, string>;
  /** What else makes two uploads of one file different (the dialog's type and id, the user). */
  fingerprintScope: string;
  /** Headers of every request (login token, language), read at each request. */
  headers: () => Record<string, string>;
  fetch: (input: string, init: RequestInit) => Promise<Response>;
  storage: TusStorage;
  onProgress: (sent: number, total: number) => void;
  partSize?: number;
  retries?: number;
  /** Delay before each retry (spec 03 §9: retry interval 2 s). */
  retryDelayMs?: number;
  timeoutMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

export interface TusResult {
  /** The video the finished upload became (the server's Tessera-Video-Id header). */
  videoId: string;
  url: string;
}

/** Why an upload stopped: paused by the user, or failed (with the server's message when it gave one). */
export class TusStop extends Error {
  constructor(
    readonly reason: "paused" | "failed",
    readonly serverMessage?: string,
    readonly status?: number,
  ) {
    super(reason);
    this.name = "TusStop";
  }
}

export const STORAGE_PREFIX = "tus::";

export function fingerprintOf(file: TusFile, scope: string): string {
  return [file.name, file.type, file.size, file.lastModified, scope].join("|");
}

function encodeMetadata(meta: Record<string, string>): string {
  return Object.entries(meta)
    .filter(([, v]) => v !== "")
    .map(([k, v]) => `${k} ${btoa(String.fromCharCode(...new TextEncoder().encode(v)))}`)
    .join(",");
}

async function serverMessage(res: Response): Promise<string | undefined> {
  try {
    const body = (await res.json()) as { msg?: unknown };
    return typeof body.msg === "string" ? body.msg : undefined;
  } catch {
    return undefined;
  }
}

/** Statuses worth retrying: the network, a busy or conflicting upload, the server's own failures. */
const retryable = (status: number) => status === 409 || status === 423 || status === 429 || status >= 500;

export class TusUpload {
  readonly #o: Required<Omit<TusOptions, "sleep">> & { sleep: (ms: number) => Promise<void> };
  readonly #key: string;
  #controller: AbortController | null = null;
  #offset = 0;

  constructor(options: TusOptions) {
    this.#o = {
      partSize: UPLOAD_PART_BYTES,
      retries: UPLOAD_RETRIES,
      retryDelayMs: 2000,
      timeoutMs: UPLOAD_TIMEOUT_MS,
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
      ...options,
    };
    this.#key = STORAGE_PREFIX + fingerprintOf(options.file, options.fingerprintScope);
  }

  get offset(): number {
    return this.#offset;
  }

  /** Stops the part in flight; `start()` rejects with TusStop("paused"). Start again to resume. */
  pause(): void {
    this.#controller?.abort();
  }

  /** Forgets the stored upload URL (after success, or when the user gives the upload up). */
  forget(): void {
    this.#o.storage.removeItem(this.#key);
  }

  async start(): Promise<TusResult> {
    const controller = new AbortController();
    this.#controller = controller;
    try {
      const located = await this.#locate(controller.signal);
      const url = located.url;
      let videoId = located.videoId;
      const total = this.#o.file.size;
      this.#o.onProgress(this.#offset, total);
      while (videoId === null) {
        videoId = await this.#sendPart(url, controller.signal);
        this.#o.onProgress(this.#offset, total);
        if (videoId === null && this.#offset >= total) {
          // The server has every byte but named no video (a finish that failed): one more empty PATCH finishes it.
          videoId = await this.#sendPart(url, controller.signal);
          if (videoId === null) throw new TusStop("failed");
        }
      }
      this.forget();
      return { videoId, url };
    } catch (err) {
      if (controller.signal.aborted) throw new TusStop("paused");
      if (err instanceof TusStop) throw err;
      throw new TusStop("failed");
    } finally {
      if (this.#controller === controller) this.#controller = null;
    }
  }

  async #request(url: string, init: RequestInit, signal: AbortSignal): Promise<Response> {
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), this.#o.timeoutMs);
    const onAbort = () => timeout.abort();
    signal.addEventListener("abort", onAbort);
    try {
      return await this.#o.fetch(url, { ...init, signal: timeout.signal, headers: { ...this.#o.headers(), "Tus-Resumable": TUS_VERSION, ...(init.headers as Record<string, string>) } });
    } finally {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
    }
  }

  /** The stored upload when the server still has it (its offset), else a new one. */
  async #locate(signal: AbortSignal): Promise<{ url: string; videoId: string | null }> {
    const stored = this.#o.storage.getItem(this.#key);
    if (stored) {
      const res = await this.#request(stored, { method: "HEAD" }, signal);
      if (res.ok) {
        this.#offset = Number(res.headers.get("Upload-Offset") ?? "0");
        return { url: stored, videoId: res.headers.get("Tessera-Video-Id") };
      }
      if (res.status !== 404 && res.status !== 410 && res.status !== 403) throw new TusStop("failed", undefined, res.status);
      this.forget();
    }
    const res = await this.#request(
      this.#o.endpoint,
      { method: "POST", headers: { "Upload-Length": String(this.#o.file.size), "Upload-Metadata": encodeMetadata(this.#o.metadata) } },
      signal,
    );
    const location = res.headers.get("Location");
    if (res.status !== 201 || !location) throw new TusStop("failed", await serverMessage(res), res.status);
    this.#o.storage.setItem(this.#key, location);
    this.#offset = 0;
    return { url: location, videoId: null };
  }

  /** One part from the current offset, with retries; returns the video id once the last byte is in. */
  async #sendPart(url: string, signal: AbortSignal): Promise<string | null> {
    for (let attempt = 0; ; attempt++) {
      let status = 0;
      let message: string | undefined;
      try {
        const end = Math.min(this.#offset + this.#o.partSize, this.#o.file.size);
        const res = await this.#request(
          url,
          { method: "PATCH", headers: { "Upload-Offset": String(this.#offset), "Content-Type": "application/offset+octet-stream" }, body: this.#o.file.slice(this.#offset, end) },
          signal,
        );
        if (res.status === 204) {
          this.#offset = Number(res.headers.get("Upload-Offset") ?? String(end));
          return res.headers.get("Tessera-Video-Id");
        }
        status = res.status;
        message = await serverMessage(res);
      } catch (err) {
        if (signal.aborted) throw err;
        // A network failure or a timeout: retried like a 5xx.
      }
      if ((status !== 0 && !retryable(status)) || attempt >= this.#o.retries) throw new TusStop("failed", message, status);
      await this.#o.sleep(this.#o.retryDelayMs);
      if (signal.aborted) throw new TusStop("paused");
      // Where does the server stand now? Some bytes of the failed part may have arrived.
      const head = await this.#request(url, { method: "HEAD" }, signal);
      if (!head.ok) throw new TusStop("failed", undefined, head.status);
      this.#offset = Number(head.headers.get("Upload-Offset") ?? String(this.#offset));
      const videoId = head.headers.get("Tessera-Video-Id");
      if (videoId) return videoId;
    }
  }
}
