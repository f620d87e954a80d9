/**
 * A takeout order being put together, kept per shop in the browser (issue 40, item 2): the cart, the delivery
 * form and the location survive the login a first order needs and a reload, and go once the order is placed.
 */
export interface DraftLine {
  kind: "item" | "package";
  id: string;
  name: string;
  unit: number;
  quantity: number;
  options: string[][];
}
export interface TakeoutDraft {
  cart: DraftLine[];
  form: { contactName?: string; contactPhone?: string; address?: string; tableware?: number; remark?: string };
  where: { lat: number; lng: number } | null;
}

const keyOf = (merchantId: string) => `takeout-draft:${merchantId}`;
const EMPTY: TakeoutDraft = { cart: [], form: {}, where: null };

export const takeoutDraft = {
  read(merchantId: string): TakeoutDraft {
    try {
      const raw = JSON.parse(window.localStorage.getItem(keyOf(merchantId)) ?? "null") as Partial<TakeoutDraft> | null;
      if (!raw || typeof raw !== "object") return EMPTY;
      return {
        cart: Array.isArray(raw.cart) ? raw.cart : [],
        form: raw.form && typeof raw.form === "object" ? raw.form : {},
        where: raw.where && typeof raw.where.lat === "number" && typeof raw.where.lng === "number" ? raw.where : null,
      };
    } catch {
      return EMPTY;
    }
  },
  write(merchantId: string, draft: TakeoutDraft): void {
    window.localStorage.setItem(keyOf(merchantId), JSON.stringify(draft));
  },
  clear(merchantId: string): void {
    window.localStorage.removeItem(keyOf(merchantId));
  },
};
