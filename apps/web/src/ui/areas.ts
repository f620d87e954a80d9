import { createContext, createElement, useContext, type ComponentType } from "react";
import type { MerchantRole, Version } from "@tessera/contracts";

/**
 * The route table's shapes (spec 01 §2). A page has a path, a lazily imported component, a title key
 * and, when it belongs in its area's side menu, a menu key and an icon. An area has its base path, the
 * session it needs and the merchant role it requires; its pages are listed in its own file beside this
 * one, in menu order. The table itself is assembled in app/routes.ts; what lives below app (features, ui)
 * reads it through AreasContext, which the app's providers fill.
 */
export type PageModule = { default: ComponentType };

/**
 * A route entry's `load` that names a feature's page component and the props it takes on this route, so an
 * area needs no wrapper file for it: `featurePage(() => import("…/StatementPage").then((m) => m.StatementPage),
 * { unit: "month" })`. The props are checked against the component's.
 */
export function featurePage<P extends object>(
  load: () => Promise<ComponentType<P>>,
  props: P,
): () => Promise<PageModule> {
  return async () => {
    const Page = await load();
    return { default: () => createElement(Page, props) };
  };
}

export interface PageDef {
  /** Absolute for public pages, relative to the area base inside an area. */
  path: string;
  load: () => Promise<PageModule>;
  /** i18n key of the document title. */
  titleKey: string;
  /** i18n key of the side-menu entry; pages without one are not in the menu. */
  menuKey?: string;
  icon?: ComponentType;
}

export type AreaId = "sale" | "business" | "providers" | "intlSale" | "intlBusiness" | "dev" | "ops";

export interface AreaDef {
  id: AreaId;
  base: string;
  /** i18n key of the area name shown above its menu. */
  nameKey: string;
  /** The session the area needs; null: open without login. */
  version: Version | null;
  /** The merchant role required to use the area. */
  role?: MerchantRole;
  /** Shown only when the local mail/SMS adapter is active. */
  devOnly?: boolean;
  /** Where the area sends a visitor without a session (default: the version's login page). */
  loginPath?: string;
  /** In menu order; the first is where the area's base path leads. */
  pages: PageDef[];
}

/** The areas of the route table (app/routes.ts AREAS), handed down by the app's providers. */
export const AreasContext = createContext<readonly AreaDef[]>([]);

/** The route table's areas. */
export function useAreas(): readonly AreaDef[] {
  return useContext(AreasContext);
}
