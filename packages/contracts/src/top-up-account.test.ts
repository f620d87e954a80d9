import { describe, expect, it } from "vitest";
import { MESSAGES } from "./messages";
import { topUpAccountProblem } from "./top-up-account";

describe("topUpAccountProblem (issue 40, item 4)", () => {
  it("checks each account type's rule and names what it expects", () => {
    expect(topUpAccountProblem("mobile", "1381234")).toBe("topUpAccount.invalid.mobile");
    for (const bad of ["23812345678", "12812345678", "138123456789", "138 1234 567"]) {
      expect(topUpAccountProblem("mobile", bad)).toBe("topUpAccount.invalid.mobile");
    }
    expect(topUpAccountProblem("mobile", " 13812345678 ")).toBeNull();
    expect(topUpAccountProblem("qq", "10001")).toBeNull();
    expect(topUpAccountProblem("qq", "12345678901")).toBeNull();
    for (const bad of ["1234", "012345", "123456789012", "12a45"]) {
      expect(topUpAccountProblem("qq", bad)).toBe("topUpAccount.invalid.qq");
    }
    expect(topUpAccountProblem("email", "a@b.co")).toBeNull();
    expect(topUpAccountProblem("email", "a@b")).toBe("topUpAccount.invalid.email");
    expect(topUpAccountProblem("game_id", "Player_01")).toBeNull();
    expect(topUpAccountProblem("game_id", "ab")).toBe("topUpAccount.invalid.game_id");
    expect(topUpAccountProblem("member_id", "vip 1")).toBe("topUpAccount.invalid.member_id");
    expect(topUpAccountProblem("member_id", "vip-0001")).toBeNull();
    for (const free of ["none", "other", "unknown"]) expect(topUpAccountProblem(free, "anything at all")).toBeNull();
  });

  it("every message it returns exists in the three languages", () => {
    for (const type of ["mobile", "qq", "email", "game_id", "member_id"]) {
      const key = topUpAccountProblem(type, "\u0000");
      const text = key ? MESSAGES[key] : undefined;
      for (const lang of ["cn", "tw", "en"] as const) expect(text?.[lang]).toMatch(/\S/);
    }
  });
});
