import Fastify, { type FastifyInstance } from "fastify";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { oncePer, scheduleJob, type JobLog } from "./jobs";

/** The shared job scheduler on a bare server with fake timers. */
let app: FastifyInstance;
let lines: string[];
let log: JobLog;
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval"] });
  app = Fastify();
  lines = [];
  log = { info: (l) => lines.push(l), error: (_err, l) => lines.push(`error ${l}`) };
});
afterEach(async () => {
  await app.close();
  vi.useRealTimers();
});

describe("scheduleJob", () => {
  it("looks at once when asked, then every interval, and logs what a run did under the job's name", async () => {
    const run = vi.fn(() => Promise.resolve("2 done"));
    scheduleJob(app, { name: "sweep", everyMs: 1000, firstAfterMs: 0, run }, log);
    expect(run).not.toHaveBeenCalled();
    await app.ready();
    expect(run).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(2000);
    expect(run).toHaveBeenCalledTimes(3);
    expect(lines).toEqual(["sweep: 2 done", "sweep: 2 done", "sweep: 2 done"]);
  });

  it("never overlaps runs, logs a failure and runs again at the next tick", async () => {
    const pending: ((err?: Error) => void)[] = [];
    const run = vi.fn(
      () => new Promise<void>((resolve, reject) => pending.push((err) => (err ? reject(err) : resolve()))),
    );
    scheduleJob(app, { name: "slow", everyMs: 1000, run }, log);
    await app.ready();
    await vi.advanceTimersByTimeAsync(3000);
    expect(run).toHaveBeenCalledTimes(1);
    pending[0]!(new Error("gone"));
    await vi.advanceTimersByTimeAsync(0);
    expect(lines).toEqual(["error slow failed; it runs again at its next tick"]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(run).toHaveBeenCalledTimes(2);
    pending[1]!();
  });

  it("closing waits for a run in progress and stops the timers", async () => {
    let finish: () => void = () => undefined;
    let finished = false;
    const run = vi.fn(
      () =>
        new Promise<void>((resolve) => {
          finish = () => {
            finished = true;
            resolve();
          };
        }),
    );
    scheduleJob(app, { name: "long", everyMs: 1000, firstAfterMs: 0, run }, log);
    await app.ready();
    const closing = app.close();
    await vi.advanceTimersByTimeAsync(0);
    finish();
    await closing;
    expect(finished).toBe(true);
    await vi.advanceTimersByTimeAsync(5000);
    expect(run).toHaveBeenCalledTimes(1);
  });
});

describe("oncePer", () => {
  it("runs once per key, again after a failure, and not while the key is null", async () => {
    let key: string | null = null;
    let fail = true;
    const work = vi.fn(() => (fail ? Promise.reject(new Error("x")) : Promise.resolve("ran")));
    const run = oncePer(() => key, work);
    await run();
    expect(work).not.toHaveBeenCalled();
    key = "2026-11-26";
    await expect(run()).rejects.toThrow("x");
    fail = false;
    expect(await run()).toBe("ran");
    expect(await run()).toBeUndefined();
    key = "2026-11-27";
    expect(await run()).toBe("ran");
    expect(work).toHaveBeenCalledTimes(3);
  });
});
