import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

/**
 * The process's metrics, in the Prometheus text format (prom-client). One registry per process: the
 * counters are process-wide (a test process that builds several apps sees their sum), and the gauges
 * that read a live app (IM connections, the database pool) sum over the apps registered as sources.
 */
export const registry = new Registry();
collectDefaultMetrics({ register: registry, prefix: "tessera_" });

/** Live readings of one running app; removed when the app closes. */
export interface MetricSources {
  imConnections?: () => number;
  pool?: () => { total: number; idle: number; waiting: number } | null;
  /** Read from the database at scrape time (the same on every node: do not sum them across nodes). */
  ledgerTransactions?: () => Promise<number>;
  syncQueueDepth?: () => Promise<number>;
}
const sources = new Set<MetricSources>();
export function addMetricSources(s: MetricSources): () => void {
  sources.add(s);
  return () => void sources.delete(s);
}
const sum = (read: (s: MetricSources) => number | undefined) => [...sources].reduce((n, s) => n + (read(s) ?? 0), 0);

const seconds = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export const httpRequests = new Counter({
  name: "tessera_http_requests_total",
  help: "HTTP requests answered, by method, route pattern and status",
  labelNames: ["method", "route", "status"] as const,
  registers: [registry],
});
export const httpDuration = new Histogram({
  name: "tessera_http_request_duration_seconds",
  help: "Time to answer an HTTP request, by method, route pattern and status",
  labelNames: ["method", "route", "status"] as const,
  buckets: seconds,
  registers: [registry],
});
export const appErrors = new Counter({
  name: "tessera_errors_total",
  help: "Error replies by reply code (back-office envelope codes, IM error names; internal = a bug)",
  labelNames: ["code"] as const,
  registers: [registry],
});
export const cspViolations = new Counter({
  name: "tessera_csp_violations_total",
  help: "Content-Security-Policy violations browsers reported, by directive",
  labelNames: ["directive"] as const,
  registers: [registry],
});
export const ledgerRefusals = new Counter({
  name: "tessera_ledger_refusals_total",
  help: "Money movements refused because a balance would go below zero",
  registers: [registry],
});
export const imMessagesSent = new Counter({
  name: "tessera_im_messages_sent_total",
  help: "IM messages stored from websocket sends",
  registers: [registry],
});
export const imMessagesDelivered = new Counter({
  name: "tessera_im_messages_delivered_total",
  help: "IM messages and notices handed to devices in sync replies",
  registers: [registry],
});
export const dbQueryDuration = new Histogram({
  name: "tessera_db_query_duration_seconds",
  help: "Time of database queries made through the query builder",
  buckets: seconds,
  registers: [registry],
});
export const jobRuns = new Counter({
  name: "tessera_job_runs_total",
  help: "Runs of the recurring jobs, by job and outcome",
  labelNames: ["job", "outcome"] as const,
  registers: [registry],
});
export const jobDuration = new Histogram({
  name: "tessera_job_duration_seconds",
  help: "Time of a job run",
  labelNames: ["job"] as const,
  buckets: [0.01, 0.1, 0.5, 1, 5, 15, 60, 300],
  registers: [registry],
});
const jobLastSuccess = new Map<string, number>();
/** Notes a job's successful run, for its lag (seconds since it last succeeded). */
export function jobSucceeded(job: string, atMs: number): void {
  jobLastSuccess.set(job, atMs);
}
new Gauge({
  name: "tessera_job_lag_seconds",
  help: "Seconds since each job last ran successfully in this process",
  labelNames: ["job"] as const,
  registers: [registry],
  collect() {
    const now = Date.now();
    for (const [job, at] of jobLastSuccess) this.set({ job }, (now - at) / 1000);
  },
});
export const fileDuration = new Histogram({
  name: "tessera_file_duration_seconds",
  help: "Time to import or export a file, by kind (import, export)",
  labelNames: ["kind"] as const,
  buckets: [0.05, 0.1, 0.5, 1, 5, 15, 60, 300],
  registers: [registry],
});
new Gauge({
  name: "tessera_im_connections",
  help: "Open IM websocket connections",
  registers: [registry],
  collect() {
    this.set(sum((s) => s.imConnections?.()));
  },
});
new Gauge({
  name: "tessera_db_pool_connections",
  help: "Database pool connections by state (PostgreSQL server only)",
  labelNames: ["state"] as const,
  registers: [registry],
  collect() {
    const readings = [...sources].map((s) => s.pool?.()).filter((p) => p !== undefined && p !== null);
    this.set(
      { state: "total" },
      readings.reduce((n, p) => n + p.total, 0),
    );
    this.set(
      { state: "idle" },
      readings.reduce((n, p) => n + p.idle, 0),
    );
    this.set(
      { state: "waiting" },
      readings.reduce((n, p) => n + p.waiting, 0),
    );
  },
});

/** A database-wide reading from the first source that has it (every node shares one database). */
async function databaseReading(
  pick: (s: MetricSources) => (() => Promise<number>) | undefined,
): Promise<number | null> {
  for (const s of sources) {
    const read = pick(s);
    if (read) return read().catch(() => null);
  }
  return null;
}
new Gauge({
  name: "tessera_ledger_transactions",
  help: "Ledger transactions in the database (every posting of money; read at scrape, the same on every node)",
  registers: [registry],
  async collect() {
    const n = await databaseReading((s) => s.ledgerTransactions);
    if (n !== null) this.set(n);
  },
});
new Gauge({
  name: "tessera_im_sync_queue_depth",
  help: "Entries waiting in the IM sync queues (planner estimate; read at scrape, the same on every node)",
  registers: [registry],
  async collect() {
    const n = await databaseReading((s) => s.syncQueueDepth);
    if (n !== null) this.set(n);
  },
});
