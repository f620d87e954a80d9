/** Data reports of the SDK (spec 03 §7 "Data-report POST", §9 "Event reporting"). */

/** Event ids, as the published client numbers them. */
export const REPORT_EVENT = { INIT: 9674, OPERATION: 9675 } as const;
/** Events accepted per minute; beyond that they are dropped and counted. */
export const REPORT_MAX_PER_MINUTE = 1000;
/** Events per POST. */
export const REPORT_BATCH_SIZE = 10;
/** The wait before a batch goes, and between batches. */
export const REPORT_DELAY_MS = 1000;
/** Events waiting to be sent, and operations being timed: each at most this many. */
export const REPORT_PENDING_MAX = 1000;

const MINUTE_MS = 60_000;

/** One reported event, as POSTed (the body is a JSON array of these). */
export interface ReportEvent {
  eventId: number;
  body: Record<string, unknown>;
}

/** How an operation ended: `code` is the error type on failure (0 on success), `codeDesc` the error text. */
export interface ReportOutcome {
  ok: boolean;
  code: number;
  codeDesc?: string;
}

/** The part of `fetch` the reporter uses (injected in tests). */
export type ReportFetch = (
  url: string,
  init: { method: "POST"; headers: Record<string, string>; body: string; keepalive: boolean },
) => Promise<{ ok: boolean; status: number }>;

/** Where and how a reporter sends. */
export interface ReporterOptions {
  /** Where batches go; read at each flush (the REST host may change with server discovery). */
  url: () => string;
  /** The access token sent in the `token` header; batches wait while there is none. */
  token: () => string;
  /** The `appid` header: the app key. */
  appId: string;
  /** The `biz` header (default "im"). */
  biz?: string;
  /** The `debug` header. */
  debug?: boolean;
  fetch?: ReportFetch;
  now?: () => number;
  /** Fields every event body carries (SDK version, device, session id ...). */
  common?: () => Record<string, unknown>;
}

interface Timing {
  operationName: string;
  operationType: string;
  startedAt: number;
  extra: Record<string, unknown>;
}

/**
 * Queues events about what the SDK did (initialised, logged in, sent, reconnected, called the REST API,
 * with durations and results) and POSTs them in batches of 10 one second apart. Bounded on every side:
 * at most 1000 events a minute (the rest are dropped and counted), at most 1000 waiting to be sent, at
 * most 1000 operations being timed at once. Best effort: a failed POST is counted, never retried, and
 * never affects the connection.
 */
export class Reporter {
  /** Events dropped: over the per-minute cap or with the queue full. */
  dropped = 0;
  /** Events in batches the endpoint refused or could not be reached for. */
  failed = 0;
  /** Events the endpoint accepted. */
  sent = 0;
  private readonly queue: ReportEvent[] = [];
  private readonly timings = new Map<string, Timing>();
  private windowStart = 0;
  private windowCount = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private inFlight: Promise<void> | undefined;
  private readonly now: () => number;

  constructor(private readonly options: ReporterOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Events waiting to be sent. */
  get pending(): number {
    return this.queue.length;
  }

  /** Operations being timed. */
  get timing(): number {
    return this.timings.size;
  }

  /** Queues an event (dropped and counted when over the per-minute cap or the queue is full). */
  add(eventId: number, body: Record<string, unknown>): void {
    const now = this.now();
    if (now - this.windowStart >= MINUTE_MS) {
      this.windowStart = now;
      this.windowCount = 0;
    }
    if (this.windowCount >= REPORT_MAX_PER_MINUTE || this.queue.length >= REPORT_PENDING_MAX) {
      this.dropped += 1;
      return;
    }
    this.windowCount += 1;
    this.queue.push({ eventId, body: { ...this.options.common?.(), lts: now, ...body } });
    this.schedule();
  }

  /** Reports a finished operation of known duration. */
  operation(
    operationName: string,
    operationType: string,
    elapsedMs: number,
    outcome: ReportOutcome,
    extra: Record<string, unknown> = {},
  ): void {
    this.add(REPORT_EVENT.OPERATION, {
      operationName,
      operationType,
      requestElapse: Math.max(0, Math.round(elapsedMs)),
      isSuccess: outcome.ok ? 1 : 0,
      code: outcome.code,
      codeDesc: outcome.codeDesc ?? "",
      ...extra,
    });
  }

  /**
   * Starts timing an operation that ends later (a send until its acknowledgement), under `key`. Beyond
   * REPORT_PENDING_MAX open operations a new one is not timed (and so not reported).
   */
  begin(key: string, operationName: string, operationType: string, extra: Record<string, unknown> = {}): void {
    if (this.timings.size >= REPORT_PENDING_MAX && !this.timings.has(key)) return;
    this.timings.set(key, { operationName, operationType, startedAt: this.now(), extra });
  }

  /** Ends the operation timed under `key` and reports it; unknown keys are ignored. */
  end(key: string, outcome: ReportOutcome): void {
    const t = this.timings.get(key);
    if (!t) return;
    this.timings.delete(key);
    this.operation(t.operationName, t.operationType, this.now() - t.startedAt, outcome, t.extra);
  }

  /** Sends every queued event now, batch after batch; resolves when done (for closing and tests). */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.inFlight;
    while (this.queue.length > 0 && this.options.token()) await this.sendBatch();
  }

  /** Stops the timer; queued events stay until the next add or flush. */
  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(): void {
    if (this.timer || this.queue.length === 0) return;
    const timer = setTimeout(() => {
      this.timer = undefined;
      if (this.inFlight || !this.options.token()) {
        // Still sending, or not logged in yet: try again a delay later.
        this.schedule();
        return;
      }
      this.inFlight = this.sendBatch().finally(() => {
        this.inFlight = undefined;
        this.schedule();
      });
    }, REPORT_DELAY_MS);
    // In Node a pending report must not keep the process alive.
    (timer as { unref?: () => void }).unref?.();
    this.timer = timer;
  }

  private async sendBatch(): Promise<void> {
    const batch = this.queue.splice(0, REPORT_BATCH_SIZE);
    if (batch.length === 0) return;
    // Called through globalThis: a detached fetch may throw 'Illegal invocation' in browsers.
    const f: ReportFetch | undefined =
      this.options.fetch ??
      (typeof globalThis.fetch === "function" ? (url, init) => globalThis.fetch(url, init) : undefined);
    if (!f) {
      this.failed += batch.length;
      return;
    }
    const headers = {
      "Content-Type": "application/json",
      token: this.options.token(),
      appid: this.options.appId,
      sendts: String(Math.floor(this.now() / 1000)),
      biz: this.options.biz ?? "im",
      debug: String(this.options.debug ?? false),
    };
    try {
      const res = await f(this.options.url(), {
        method: "POST",
        headers,
        body: JSON.stringify(batch),
        keepalive: true,
      });
      if (res.ok) this.sent += batch.length;
      else this.failed += batch.length;
    } catch {
      this.failed += batch.length;
    }
  }
}
