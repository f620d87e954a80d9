import type { Page, QueueItem, QueueItemsQuery } from "@tessera/contracts";
import type { Db, Tx } from "../db/tx";
import type { Actor } from "./auth/actor";

/** What a decision changed, for the audit log: the record before and after, and whose it is. */
export interface ReviewOutcome {
  subjectType: string;
  subjectId: string;
  before: unknown;
  after: unknown;
}

/**
 * A review queue of the operator console. The module that owns the reviewed thing implements it and
 * registers it with the ops module (real-name and API permission from onboarding; bank cards from the
 * ledger later). Decisions run inside the transaction ops opens, which also writes the audit row, so
 * a decision and its audit record exist together or not at all.
 */
export interface ReviewQueue {
  readonly kind: string;
  countPending(db: Db): Promise<number>;
  list(db: Db, q: QueueItemsQuery): Promise<Page<QueueItem>>;
  /** Throws "review.notPending" when the item was already decided, notFound when it does not exist. */
  approve(tx: Tx, id: number, operator: Actor, now: Date): Promise<ReviewOutcome>;
  reject(tx: Tx, id: number, operator: Actor, reason: string, now: Date): Promise<ReviewOutcome>;
}
