import { business } from "../areas/business/routes";
import { clientPages } from "../areas/client/routes";
import { dev } from "../areas/dev/routes";
import { intlBusiness, intlSale } from "../areas/international/routes";
import { ops } from "../areas/ops/routes";
import { providers } from "../areas/providers/routes";
import { publicPages } from "../areas/public/routes";
import { sale } from "../areas/sale/routes";
import type { AreaDef, PageDef } from "../ui/areas";

export type { AreaDef, AreaId, PageDef, PageModule } from "../ui/areas";

/**
 * The route table as data (spec 01 §2), assembled from each area's areas/<area>/routes.ts: each page has
 * a path, a lazily imported component, a title key and, when it belongs in its area's side menu, a
 * menu key and an icon; each area has its base path, the session it needs and the merchant role it
 * requires. Adding a page is one line in its area's file. The side menu lists only pages that exist:
 * a page is added when it works, never as a placeholder. router.tsx turns this table into routes.
 */
export const PUBLIC_PAGES: PageDef[] = [...publicPages, ...clientPages];

export const AREAS: AreaDef[] = [sale, business, providers, intlSale, intlBusiness, ops, dev];

/** Route `handle`: what the root layout needs to set the document title. */
export interface RouteHandle {
  titleKey: string;
}

export function isRouteHandle(value: unknown): value is RouteHandle {
  return typeof value === "object" && value !== null && typeof (value as { titleKey?: unknown }).titleKey === "string";
}
