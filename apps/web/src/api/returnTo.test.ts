import { beforeEach, describe, expect, it } from "vitest";
import { rememberReturnTo, takeReturnTo } from "./returnTo";

class MemoryStorage {
  private items = new Map<string, string>();
  getItem(k: string) {
    return this.items.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    this.items.set(k, v);
  }
  removeItem(k: string) {
    this.items.delete(k);
  }
}

/** Issue 25 item 7: after a 401 and a new login the user is back on the page they were on. */
describe("return to the page after login", () => {
  beforeEach(() => {
    Object.defineProperty(globalThis, "window", { value: { sessionStorage: new MemoryStorage() }, configurable: true });
  });

  it("leads the same login back to the page, once", () => {
    rememberReturnTo("/sale/PurchaseOrder?page=2");
    expect(takeReturnTo("domestic")).toBe("/sale/PurchaseOrder?page=2");
    expect(takeReturnTo("domestic")).toBeNull();
  });

  it("never leads another login there", () => {
    rememberReturnTo("/ops/TopUps");
    expect(takeReturnTo("domestic")).toBeNull();
    rememberReturnTo("/international/sale/Home");
    expect(takeReturnTo("domestic")).toBeNull();
    rememberReturnTo("/ops/TopUps");
    expect(takeReturnTo("ops")).toBe("/ops/TopUps");
  });

  it("does not remember login, chooser or public pages", () => {
    rememberReturnTo("/login");
    rememberReturnTo("/SelectUser");
    rememberReturnTo("/oneCardQuery");
    expect(takeReturnTo("domestic")).toBeNull();
  });
});
