import { business } from "./routes/business";
import { dev } from "./routes/dev";
import { intlBusiness, intlSale } from "./routes/international";
import { ops } from "./routes/ops";
import { providers } from "./routes/providers";
import { publicPages } from "./routes/public";
import { sale } from "./routes/sale";
import type { AreaDef, PageDef } from "../ui/areas";

export type { AreaDef, AreaId, PageDef, PageModule } from "../ui/areas";

/**
 * The route table as data (spec 01 §2), assembled from one file per area in ./routes/: each page has
 * a path, a lazily imported component, a title key and, when it belongs in its area's side menu, a
 * menu key and an icon; each area has its base path, the session it needs and the merchant role it
 * requires. Adding a page is one line in its area's file. The side menu lists only pages that exist:
 * a page is added when it works, never as a placeholder. router.tsx turns this table into routes.
 */
export const PUBLIC_PAGES: PageDef[] = publicPages;

export const AREAS: AreaDef[] = [sale, business, providers, intlSale, intlBusiness, ops, dev];

/** Route `handle`: what the root layout needs to set the document title. */
export interface RouteHandle {
  titleKey: string;
}

export function isRouteHandle(value: unknown): value is RouteHandle {
  return typeof value === "object" && value !== null && typeof (value as { titleKey?: unknown }).titleKey === "string";
}
