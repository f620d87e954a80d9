import { TUS_VERSION, UPLOAD_PART_BYTES, UPLOAD_RETRIES, UPLOAD_TIMEOUT_MS } from "@tessera/contracts";
import {
  DetailedError,
  Upload,
  type HttpRequest,
  type HttpResponse,
  type HttpStack,
  type PreviousUpload,
  type UrlStorage,
} from "tus-js-client";

/**
 * Resumable uploads with tus-js-client, the tus protocol's reference client, set up as spec 03 §9
 * asks: parts of 1 MiB, each retried up to 3 times 2 s apart (after a failure the client asks the
 * server for its offset with HEAD and continues from there). The upload's address is kept in storage
 * under the file's fingerprint, so a paused or interrupted upload — also after a page reload —
 * continues where the server says it stopped. What is ours: requests go through `fetch` (a timeout
 * per request, and tests pass a fake server), the video the server names in `Tessera-Video-Id`, and
 * a promise-shaped API for the upload dialog.
 */

/** Where upload addresses are kept (the browser's localStorage, or a map in tests). */
export interface TusStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface TusOptions {
  endpoint: string;
  file: File;
  /** Upload-Metadata fields (base64-encoded by the client; empty values are left out). */
  metadata: Record<string, string>;
  /** What else makes two uploads of one file different (the dialog's type and id, the user). */
  fingerprintScope: string;
  /** Headers of every request (login token, language), read at each request. */
  headers: () => Record<string, string>;
  fetch: (input: string, init: RequestInit) => Promise<Response>;
  storage: TusStorage;
  onProgress: (sent: number, total: number) => void;
  partSize?: number;
  /** Delays before the retries of a failed request; their number is the number of retries (spec 03 §9: 3, 2 s apart). */
  retryDelays?: number[];
  timeoutMs?: number;
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

/** Storage key prefix of upload addresses: `tus::<fingerprint>` → the upload's URL. */
export const STORAGE_PREFIX = "tus::";
const VIDEO_ID_HEADER = "Tessera-Video-Id";

export function fingerprintOf(file: Pick<File, "name" | "type" | "size" | "lastModified">, scope: string): string {
  return [file.name, file.type, file.size, file.lastModified, scope].join("|");
}

/** Statuses worth retrying: the network (0), a busy or conflicting upload, too many requests, the server's own failures. */
const retryable = (status: number) =>
  status === 0 || status === 409 || status === 423 || status === 429 || status >= 500;

function serverMessage(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { msg?: unknown };
    return typeof parsed.msg === "string" ? parsed.msg : undefined;
  } catch {
    return undefined;
  }
}

function failure(err: unknown): TusStop {
  if (err instanceof TusStop) return err;
  const res = err instanceof DetailedError ? err.originalResponse : null;
  return new TusStop("failed", res ? serverMessage(res.getBody()) : undefined, res?.getStatus());
}

/**
 * One upload address per fingerprint, stored as the plain URL under `tus::<fingerprint>` (as the
 * previous hand-written client kept it, so uploads paused before the switch still resume).
 */
function urlStorage(storage: TusStorage): UrlStorage {
  const entry = (key: string, url: string): PreviousUpload => ({
    size: null,
    metadata: {},
    creationTime: "",
    urlStorageKey: key,
    uploadUrl: url,
    parallelUploadUrls: null,
  });
  return {
    findAllUploads: () => Promise.resolve([]),
    findUploadsByFingerprint: (fingerprint) => {
      const key = STORAGE_PREFIX + fingerprint;
      const url = storage.getItem(key);
      return Promise.resolve(url ? [entry(key, url)] : []);
    },
    removeUpload: (key) => Promise.resolve(storage.removeItem(key)),
    addUpload: (fingerprint, upload) => {
      const key = STORAGE_PREFIX + fingerprint;
      if (upload.uploadUrl) storage.setItem(key, upload.uploadUrl);
      return Promise.resolve(key);
    },
  };
}

/** tus-js-client's transport over `fetch`, each request aborted after `timeoutMs` (then retried like a network error). */
function fetchStack(fetchFn: TusOptions["fetch"], timeoutMs: number): HttpStack {
  return {
    getName: () => "FetchHttpStack",
    createRequest(method, url): HttpRequest {
      const headers: Record<string, string> = {};
      const controller = new AbortController();
      return {
        getMethod: () => method,
        getURL: () => url,
        setHeader: (name, value) => void (headers[name] = value),
        getHeader: (name) => headers[name],
        // fetch reports no upload progress: progress moves part by part.
        setProgressHandler: () => undefined,
        async send(body: Blob | null = null): Promise<HttpResponse> {
          const timer = setTimeout(
            () => controller.abort(new Error(`tus request timed out after ${timeoutMs} ms`)),
            timeoutMs,
          );
          try {
            const res = await fetchFn(url, { method, headers, body, signal: controller.signal });
            const text = await res.text();
            return {
              getStatus: () => res.status,
              getHeader: (name) => res.headers.get(name) ?? undefined,
              getBody: () => text,
              getUnderlyingObject: () => res,
            };
          } finally {
            clearTimeout(timer);
          }
        },
        abort: () => Promise.resolve(controller.abort()),
        getUnderlyingObject: () => controller,
      };
    },
  };
}

