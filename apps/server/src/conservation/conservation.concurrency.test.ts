import fc from "fast-check";
import { expect, it } from "vitest";
import { useTestApp } from "../../test/kit/use-test-app";
import { baseline, invariantViolations } from "./invariants";
import { opArb, perform, StepFailure } from "./operations";
import { CONSERVATION_ENV, type Tally } from "./run";
import { buildWorld } from "./world";

/**
 * The conservation tier on the PostgreSQL server only (issue 37, point 8): the same random money
 * operations, fired in batches side by side (purchases racing refunds, redemptions racing mall refunds,
 * payouts racing withdrawals and their reviews), with every invariant checked after each batch. Inside a
 * batch a refusal cannot be told apart from another operation's change, so there only the statuses are
 * judged (never a 5xx, a refusal is a 4xx); the books must be sound when the batch has settled.
 */
const RUNS = Number(process.env.CONSERVATION_CONCURRENT_RUNS ?? 1);
const BATCHES = Number(process.env.CONSERVATION_BATCHES ?? 25);
const BATCH = 10;

const t = useTestApp(CONSERVATION_ENV);

it(
  `${RUNS} random runs of ${BATCHES} batches of ${BATCH} concurrent money operations keep the books sound after every batch`,
  { timeout: 15 * 60_000 },
  async () => {
    const tally: Tally = new Map();
    let failedAt: number | undefined;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(opArb, { minLength: BATCH, maxLength: BATCH }), { minLength: BATCHES, maxLength: BATCHES }),
        async (batches) => {
          // Shrinking stops trying after a few minutes (a skipped replay counts as passing).
          if (failedAt !== undefined && Date.now() - failedAt > 3 * 60_000) return;
          const w = await buildWorld(t);
          w.concurrent = true;
          const b = await baseline(t.ctx.database.db);
          const fail = (message: string) => {
            failedAt ??= Date.now();
            return new Error(message);
          };
          for (const [i, batch] of batches.entries()) {
            const results = await Promise.allSettled(batch.map((op) => perform(w, op)));
            const failed = results.flatMap((r, j) =>
              r.status === "rejected"
                ? [
                    `${JSON.stringify(batch[j])}: ${r.reason instanceof StepFailure || r.reason instanceof Error ? r.reason.message : String(r.reason)}`,
                  ]
                : [],
            );
            if (failed.length > 0) {
              throw fail(
                `batch ${i + 1}:\n  ${failed.join("\n  ")}\nbatches to replay: ${JSON.stringify(batches.slice(0, i + 1))}`,
              );
            }
            for (const r of results) if (r.status === "fulfilled") tally.set(r.value, (tally.get(r.value) ?? 0) + 1);
            const problems = await invariantViolations(w, b);
            if (problems.length > 0) {
              throw fail(
                `invariants broken after batch ${i + 1}:\n  ${problems.join("\n  ")}\nbatches to replay: ${JSON.stringify(batches.slice(0, i + 1))}`,
              );
            }
          }
        },
      ),
      { numRuns: RUNS },
    );
    const done = [...tally].filter(([k]) => k.endsWith(":done") || k.includes(":done.")).reduce((a, [, v]) => a + v, 0);
    expect(done, JSON.stringify([...tally])).toBeGreaterThan(RUNS * BATCHES);
  },
);
