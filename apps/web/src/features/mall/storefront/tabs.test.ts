import { describe, expect, it } from "vitest";
import { mallTabs } from "./tabs";

const fallback = { home: "Home", cart: "Cart", orders: "Orders" };

describe("the storefront's bottom menu", () => {
  it("follows the configured bottomMenus: home, cart, orders, lists, links; unknown targets open home", () => {
    const tabs = mallTabs(
      "/mall/wx1",
      [
        { title: "Mall", target: "/" },
        { title: "Packs", target: "bags" },
        { title: "Mine", target: "/orders" },
        { title: "Brand", target: "https://brand.example/about" },
        { title: "Odd", target: "/nowhere" },
        { title: "Sixth", target: "cart" },
      ],
      fallback,
    );
    expect(tabs.map((x) => [x.title, x.icon, x.to, x.external])).toEqual([
      ["Mall", "home", "/mall/wx1", false],
      ["Packs", "goods", "/mall/wx1?kind=bag", false],
      ["Mine", "orders", "/mall/wx1/orders", false],
      ["Brand", "link", "https://brand.example/about", true],
      ["Odd", "home", "/mall/wx1", false],
    ]);
  });

  it("a config without a bottom menu gets home, cart and orders", () => {
    expect(mallTabs("/mall/wx1", [], fallback).map((x) => x.to)).toEqual([
      "/mall/wx1",
      "/mall/wx1/cart",
      "/mall/wx1/orders",
    ]);
  });
});
