import type { ImMessagePayload } from "@tessera/contracts";
import { isUniqueViolation } from "../../db/tx";
import { imMessagesSent } from "../../platform/metrics";
import { inScope, type ImDeps } from "../service/core";
import type { AppendOutcome, ImHistory, SendInput, SentMessage } from "../service/history";
import { convKey } from "../store/messages";

/**
 * Group commit for sends: the messages that arrive while a transaction runs are stored together in the
 * next one, so a busy gateway pays one commit (and one pool connection) for many messages. Each send is
 * still acknowledged only after the transaction holding it committed.
 *
 * Batches run in `parallel` lanes; a conversation always goes to the same lane and a lane runs one
 * batch at a time, so one conversation's messages are stored in the order they arrived (a device may
 * pipeline its sends), and concurrent transactions never touch the same conversation (no deadlocks).
 * A batch is written with a few statements in all (ImHistory.appendMany), not a few per message. A
 * refused message (not a member, blocked ...) is refused before anything is written, so it does not
 * disturb the others in its batch. A database error aborts the batch; its messages are then stored one
 * by one so that only the culprit fails. Batches do not look their client ids up: a resend (a client id
 * already stored) makes the client-id index refuse the batch, which is then stored again with the look-up,
 * and the resend is answered with the first message.
 */
interface Job {
  input: SendInput;
  payload: ImMessagePayload;
  key: string;
  resolve(v: SentMessage): void;
  reject(e: unknown): void;
}

export class AppendBatcher {
  private readonly lanes: Job[][];
  private readonly busy: boolean[];

  constructor(
    private readonly deps: ImDeps,
    private readonly history: ImHistory,
    private readonly maxBatch = 128,
    private readonly parallel = 4,
  ) {
    this.lanes = Array.from({ length: parallel }, () => []);
    this.busy = Array.from({ length: parallel }, () => false);
  }

  append(input: SendInput, payload: ImMessagePayload): Promise<SentMessage> {
    return new Promise((resolve, reject) => {
      const key = convKey(input.chatType, input.from, input.to);
      const lane = laneOf(key, this.parallel);
      this.lanes[lane]?.push({ input, payload, key, resolve, reject });
      this.next(lane);
    });
  }

  private next(lane: number): void {
    const queue = this.lanes[lane];
    if (!queue || this.busy[lane] || queue.length === 0) return;
    const jobs = queue.splice(0, this.maxBatch);
    this.busy[lane] = true;
    void this.flush(jobs).finally(() => {
      this.busy[lane] = false;
      this.next(lane);
    });
  }

  private async flush(jobs: Job[]): Promise<void> {
    let outcomes: AppendOutcome[] = [];
    try {
      // A resend in the batch fails it with a unique violation (nothing written); the batch is then
      // stored again looking its client ids up, so a client that resends costs its lane one more
      // statement, not a batch stored one by one.
      outcomes = await this.store(jobs, "fail").catch((err: unknown) => {
        if (!isUniqueViolation(err)) throw err;
        return this.store(jobs, "find");
      });
    } catch (err) {
      if (jobs.length === 1 && !isUniqueViolation(err)) {
        jobs[0]?.reject(err);
        return;
      }
      for (const j of jobs) await this.single(j);
      return;
    }
    let stored = 0;
    jobs.forEach((j, i) => {
      const o = outcomes[i];
      if (o?.ok) {
        stored++;
        j.resolve(o.v);
      } else j.reject(o?.e ?? new Error("no outcome"));
    });
    imMessagesSent.inc(stored);
  }

  /**
   * One-to-one sends need no transaction: their checks only read and their write is one statement
   * (atomic and durable on its own), so a batch is two round trips instead of five. Anything else (group
   * checks, thread counters) runs in a transaction.
   */
  private store(jobs: Job[], resends: "find" | "fail"): Promise<AppendOutcome[]> {
    return jobs.every((j) => j.input.chatType === "chat")
      ? this.history.appendMany({ tx: this.deps.db, now: this.deps.clock.now() }, jobs, resends)
      : inScope(this.deps, (s) => this.history.appendMany(s, jobs, resends));
  }

  private async single(j: Job): Promise<void> {
    const run = () => inScope(this.deps, (s) => this.history.append(s, j.input, j.payload));
    try {
      j.resolve(await run());
      imMessagesSent.inc();
    } catch (err) {
      // Two copies of one resend raced; the loser finds the winner's message.
      if (!isUniqueViolation(err)) return j.reject(err);
      await run().then(
        (v) => j.resolve(v),
        (e: unknown) => j.reject(e),
      );
    }
  }
}

/** FNV-1a of the conversation key: which lane stores it. */
function laneOf(key: string, lanes: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return (h >>> 0) % lanes;
}
