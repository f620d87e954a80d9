import type { MerchantRole } from "@tessera/contracts";
import type { AreaDef, PageDef } from "../../ui/areas";

/**
 * Page keys as the server's guard knows them: "<role>/<Page>" (the international areas share their
 * role's keys). Home is always open: it is where a login lands.
 */
const ROLE_OF_AREA: Partial<Record<AreaDef["id"], MerchantRole>> = {
  sale: "sale",
  business: "business",
  providers: "providers",
  intlSale: "sale",
  intlBusiness: "business",
};

export function menuKeyOf(area: AreaDef, page: PageDef): string | null {
  const role = ROLE_OF_AREA[area.id];
  return role ? `${role}/${page.path}` : null;
}

/** Whether a side-menu entry is shown to a user with these menus (null: a main account, all of them). */
export function pageAllowed(menus: readonly string[] | null | undefined, area: AreaDef, page: PageDef): boolean {
  if (!menus || page.path === "Home") return true;
  const key = menuKeyOf(area, page);
  return key === null || menus.includes(key);
}
