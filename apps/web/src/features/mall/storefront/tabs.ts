/** The storefront's bottom menu (issue 30): pure, so it is tested without a browser. */

export interface MallTab {
  key: string;
  icon: "home" | "cart" | "orders" | "goods" | "link";
  title: string;
  to: string;
  external: boolean;
}

/**
 * The bottom menu from the mall config's `bottomMenus` (title, target): targets home ("", "/", "home"),
 * cart, orders, the goods or gift-pack lists ("goods", "bags"), or an http(s) link; anything else opens
 * the home page. A config without a bottom menu gets home, cart and orders.
 */
export function mallTabs(
  base: string,
  menus: readonly { title: string; target: string }[],
  fallback: { home: string; cart: string; orders: string },
): MallTab[] {
  if (menus.length === 0) {
    return [
      { key: "home", icon: "home", title: fallback.home, to: base, external: false },
      { key: "cart", icon: "cart", title: fallback.cart, to: `${base}/cart`, external: false },
      { key: "orders", icon: "orders", title: fallback.orders, to: `${base}/orders`, external: false },
    ];
  }
  return menus.slice(0, 5).map((m, i) => {
    const target = m.target.trim();
    if (/^https?:\/\//i.test(target)) return { key: `${i}`, icon: "link", title: m.title, to: target, external: true };
    const name = target.replace(/^\/+|\/+$/g, "").toLowerCase();
    if (name === "cart" || name === "orders") {
      return { key: `${i}`, icon: name, title: m.title, to: `${base}/${name}`, external: false };
    }
    if (name === "goods" || name === "bags") {
      return {
        key: `${i}`,
        icon: "goods",
        title: m.title,
        to: `${base}?kind=${name === "bags" ? "bag" : "goods"}`,
        external: false,
      };
    }
    return { key: `${i}`, icon: "home", title: m.title, to: base, external: false };
  });
}
