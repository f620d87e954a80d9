import type { Kysely, Transaction } from "kysely";
import type { DB } from "./schema";

export type Db = Kysely<DB>;
export type Tx = Transaction<DB>;
/** Repositories take either; services decide where the transaction boundary is. */
export type Executor = Db | Tx;

const RETRYABLE = new Set(["40001", "40P01"]); // serialization_failure, deadlock_detected
const MAX_ATTEMPTS = 3;

function pgCode(err: unknown): string | undefined {
  return typeof err === "object" && err !== null && "code" in err && typeof err.code === "string"
    ? err.code
    : undefined;
}

/**
 * Runs `fn` in one database transaction and retries it when PostgreSQL reports a serialization failure
 * or a deadlock. Every mutating request runs in one such transaction and passes `tx` down: inside it,
 * never query through the root handle (on PGlite that waits forever for the transaction's own lock).
 * `fn` may therefore run more than once: keep side effects outside the database (mail, events) after it.
 */
export async function withTx<T>(
  db: Db,
  fn: (tx: Tx) => Promise<T>,
  isolation: "read committed" | "repeatable read" | "serializable" = "read committed",
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().setIsolationLevel(isolation).execute(fn);
    } catch (err) {
      if (attempt >= MAX_ATTEMPTS || !RETRYABLE.has(pgCode(err) ?? "")) throw err;
    }
  }
}

/** PostgreSQL's unique_violation, for turning a race on a unique key into a readable conflict. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  if (pgCode(err) !== "23505") return false;
  if (!constraint) return true;
  return typeof err === "object" && err !== null && "constraint" in err && err.constraint === constraint;
}
