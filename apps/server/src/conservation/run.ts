import fc from "fast-check";
import type { TestApp } from "../../test/harness";
import {
  baseline,
  checkTimes,
  FAMILIES,
  invariantViolations,
  offsetProblems,
  wholeDatabaseViolations,
  type Family,
} from "./invariants";
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

/**
 * The families of invariants about an operation's own objects (its cards, its withdrawals, its physical
 * goods), checked after each step that changed something, besides the step checks (invariants.ts). The
 * families over the shared pools (the escrow, the codes, the sandbox) read every order of the database, so
 * they, and every other family, are checked every FULL_EVERY steps, after the daily jobs and at the end.
 */
export const TOUCHES: Record<Op["op"], readonly Family[]> = {
  purchase: [],
  purchaseRefund: [],
  mallBuy: [],
  mallRefund: [],
  takeoutOrder: [],
  takeoutAct: [],
  collect: [],
  collectRefund: [],
  redeem: [],
  settle: ["stores"],
  withdraw: ["payout"],
  review: ["payout"],
  payout: ["payout"],
  cardBuy: ["cards"],
  cardActivate: ["cards"],
  cardReturn: ["cards"],
  cardGift: ["cards"],
  cardRedeem: ["cards", "stores"],
  goodsOrder: ["commerce"],
  goodsAct: ["commerce"],
  goodsAftersale: ["commerce"],
  daily: FAMILIES,
};

/**
 * Every family is checked after this many steps (and after the daily jobs, and at the end of a run). A full
 * check (eight statements, most reading every order of the database) costs about 25 ms on PGlite on the
 * 2-core CI machine, more than a step's operation (about 16 ms): after every step it would more than double
 * a run; every 20 steps it adds a little over 1 ms a step.
 */
export const FULL_EVERY = Number(process.env.CONSERVATION_FULL_EVERY ?? 20);

/** Where the runs' time went (CONSERVATION_TIMING=1 prints it after each run). */
const timing = { runs: 0, steps: 0, world: 0, perform: 0, check: 0 };

/**
 * Runs a sequence of operations in a new world, checking after each step what it could have moved (the
 * step checks, TOUCHES) and every invariant every FULL_EVERY steps and at the end.
 */
export async function runSequence(
  t: TestApp,
  ops: readonly Op[],
  tally: Tally,
  options: { freshDatabase: boolean },
): Promise<void> {
  let started = performance.now();
  const w: World = await buildWorld(t);
  const db = t.ctx.database.db;
  const b = await baseline(db);
  if (options.freshDatabase) expectNone(offsetProblems(b), "before the first step");
  expectNone(await wholeDatabaseViolations(db), "after the world was built");
  expectNone(await invariantViolations(w, b), "before the first step");
  timing.world += performance.now() - started;
  for (const [i, op] of ops.entries()) {
    // What failed needs only the steps up to it: they are printed as the sequence to replay.
    const failing = () => `\nsequence to replay: ${JSON.stringify(ops.slice(0, i + 1))}`;
    let summary: string;
    started = performance.now();
    try {
      summary = await perform(w, op);
    } catch (err) {
      if (err instanceof StepFailure) {
        throw new Error(`step ${i + 1} ${JSON.stringify(op)}: ${err.message}${failing()}`, { cause: err });
      }
      throw err;
    }
    tally.set(summary, (tally.get(summary) ?? 0) + 1);
    const checkedAt = performance.now();
    timing.perform += checkedAt - started;
    const full = (i + 1) % FULL_EVERY === 0 || i === ops.length - 1;
    const changed = !summary.includes(":refused") && !summary.endsWith(":nothing");
    expectNone(
      await invariantViolations(w, b, full ? FAMILIES : changed ? TOUCHES[op.op] : []),
      `after step ${i + 1} ${JSON.stringify(op)}`,
      failing,
    );
    timing.check += performance.now() - checkedAt;
  }
  started = performance.now();
  expectNone(
    await wholeDatabaseViolations(db),
    "at the end of the run",
    () => `\nsequence to replay: ${JSON.stringify(ops)}`,
  );
  timing.check += performance.now() - started;
  timing.runs += 1;
  timing.steps += ops.length;
  // CONSERVATION_TIMING=1: where the runs' time goes (the budget of the tier is set by measuring this).
  if (process.env.CONSERVATION_TIMING === "1") {
    const ms = (v: number) => Math.round(v);
    console.log(
      `conservation: ${timing.runs} runs, ${timing.steps} steps; world ${ms(timing.world)} ms, operations ` +
        `${ms(timing.perform)} ms (fingerprints ${ms(checkTimes.get("fingerprint") ?? 0)}), checks ` +
        `${ms(timing.check)} ms: ${JSON.stringify(Object.fromEntries([...checkTimes].map(([k, v]) => [k, ms(v)])))}`,
    );
  }
}

function expectNone(problems: string[], when: string, failing: () => string = () => ""): void {
  if (problems.length > 0) throw new Error(`invariants broken ${when}:\n  ${problems.join("\n  ")}${failing()}`);
}

/** A sequence of exactly `steps` operations (a shrunk counterexample is shorter). */
export const sequenceArb = (steps: number) => fc.array(opArb, { minLength: steps, maxLength: steps });
