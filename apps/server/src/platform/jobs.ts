import type { FastifyInstance } from "fastify";
import { jobDuration, jobRuns, jobSucceeded } from "./metrics";

/** A recurring piece of work of a module: expiry, payouts, purges, callback delivery. */
export interface Job {
  /** Short name for the log (and later metrics): "card-expiry", "t1-payout". */
  name: string;
  /** Milliseconds between looks. */
  everyMs: number;
  /** Milliseconds after the app is ready before the first look; default `everyMs`. 0 looks at once. */
  firstAfterMs?: number;
  /**
   * One look. Resolves to a line worth logging (what it did) or nothing. A look that throws is logged
   * and the job simply looks again at its next tick, so a run must be safe to repeat (idempotent), and
   * safe to run on several processes at once.
   */
  run: () => Promise<string | void>;
}

/** How a job reports; by default the app's logger. */
export interface JobLog {
  info: (line: string) => void;
  error: (err: unknown, line: string) => void;
}

/**
 * Runs `job` from the moment the app is ready until it closes. Looks never overlap: a tick that finds
 * the previous run still going is skipped. Closing the app stops the timers and waits for a run in
 * progress, so a job never meets a closed database.
 */
export function scheduleJob(app: FastifyInstance, job: Job, log: JobLog = appLog(app)): void {
  let first: NodeJS.Timeout | undefined;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | null = null;
  const look = (): void => {
    if (running) return;
    const startedAt = Date.now();
    running = job
      .run()
      .then(
        (line) => {
          jobRuns.inc({ job: job.name, outcome: "ok" });
          jobSucceeded(job.name, Date.now());
          if (line) log.info(`${job.name}: ${line}`);
        },
        (err: unknown) => {
          jobRuns.inc({ job: job.name, outcome: "failed" });
          log.error(err, `${job.name} failed; it runs again at its next tick`);
        },
      )
      .finally(() => jobDuration.observe({ job: job.name }, (Date.now() - startedAt) / 1000))
      .finally(() => {
        running = null;
      });
  };
  app.addHook("onReady", () => {
    const firstAfter = job.firstAfterMs ?? job.everyMs;
    if (firstAfter === 0) look();
    else {
      first = setTimeout(look, firstAfter);
      first.unref();
    }
    timer = setInterval(look, job.everyMs);
    timer.unref();
    return Promise.resolve();
  });
  app.addHook("onClose", async () => {
    clearTimeout(first);
    clearInterval(timer);
    await running;
  });
}

function appLog(app: FastifyInstance): JobLog {
  return { info: (line) => app.log.info(line), error: (err, line) => app.log.error({ err }, line) };
}

/**
 * A run that does its work once per period key (a platform day, say): `run` is called on each look
 * until it succeeds for the current key, then not again until the key changes.
 */
export function oncePer(keyOf: () => string | null, run: () => Promise<string | void>): () => Promise<string | void> {
  let doneFor: string | null = null;
  return async () => {
    const key = keyOf();
    if (key === null || key === doneFor) return;
    const line = await run();
    doneFor = key;
    return line;
  };
}
