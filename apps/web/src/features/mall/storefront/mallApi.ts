import { useSyncExternalStore } from "react";
import { currentLang, mallI18n } from "./i18n";
import {
  CODE,
  MALL_APP_ID_HEADER,
  MALL_PRIVATE_CODE_HEADER,
  MALL_PROTOCOL_VERSION,
  MALL_SELLER_ID_HEADER,
  MALL_VERSION_HEADER,
} from "@tessera/contracts/light";
import type { TopUpAccountType } from "@tessera/contracts";
import { toast } from "../../../ui/lightToast";
import { createCustomerCall, type CallOptions, type CallResult } from "../../../api/customerCall";

export { customerSession, newRequestKey, type CallResult } from "../../../api/customerCall";

/**
 * The storefront's calls (spec 01 §7): the card bag's customer calls (api/customerCall.ts, light: the
 * storefront passes its own texts and toast) with the mall's headers: `v` 1, the app id, the seller id the
 * storefront call told us, the experience version when opened from the beta QR, the private code when one was entered.
 * Code 1007 (§8) clears the token and goes to this mall's login, with 'login state expired' at most once
 * per 5 s. Resolves to the data, or to the refusal after showing the server's message (never throws).
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

export const loginPathOf = (appId: string) => `/mall/${encodeURIComponent(appId)}/login`;

/** One call with the customer token, without the mall's headers (the login itself); 1007 → the login given. */
export const customerCall = createCustomerCall({
  lang: currentLang,
  toast: (msg) => toast(msg, "error"),
  interfaceError: () => mallI18n.t("msg.interface"),
  loginExpired: () => mallI18n.t("msg.loginExpired"),
  expiredCode: CODE.MALL_LOGIN_EXPIRED,
});

export async function mallCall<T>(
  appId: string,
  method: "GET" | "POST" | "PUT",
  path: string,
  options: CallOptions = {},
): Promise<CallResult<T>> {
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
  return customerCall<T>(method, `/api/mall/shop${path}`, { ...options, headers, loginPath: loginPathOf(appId) });
}

export interface CartLine {
  kind: "goods" | "bag";
  id: string;
  name: string;
  unit: number;
  currency: "CNY" | "USD" | "HKD";
  quantity: number;
  delivery: "code" | "topup" | "mixed";
  /** A top-up's account type (the checkout's rule); absent in carts kept before it was added: any account. */
  topUpAccountType?: TopUpAccountType;
}
const cartKey = (appId: string) => `mall-cart:${appId}`;
const CART_CHANGED = "mall-cart-changed";

/** The cart's item count, kept current as this tab or another changes the cart. */
export function useCartCount(appId: string): number {
  return useSyncExternalStore(
    (onChange) => {
      window.addEventListener(CART_CHANGED, onChange);
      window.addEventListener("storage", onChange);
      return () => {
        window.removeEventListener(CART_CHANGED, onChange);
        window.removeEventListener("storage", onChange);
      };
    },
    () => cart.count(appId),
  );
}
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
    // The header's cart count follows; the storage event only reaches other tabs.
    window.dispatchEvent(new Event(CART_CHANGED));
  },
  /** How many items the cart holds (quantities added up): the header's badge. */
  count(appId: string): number {
    return cart.read(appId).reduce((n, l) => n + l.quantity, 0);
  },
  add(appId: string, line: Omit<CartLine, "quantity">, quantity = 1) {
    const lines = cart.read(appId);
    const hit = lines.find((l) => l.kind === line.kind && l.id === line.id);
    if (hit) hit.quantity = Math.min(10, hit.quantity + quantity);
    else lines.push({ ...line, quantity });
    cart.write(appId, lines);
  },
};
