import Fastify, { type FastifyInstance } from "fastify";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { REPORT_PURGE_FIRST_DELAY_MS, REPORT_PURGE_INTERVAL_MS, scheduleReportPurge } from "./jobs";

/**
 * The schedule of the data-report purge, on a bare server with fake timers: when it runs, that runs never
 * overlap, and that a failure is logged and retried at the next run.
 */
let app: FastifyInstance;
let lines: string[];
beforeEach(() => {
  // Only the job's own timers: the server's start-up needs its real ticks.
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval"] });
  app = Fastify();
  lines = [];
});
afterEach(async () => {
  await app.close();
  vi.useRealTimers();
});

/** A purge whose runs the test finishes by hand. */
function manualPurge() {
  const pending: { resolve: (n: number) => void; reject: (err: Error) => void }[] = [];
  const purge = vi.fn(() => new Promise<number>((resolve, reject) => pending.push({ resolve, reject })));
  return { purge, pending };
}

describe("scheduleReportPurge", () => {
  it("runs first after the start delay, then every interval, and logs what it deleted", async () => {
    const purge = vi.fn(() => Promise.resolve(3));
    scheduleReportPurge(app, purge, (l) => lines.push(l));
    await app.ready();
    expect(purge).not.toHaveBeenCalled();

    await vi.advanceTimersByTimeAsync(REPORT_PURGE_FIRST_DELAY_MS);
    expect(purge).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(REPORT_PURGE_INTERVAL_MS - REPORT_PURGE_FIRST_DELAY_MS);
    expect(purge).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(REPORT_PURGE_INTERVAL_MS);
    expect(purge).toHaveBeenCalledTimes(3);
    expect(lines).toEqual(Array.from({ length: 3 }, () => "im data reports: 3 past retention deleted"));
  });

  it("leaves a run still going alone when the next is due", async () => {
    const { purge, pending } = manualPurge();
    scheduleReportPurge(app, purge, (l) => lines.push(l));
    await app.ready();
    await vi.advanceTimersByTimeAsync(REPORT_PURGE_INTERVAL_MS);
    expect(purge).toHaveBeenCalledTimes(1);

    pending[0]!.resolve(0);
    await vi.advanceTimersByTimeAsync(REPORT_PURGE_INTERVAL_MS);
    expect(purge).toHaveBeenCalledTimes(2);
    pending[1]!.resolve(0);
    // Nothing deleted, nothing logged.
    await vi.advanceTimersByTimeAsync(0);
    expect(lines).toEqual([]);
  });

  it("logs a failed run and tries again at the next", async () => {
    const { purge, pending } = manualPurge();
    scheduleReportPurge(app, purge, (l) => lines.push(l));
    await app.ready();
    await vi.advanceTimersByTimeAsync(REPORT_PURGE_FIRST_DELAY_MS);
    pending[0]!.reject(new Error("database gone"));
    await vi.advanceTimersByTimeAsync(0);
    expect(lines).toEqual(["im data-report purge failed: database gone"]);

    await vi.advanceTimersByTimeAsync(REPORT_PURGE_INTERVAL_MS);
    expect(purge).toHaveBeenCalledTimes(2);
    pending[1]!.resolve(5);
    await vi.advanceTimersByTimeAsync(0);
    expect(lines.at(-1)).toBe("im data reports: 5 past retention deleted");
  });

  it("stops when the server closes", async () => {
    const purge = vi.fn(() => Promise.resolve(0));
    scheduleReportPurge(app, purge, (l) => lines.push(l));
    await app.ready();
    await app.close();
    await vi.advanceTimersByTimeAsync(2 * REPORT_PURGE_INTERVAL_MS);
    expect(purge).not.toHaveBeenCalled();
  });
});
