import { HomeOutlined, MailOutlined } from "@ant-design/icons";
import type { ComponentType } from "react";
import type { MerchantRole, Version } from "@tessera/contracts";

/**
 * The route table as data (spec 01 §2): each page has a path, a lazily imported component, a title
 * key, and, when it belongs in an area's side menu, a menu key and icon. Areas add their base path,
 * the session they need and the merchant role they require. The side menu lists only pages that
 * exist: a page is added here when it works, never as a placeholder.
 */
export type PageModule = { default: ComponentType };

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

export type AreaId = "sale" | "business" | "intlSale" | "intlBusiness" | "dev";

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
  pages: PageDef[];
}

export const PUBLIC_PAGES: PageDef[] = [
  { path: "/login", load: () => import("../areas/public/Login"), titleKey: "title.login" },
  { path: "/login1", load: () => import("../areas/public/Login"), titleKey: "title.login" },
  { path: "/SelectUser", load: () => import("../areas/public/SelectUser"), titleKey: "title.selectUser" },
  { path: "/international/INlogin", load: () => import("../areas/international/INlogin"), titleKey: "title.intlLogin" },
  {
    path: "/international/SelectUser",
    load: () => import("../areas/international/SelectUser"),
    titleKey: "title.selectUser",
  },
];

export const AREAS: AreaDef[] = [
  {
    id: "sale",
    base: "/sale",
    nameKey: "area.sale",
    version: "domestic",
    role: "sale",
    pages: [{ path: "Home", load: () => import("../areas/sale/Home"), titleKey: "title.home", menuKey: "menu.home", icon: HomeOutlined }],
  },
  {
    id: "business",
    base: "/business",
    nameKey: "area.business",
    version: "domestic",
    role: "business",
    pages: [
      { path: "Home", load: () => import("../areas/business/Home"), titleKey: "title.home", menuKey: "menu.home", icon: HomeOutlined },
    ],
  },
  {
    id: "intlSale",
    base: "/international/sale",
    nameKey: "area.intlSale",
    version: "international",
    role: "sale",
    pages: [
      { path: "Home", load: () => import("../areas/international/SaleHome"), titleKey: "title.home", menuKey: "menu.home", icon: HomeOutlined },
    ],
  },
  {
    id: "intlBusiness",
    base: "/international/business",
    nameKey: "area.intlBusiness",
    version: "international",
    role: "business",
    pages: [
      {
        path: "Home",
        load: () => import("../areas/international/BusinessHome"),
        titleKey: "title.home",
        menuKey: "menu.home",
        icon: HomeOutlined,
      },
    ],
  },
  {
    id: "dev",
    base: "/dev",
    nameKey: "area.dev",
    version: null,
    devOnly: true,
    pages: [
      { path: "mailbox", load: () => import("../areas/dev/Mailbox"), titleKey: "title.mailbox", menuKey: "menu.mailbox", icon: MailOutlined },
    ],
  },
];

/** Route `handle`: what the root layout needs to set the document title. */
export interface RouteHandle {
  titleKey: string;
}

export function isRouteHandle(value: unknown): value is RouteHandle {
  return typeof value === "object" && value !== null && typeof (value as { titleKey?: unknown }).titleKey === "string";
}
