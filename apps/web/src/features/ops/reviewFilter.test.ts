import { describe, expect, it } from "vitest";
import { ALL_STATES, reviewStateFilter } from "./reviewFilter";

/** Issue 25 item 7: a review queue shows approved items when asked, instead of only pending ones. */
describe("review queue state filter", () => {
  it("opens on pending, shows every state for 'all', and one state when chosen", () => {
    expect(reviewStateFilter(undefined)).toEqual({ state: "pending" });
    expect(reviewStateFilter(ALL_STATES)).toEqual({});
    expect(reviewStateFilter("approved")).toEqual({ state: "approved" });
    expect(reviewStateFilter(["rejected"])).toEqual({ state: "rejected" });
  });
});
