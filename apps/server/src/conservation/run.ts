import fc from "fast-check";
import type { TestApp } from "../../test/harness";
import { baseline, invariantViolations, offsetProblems, wholeDatabaseViolations } from "./invariants";
import { opArb, perform, StepFailure, type Op } from "./operations";
import { buildWorld, type World } from "./world";

/**
 * The server settings of a conservation run: merchants' sessions outlive the days the run passes
 * (operators and merchants would log in again; the run is about money, not sessions), a merchant may
 * withdraw as often as the run asks (the daily limit is its own test), and the T+1 payout runs only when
 * an operation asks for it, never from the background timer between two steps.
 */
export const CONSERVATION_ENV = {
  TOKEN_TTL_SECONDS: String(10 * 365 * 86_400),
  WITHDRAWALS_PER_DAY: "100000",
  AUTO_PAYOUT: "false",
};

/** How the calls of the runs ended, per operation and outcome ("redeem:done": 812). */
export type Tally = Map<string, number>;

/** Runs a sequence of operations in a new world, checking every invariant after each step. */
export async function runSequence(
  t: TestApp,
  ops: readonly Op[],
  tally: Tally,
  options: { freshDatabase: boolean },
): Promise<void> {
  const w: World = await buildWorld(t);
  const db = t.ctx.database.db;
  const b = await baseline(db);
  if (options.freshDatabase) expectNone(offsetProblems(b), "before the first step");
  expectNone(await wholeDatabaseViolations(db), "after the world was built");
  expectNone(await invariantViolations(w, b), "after the world was built");
  const started = Date.now();
  let checking = 0;
  for (const [i, op] of ops.entries()) {
    // What failed needs only the steps up to it: they are printed as the sequence to replay.
    const failing = () => `\nsequence to replay: ${JSON.stringify(ops.slice(0, i + 1))}`;
    let summary: string;
    try {
      summary = await perform(w, op);
    } catch (err) {
      if (err instanceof StepFailure) {
        throw new Error(`step ${i + 1} ${JSON.stringify(op)}: ${err.message}${failing()}`, { cause: err });
      }
      throw err;
    }
    tally.set(summary, (tally.get(summary) ?? 0) + 1);
    const checkedAt = Date.now();
    expectNone(await invariantViolations(w, b), `after step ${i + 1} ${JSON.stringify(op)}`, failing);
    checking += Date.now() - checkedAt;
  }
  expectNone(
    await wholeDatabaseViolations(db),
    "at the end of the run",
    () => `\nsequence to replay: ${JSON.stringify(ops)}`,
  );
  // CONSERVATION_TIMING=1: where a run's time goes (the budget of the tier is set by measuring this).
  if (process.env.CONSERVATION_TIMING === "1") {
    console.log(
      `conservation run: ${ops.length} steps in ${Date.now() - started} ms, ${checking} ms of it checking invariants`,
    );
  }
}

function expectNone(problems: string[], when: string, failing: () => string = () => ""): void {
  if (problems.length > 0) throw new Error(`invariants broken ${when}:\n  ${problems.join("\n  ")}${failing()}`);
}

/** A sequence of exactly `steps` operations (a shrunk counterexample is shorter). */
export const sequenceArb = (steps: number) => fc.array(opArb, { minLength: steps, maxLength: steps });