export class TusUpload {
  readonly #o: TusOptions;
  readonly #key: string;
  readonly #stack: HttpStack;
  readonly #upload: Upload;
  #resumeChecked = false;
  /** Counts starts and pauses: a pause between a start and its first request wins. */
  #run = 0;
  #current: Promise<TusResult> | null = null;
  /** The pending `start()`, settled by the client's callbacks or by `pause()`. */
  #pending: { resolve: (r: TusResult) => void; reject: (e: TusStop) => void } | null = null;
  /** The last progress reported (tus-js-client reports an offset before and after each part). */
  #reported = -1;

  constructor(options: TusOptions) {
    const fingerprint = fingerprintOf(options.file, options.fingerprintScope);
    this.#o = options;
    this.#key = STORAGE_PREFIX + fingerprint;
    this.#stack = fetchStack(options.fetch, options.timeoutMs ?? UPLOAD_TIMEOUT_MS);
    this.#upload = new Upload(options.file, {
      endpoint: options.endpoint,
      metadata: Object.fromEntries(Object.entries(options.metadata).filter(([, v]) => v !== "")),
      chunkSize: options.partSize ?? UPLOAD_PART_BYTES,
      retryDelays: options.retryDelays ?? Array.from({ length: UPLOAD_RETRIES }, () => 2000),
      onShouldRetry: (err) => retryable(err.originalResponse?.getStatus() ?? 0),
      fingerprint: () => Promise.resolve(fingerprint),
      urlStorage: urlStorage(options.storage),
      // The address is forgotten once the server has named the video, not before (see #succeeded).
      removeFingerprintOnSuccess: false,
      httpStack: this.#stack,
      fileReader: {
        // A File is read by slicing (tus-js-client's browser reader does the same; its Node build reads only Buffers and streams).
        openFile: (file: Blob) =>
          Promise.resolve({
            size: file.size,
            slice: (start: number, end: number) =>
              Promise.resolve({ value: file.slice(start, end), done: end >= file.size }),
            close: () => undefined,
          }),
      },
      onBeforeRequest: (req) => {
        for (const [name, value] of Object.entries(options.headers())) req.setHeader(name, value);
      },
      onProgress: (sent, total) => {
        if (sent === this.#reported) return;
        this.#reported = sent;
        options.onProgress(sent, total);
      },
      onSuccess: ({ lastResponse }) => void this.#succeeded(lastResponse),
      onError: (err) => this.#settle(failure(err)),
    });
  }

  /** Stops the request in flight; `start()` rejects with TusStop("paused"). Start again to resume. */
  pause(): void {
    this.#run++;
    void this.#upload.abort();
    this.#settle(new TusStop("paused"));
  }

  /** Forgets the stored upload URL (after success, or when the user gives the upload up). */
  forget(): void {
    this.#o.storage.removeItem(this.#key);
  }

  /**
   * Starts, or resumes after a pause or a failure (the first time from the address stored for this
   * file, if any). While an upload runs, start() returns its promise.
   */
  start(): Promise<TusResult> {
    if (this.#current) return this.#current;
    const run = ++this.#run;
    const current = (async () => {
      if (!this.#resumeChecked) {
        try {
          const [previous] = await this.#upload.findPreviousUploads();
          if (previous) this.#upload.resumeFromPreviousUpload(previous);
          this.#resumeChecked = true;
        } catch (err) {
          throw failure(err);
        }
      }
      if (run !== this.#run) throw new TusStop("paused");
      return new Promise<TusResult>((resolve, reject) => {
        this.#pending = { resolve, reject };
        this.#upload.start();
      });
    })();
    this.#current = current;
    const done = () => {
      if (this.#current === current) this.#current = null;
    };
    current.then(done, done);
    return current;
  }

  #settle(outcome: TusResult | TusStop): void {
    const pending = this.#pending;
    this.#pending = null;
    if (!pending) return;
    if (outcome instanceof TusStop) pending.reject(outcome);
    else pending.resolve(outcome);
  }

  /** Every byte is in; the reply names the video, or (a finish that failed before) one empty PATCH finishes it. */
  async #succeeded(last: HttpResponse): Promise<void> {
    if (!this.#pending) return;
    const url = this.#upload.url ?? "";
    try {
      let videoId = last.getHeader(VIDEO_ID_HEADER);
      if (!videoId) {
        const req = this.#stack.createRequest("PATCH", url);
        req.setHeader("Tus-Resumable", TUS_VERSION);
        for (const [name, value] of Object.entries(this.#o.headers())) req.setHeader(name, value);
        req.setHeader("Upload-Offset", String(this.#o.file.size));
        req.setHeader("Content-Type", "application/offset+octet-stream");
        const res = await req.send(null);
        videoId = res.getStatus() === 204 ? res.getHeader(VIDEO_ID_HEADER) : undefined;
        if (!videoId) throw new TusStop("failed", serverMessage(res.getBody()), res.getStatus());
      }
      this.forget();
      this.#settle({ videoId, url });
    } catch (err) {
      this.#settle(failure(err));
    }
  }
}
