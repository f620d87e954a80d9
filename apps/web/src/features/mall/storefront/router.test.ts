import { describe, expect, it } from "vitest";
import { matchMallPath } from "./router";

describe("the storefront's paths", () => {
  it("reads the six pages under /mall/:appId and nothing else", () => {
    expect(matchMallPath("/mall/wx1")).toEqual({ appId: "wx1", route: { page: "home" } });
    expect(matchMallPath("/mall/wx1/")).toEqual({ appId: "wx1", route: { page: "home" } });
    expect(matchMallPath("/mall/wx1/login").route).toEqual({ page: "login" });
    expect(matchMallPath("/mall/wx1/item/bag/42").route).toEqual({ page: "item", kind: "bag", id: "42" });
    expect(matchMallPath("/mall/wx1/cart").route).toEqual({ page: "cart" });
    expect(matchMallPath("/mall/wx1/orders").route).toEqual({ page: "orders" });
    expect(matchMallPath("/mall/wx1/orders/7").route).toEqual({ page: "order", id: "7" });
    expect(matchMallPath("/mall/wx1/orders/7/x").route).toEqual({ page: "notFound" });
    expect(matchMallPath("/mall/wx1/nowhere").route).toEqual({ page: "notFound" });
  });

  it("decodes the app id", () => {
    expect(matchMallPath("/mall/tt%20a/cart")).toEqual({ appId: "tt a", route: { page: "cart" } });
  });
});
