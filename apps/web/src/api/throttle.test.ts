import { describe, expect, it } from "vitest";
import { createThrottle, LOGIN_EXPIRED_TOAST_WINDOW_MS } from "./throttle";

describe("login-expired toast throttle", () => {
  it("allows once per 5 s", () => {
    let now = 1_000_000;
    const may = createThrottle(LOGIN_EXPIRED_TOAST_WINDOW_MS, () => now);
    expect(may()).toBe(true);
    expect(may()).toBe(false);
    now += 4_999;
    expect(may()).toBe(false);
    now += 1;
    expect(may()).toBe(true);
    expect(may()).toBe(false);
  });
});
