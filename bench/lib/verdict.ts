/**
 * A bench that measured the wrong thing must say so and fail (issue 43): refusals or errors above 1 % of
 * requests, a seed that did not produce what is measured, a stock that ran dry, a broken ledger or stock
 * invariant. A bench returns such a finding as an `INVALID: …` line among its figures; run.ts prints every
 * line and exits non-zero when any is INVALID (a bench that throws is INVALID too).
 */
export const INVALID = "INVALID:";

/** At most this share of a run's requests may be refused or fail for its rate to mean anything. */
export const REFUSAL_LIMIT = 0.01;

export function invalid(bench: string, why: string): string {
  return `${INVALID} ${bench}: ${why}`;
}

/** INVALID when more than 1 % of the run's requests were refused or failed, or when nothing was measured. */
export function refusals(bench: string, ok: number, refused: number): string[] {
  const total = ok + refused;
  if (ok === 0) return [invalid(bench, `nothing succeeded (${refused} refused)`)];
  if (refused / total > REFUSAL_LIMIT) {
    return [invalid(bench, `${refused} of ${total} requests refused or failed (over ${REFUSAL_LIMIT * 100} %)`)];
  }
  return [];
}

/** INVALID unless `holds`: a seed, a stock or an invariant the figure depends on. */
export function requires(bench: string, holds: boolean, why: string): string[] {
  return holds ? [] : [invalid(bench, why)];
}

export function isInvalid(line: string): boolean {
  return line.startsWith(INVALID);
}
