import { writeFileSync } from "node:fs";
import WebSocket from "ws";

/**
 * BENCH_CPU_PROF_LOAD=<dir>: a V8 CPU profile of the server during each gateway throughput run only (not
 * the logins before), taken through the inspector the server opens on SIGUSR1 (with BENCH_HEAP_PROF=1 a
 * sampled allocation profile instead).
 */
export async function profileServer(pid: number): Promise<(file: string) => Promise<void>> {
  process.kill(pid, "SIGUSR1");
  let url: string | undefined;
  for (let i = 0; i < 50 && !url; i++) {
    await new Promise((r) => setTimeout(r, 100));
    url = await fetch("http://127.0.0.1:9229/json/list")
      .then(async (r) => ((await r.json()) as { webSocketDebuggerUrl: string }[])[0]?.webSocketDebuggerUrl)
      .catch(() => undefined);
  }
  if (!url) throw new Error("the server's inspector did not open");
  const ws = new WebSocket(url);
  await new Promise((r) => ws.once("open", r));
  let seq = 0;
  const call = (method: string, params?: Record<string, unknown>) =>
    new Promise<unknown>((resolve) => {
      const id = ++seq;
      const on = (data: Buffer) => {
        const m = JSON.parse(data.toString()) as { id?: number; result?: unknown };
        if (m.id !== id) return;
        ws.off("message", on);
        resolve(m.result);
      };
      ws.on("message", on);
      ws.send(JSON.stringify({ id, method, params }));
    });
  // BENCH_HEAP_PROF=1: where the server allocates (sampled, garbage included) instead of where it spends time.
  if (process.env.BENCH_HEAP_PROF) {
    await call("HeapProfiler.enable");
    await call("HeapProfiler.startSampling", {
      samplingInterval: 4096,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
    return async (file) => {
      const r = (await call("HeapProfiler.stopSampling")) as { profile: unknown };
      writeFileSync(file.replace(/\.cpuprofile$/, ".heapprofile"), JSON.stringify(r.profile));
      ws.close();
    };
  }
  await call("Profiler.enable");
  // A sample every 100 µs instead of V8's 1 ms: a message costs tens of microseconds.
  await call("Profiler.setSamplingInterval", { interval: 100 });
  await call("Profiler.start");
  return async (file) => {
    const r = (await call("Profiler.stop")) as { profile: unknown };
    writeFileSync(file, JSON.stringify(r.profile));
    ws.close();
  };
}
