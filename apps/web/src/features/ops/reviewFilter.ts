import { REVIEW_STATES, type ReviewState } from "@tessera/contracts";

/** The review queue's "all states" choice (the filter opens on "pending"; issue 25 item 7). */
export const ALL_STATES = "all";

/** The state filter of a queue query from the search bar's choice: none chosen is "pending", "all" is none. */
export function reviewStateFilter(chosen: string | string[] | undefined): { state?: ReviewState } {
  const value = Array.isArray(chosen) ? chosen[0] : chosen;
  if (value === ALL_STATES) return {};
  const state = REVIEW_STATES.find((s) => s === value);
  return { state: state ?? "pending" };
}
