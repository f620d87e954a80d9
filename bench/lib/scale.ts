/**
 * `npm run bench:smoke` (BENCH_SMOKE=1): every bench for about a second with small seeds, to prove each
 * still measures what it claims (no INVALID line) inside `npm test`; its figures mean nothing. `npm run
 * bench` keeps the full seeds.
 */
export const SMOKE = process.env.BENCH_SMOKE === "1";

/** A seed size: the full one, or the smoke's. An explicit environment override wins over both. */
export function sized(full: number, smoke: number, override?: string): number {
  if (override !== undefined && override !== "") return Number(override);
  return SMOKE ? smoke : full;
}
