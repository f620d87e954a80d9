import http from "node:http";

export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  rps: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number };
}

export interface LoadOptions {
  url: string;
  method: "GET" | "POST" | "PUT";
  headers?: Record<string, string>;
  body?: unknown;
  /** Requests in flight at once (closed loop). */
  concurrency: number;
  durationSeconds: number;
  /** A reply counts as an error unless this returns true. */
  check?: (status: number, body: string) => boolean;
}

/** A closed-loop load generator over keep-alive connections; records every latency. */
export async function runLoad(o: LoadOptions): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: o.concurrency });
  const url = new URL(o.url);
  const payload = o.body === undefined ? undefined : JSON.stringify(o.body);
  const headers = { ...(payload && { "content-type": "application/json" }), ...o.headers };
  const latencies: number[] = [];
  let errors = 0;
  const end = performance.now() + o.durationSeconds * 1000;

  const once = () =>
    new Promise<void>((resolve) => {
      const started = performance.now();
      const req = http.request(
        { agent, host: url.hostname, port: url.port, path: url.pathname + url.search, method: o.method, headers },
        (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (c: string) => (text += c));
          res.on("end", () => {
            latencies.push(performance.now() - started);
            if (!(o.check ?? ((s) => s === 200))(res.statusCode ?? 0, text)) errors++;
            resolve();
          });
        },
      );
      req.on("error", () => {
        errors++;
        resolve();
      });
      if (payload) req.write(payload);
      req.end();
    });

  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: o.concurrency }, async () => {
      while (performance.now() < end) await once();
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const q = (p: number) =>
    +(latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0).toFixed(2);
  return {
    requests: latencies.length,
    errors,
    seconds: +seconds.toFixed(2),
    rps: Math.round(latencies.length / seconds),
    latencyMs: { p50: q(0.5), p90: q(0.9), p99: q(0.99), max: +(latencies.at(-1) ?? 0).toFixed(2) },
  };
}
