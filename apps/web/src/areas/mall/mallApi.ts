import { MALL_APP_ID_HEADER, MALL_PRIVATE_CODE_HEADER, MALL_PROTOCOL_VERSION, MALL_SELLER_ID_HEADER, MALL_VERSION_HEADER } from "@tessera/contracts";
import { customerCall, type CallOptions } from "../client/customerApi";

/**
 * The storefront's calls: the customer's calls of the card bag (customer token, 1007 → this mall's
 * login) with the mall's headers (spec 01 §7): `v` 1, the app id, the seller id the storefront call
 * told us, the experience version when opened from the beta QR, the private code when one was entered.
 */
const sellerKey = (appId: string) => `mall-seller:${appId}`;
const codeKey = (appId: string) => `mall-code:${appId}`;
const betaKey = (appId: string) => `mall-beta:${appId}`;

export const mallStore = {
  seller: (appId: string) => window.sessionStorage.getItem(sellerKey(appId)),
  setSeller: (appId: string, id: string) => window.sessionStorage.setItem(sellerKey(appId), id),
  code: (appId: string) => window.sessionStorage.getItem(codeKey(appId)),
  setCode: (appId: string, code: string) => window.sessionStorage.setItem(codeKey(appId), code),
  beta: (appId: string) => window.sessionStorage.getItem(betaKey(appId)) === "1",
  setBeta: (appId: string) => window.sessionStorage.setItem(betaKey(appId), "1"),
};

export async function mallCall<T>(appId: string, method: "GET" | "POST" | "PUT", path: string, options: CallOptions = {}) {
  // The seller id comes from the storefront call: a page's first call learns it first.
  if (path !== "/storefront" && !mallStore.seller(appId)) {
    const sf = await mallCall<{ sellerId: string }>(appId, "GET", "/storefront", { toast: false });
    if (sf.ok) mallStore.setSeller(appId, sf.data.sellerId);
  }
  const headers: Record<string, string> = { [MALL_VERSION_HEADER]: MALL_PROTOCOL_VERSION, [MALL_APP_ID_HEADER]: appId };
  const seller = mallStore.seller(appId);
  if (seller) headers[MALL_SELLER_ID_HEADER] = seller;
  const code = mallStore.code(appId);
  if (code) headers[MALL_PRIVATE_CODE_HEADER] = code;
  if (mallStore.beta(appId)) headers["x-mall-version"] = "beta";
  return customerCall<T>(method, `/api/mall/shop${path}`, { ...options, headers: { ...headers, ...options.headers }, loginPath: `/mall/${encodeURIComponent(appId)}/login` });
}

export interface CartLine {
  kind: "goods" | "bag";
  id: string;
  name: string;
  unit: number;
  currency: "CNY" | "USD" | "HKD";
  quantity: number;
  delivery: "code" | "topup" | "mixed";
}
const cartKey = (appId: string) => `mall-cart:${appId}`;
export const cart = {
  read(appId: string): CartLine[] {
    try {
      const raw = JSON.parse(window.localStorage.getItem(cartKey(appId)) ?? "[]") as unknown;
      return Array.isArray(raw) ? (raw as CartLine[]) : [];
    } catch {
      return [];
    }
  },
  write(appId: string, lines: CartLine[]) {
    window.localStorage.setItem(cartKey(appId), JSON.stringify(lines.filter((l) => l.quantity > 0)));
  },
  add(appId: string, line: Omit<CartLine, "quantity">, quantity = 1) {
    const lines = cart.read(appId);
    const hit = lines.find((l) => l.kind === line.kind && l.id === line.id);
    if (hit) hit.quantity = Math.min(10, hit.quantity + quantity);
    else lines.push({ ...line, quantity });
    cart.write(appId, lines);
  },
};
