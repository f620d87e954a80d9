import { sql } from "kysely";
import { intArray, textArray } from "../../db/arrays";
import type { Db } from "../../db/tx";
import type { Clock } from "../../platform/clock";
import { DEVICE_DAYS } from "../store/inbox";

/** A device's acknowledgement of a one-to-one conversation's messages up to `seq` (its cursor, migration 0089). */
export interface ChatCursor {
  conv: string;
  seq: number;
}

/**
 * Group commit for acknowledgements: the pulls that acknowledge entries while a batch is stored are
 * acknowledged together by the next one, a statement or two for many devices instead of one per pull (a
 * busy gateway gets an acknowledging pull after nearly every push). Each pull is answered only after the
 * batch holding its acknowledgement committed, so an acknowledged entry is never delivered again.
 *
 * One batch runs at a time: batches never race each other for the same entries (a user's devices
 * acknowledging the same entry), and what arrives meanwhile makes the next batch bigger.
 */
interface Job {
  username: string;
  resource: string;
  queue: string;
  ids: readonly number[];
  cursor: ChatCursor | null;
  resolve: () => void;
  reject: (e: unknown) => void;
}

const RETRYABLE = new Set(["40001", "40P01"]);
const MAX_ATTEMPTS = 3;

export class AckBatcher {
  private queue: Job[] = [];
  private busy = false;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly maxIds = 2000,
  ) {}

  acknowledge(
    who: { username: string; resource: string },
    queue: string,
    ids: readonly number[],
    cursor: ChatCursor | null = null,
  ): Promise<void> {
    if (ids.length === 0 && !cursor) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.queue.push({ username: who.username, resource: who.resource, queue, ids, cursor, resolve, reject });
      this.next();
    });
  }

  private next(): void {
    if (this.busy || this.queue.length === 0) return;
    let n = 0;
    let take = 0;
    const size = (j: Job | undefined) => (j?.ids.length ?? 0) + 1;
    while (take < this.queue.length && (take === 0 || n + size(this.queue[take]) <= this.maxIds)) {
      n += size(this.queue[take++]);
    }
    const jobs = this.queue.splice(0, take);
    this.busy = true;
    void this.flush(jobs).finally(() => {
      this.busy = false;
      this.next();
    });
  }

  private async flush(jobs: Job[]): Promise<void> {
    try {
      await this.run(jobs);
    } catch (err) {
      if (jobs.length === 1) return jobs[0]?.reject(err);
      // Only the culprit fails: the others are acknowledged one by one.
      for (const j of jobs) {
        await this.run([j]).then(
          () => j.resolve(),
          (e: unknown) => j.reject(e),
        );
      }
      return;
    }
    for (const j of jobs) j.resolve();
  }

  private async run(jobs: readonly Job[]): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await acknowledgeMany(this.db, jobs, this.clock.now());
      } catch (err) {
        const code = typeof err === "object" && err !== null && "code" in err ? String(err.code) : "";
        if (attempt >= MAX_ATTEMPTS || !RETRYABLE.has(code)) throw err;
      }
    }
  }
}

/**
 * Records devices' acknowledgements of entries of their queues, in one statement: entries no other
 * recent device of the user still waits for (other than the device whose own send it copies) are
 * removed; the others keep each acknowledging device's mark until the rest have read them
 * (im_acknowledge, migration 0087). An entry is named by its queue and id (the queue's key). One-to-one
 * messages move the device's cursor of their conversation instead (never backwards).
 */
export async function acknowledgeMany(
  db: Db,
  jobs: readonly {
    username: string;
    resource: string;
    queue: string;
    ids: readonly number[];
    cursor?: ChatCursor | null;
  }[],
  now: Date,
): Promise<void> {
  await Promise.all([moveCursors(db, jobs), acknowledgeEntries(db, jobs, now)]);
}

async function moveCursors(
  db: Db,
  jobs: readonly { username: string; resource: string; cursor?: ChatCursor | null }[],
): Promise<void> {
  // One row per device and conversation (ON CONFLICT may not meet the same row twice in a statement).
  const latest = new Map<string, { u: string; r: string; conv: string; seq: number }>();
  for (const j of jobs) {
    if (!j.cursor) continue;
    const k = `${j.username}\0${j.resource}\0${j.cursor.conv}`;
    const had = latest.get(k);
    if (!had || had.seq < j.cursor.seq) {
      latest.set(k, { u: j.username, r: j.resource, conv: j.cursor.conv, seq: j.cursor.seq });
    }
  }
  if (latest.size === 0) return;
  const rows = [...latest.values()];
  await sql`
    INSERT INTO im_sync_cursors (username, resource, conv_key, seq)
    SELECT * FROM unnest(${textArray(rows.map((c) => c.u))}::text[], ${textArray(rows.map((c) => c.r))}::text[], ${textArray(rows.map((c) => c.conv))}::text[], ${intArray(rows.map((c) => c.seq))}::bigint[])
    ON CONFLICT (username, resource, conv_key) DO UPDATE SET seq = GREATEST(im_sync_cursors.seq, EXCLUDED.seq)`.execute(
    db,
  );
}

async function acknowledgeEntries(
  db: Db,
  jobs: readonly { username: string; resource: string; queue: string; ids: readonly number[] }[],
  now: Date,
): Promise<void> {
  const users: string[] = [];
  const resources: string[] = [];
  const queues: string[] = [];
  const ids: number[] = [];
  for (const j of jobs) {
    for (const id of j.ids) {
      users.push(j.username);
      resources.push(j.resource);
      queues.push(j.queue);
      ids.push(id);
    }
  }
  if (ids.length === 0) return;
  const since = new Date(now.getTime() - DEVICE_DAYS * 86_400_000);
  await sql`SELECT im_acknowledge(${textArray(users)}::text[], ${textArray(resources)}::text[], ${textArray(queues)}::text[], ${intArray(ids)}::bigint[], ${since}::timestamptz)`.execute(
    db,
  );
}
