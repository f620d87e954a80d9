import { AccountBookOutlined, ApartmentOutlined, FormOutlined, BankOutlined, CalendarOutlined, HomeOutlined, MailOutlined, SafetyOutlined, ShoppingCartOutlined, SwapOutlined, TransactionOutlined, WalletOutlined } from "@ant-design/icons";
// Onboarding and operator console pages.
import { ApiOutlined, AuditOutlined, FileProtectOutlined, IdcardOutlined, LinkOutlined, ProfileOutlined, SafetyCertificateOutlined, SearchOutlined, TeamOutlined } from "@ant-design/icons";
// Service-provider pages.
import { ClusterOutlined, ShopOutlined } from "@ant-design/icons";
// Catalog and supply pages.
import { AppstoreOutlined, CreditCardOutlined, GiftOutlined, ShoppingOutlined } from "@ant-design/icons";
// Media pages.
import { VideoCameraOutlined } from "@ant-design/icons";
import { BarChartOutlined, RetweetOutlined } from "@ant-design/icons";
// Brand chat.
import { MessageOutlined } from "@ant-design/icons";
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
  { path: "/ops/login", load: () => import("../areas/ops/Login"), titleKey: "ops.title.login" },
  { path: "/RealNamePage", load: () => import("../areas/providers/RealNamePage"), titleKey: "onboarding.title.realName" },
];

export const AREAS: AreaDef[] = [
  {
    id: "sale",
    base: "/sale",
    nameKey: "area.sale",
    version: "domestic",
    role: "sale",
    pages: [
      { path: "Home", load: () => import("../areas/sale/Home"), titleKey: "title.home", menuKey: "menu.home", icon: HomeOutlined },
      { path: "BasicInformation", load: () => import("../areas/sale/BasicInformation"), titleKey: "onboarding.title.profile", menuKey: "onboarding.menu.profile", icon: ProfileOutlined },
      { path: "Authentication", load: () => import("../areas/sale/Authentication"), titleKey: "onboarding.title.realName", menuKey: "onboarding.menu.realName", icon: IdcardOutlined },
      { path: "ApiSecurity", load: () => import("../areas/sale/ApiSecurity"), titleKey: "onboarding.title.api", menuKey: "onboarding.menu.api", icon: ApiOutlined },
      { path: "SubAccounts", load: () => import("../areas/sale/SubAccounts"), titleKey: "onboarding.title.sub", menuKey: "onboarding.menu.sub", icon: TeamOutlined },
      { path: "ServiceBind", load: () => import("../areas/sale/ServiceBind"), titleKey: "onboarding.title.service", menuKey: "onboarding.menu.service", icon: LinkOutlined },
      { path: "commitLetter", load: () => import("../areas/sale/commitLetter"), titleKey: "onboarding.title.letter", menuKey: "onboarding.menu.letter", icon: FileProtectOutlined },
      { path: "RechargeSheet", load: () => import("../areas/sale/RechargeSheet"), titleKey: "funds.title.topUp", menuKey: "funds.menu.topUp", icon: BankOutlined },
      { path: "FundRelated", load: () => import("../areas/sale/FundRelated"), titleKey: "funds.title.fundRelated", menuKey: "funds.menu.fundRelated", icon: TransactionOutlined },
      { path: "PurchaseFund", load: () => import("../areas/sale/PurchaseFund"), titleKey: "funds.title.purchaseFund", menuKey: "funds.title.purchaseFund", icon: WalletOutlined },
      { path: "supRechargeOrder", load: () => import("../areas/sale/supRechargeOrder"), titleKey: "funds.title.supRecharge", menuKey: "funds.title.supRecharge", icon: SwapOutlined },
      { path: "WithdrawalRecord", load: () => import("../areas/sale/WithdrawalRecord"), titleKey: "withdraw.title.sale", menuKey: "withdraw.menu.sale", icon: WalletOutlined },
      { path: "SupplierDocking", load: () => import("../areas/sale/SupplierDocking"), titleKey: "docking.title.sale", menuKey: "docking.title.sale", icon: ApartmentOutlined },
      { path: "GoodsPurchaseForm", load: () => import("../areas/sale/GoodsPurchaseForm"), titleKey: "application.title.sale", menuKey: "application.title.sale", icon: FormOutlined },
      { path: "PurchaseOrder", load: () => import("../areas/sale/PurchaseOrder"), titleKey: "order.title.sale", menuKey: "order.title.sale", icon: ShoppingCartOutlined },
      { path: "BrandChat", load: () => import("../chat/ChatPage"), titleKey: "chat.title", menuKey: "chat.menu", icon: MessageOutlined },
      { path: "SalesStatistics", load: () => import("../areas/sale/SalesStatistics"), titleKey: "stats.title.sales", menuKey: "stats.title.sales", icon: AccountBookOutlined },
      { path: "PurchaseSettlement", load: () => import("../areas/sale/PurchaseSettlement"), titleKey: "stats.title.settlement", menuKey: "stats.title.settlement", icon: CalendarOutlined },
      { path: "GoodsList", load: () => import("../areas/sale/GoodsList"), titleKey: "catalog.title.goodsList", menuKey: "catalog.menu.goodsList", icon: ShoppingOutlined },
      { path: "CarmiGoodsList", load: () => import("../areas/sale/CarmiGoodsList"), titleKey: "catalog.title.carmiGoodsList", menuKey: "catalog.menu.carmiGoodsList", icon: CreditCardOutlined },
      { path: "CouponSelection", load: () => import("../areas/sale/CouponSelection"), titleKey: "catalog.title.couponSelection", menuKey: "catalog.menu.couponSelection", icon: GiftOutlined },
    ],
  },
  {
    id: "business",
    base: "/business",
    nameKey: "area.business",
    version: "domestic",
    role: "business",
    pages: [
      { path: "Home", load: () => import("../areas/business/Home"), titleKey: "title.home", menuKey: "menu.home", icon: HomeOutlined },
      { path: "BasicInfo", load: () => import("../areas/business/BasicInfo"), titleKey: "onboarding.title.profile", menuKey: "onboarding.menu.profile", icon: ProfileOutlined },
      { path: "AuthenticationB", load: () => import("../areas/business/AuthenticationB"), titleKey: "onboarding.title.realName", menuKey: "onboarding.menu.realName", icon: IdcardOutlined },
      { path: "ApiSecurityB", load: () => import("../areas/business/ApiSecurityB"), titleKey: "onboarding.title.api", menuKey: "onboarding.menu.api", icon: ApiOutlined },
      { path: "SubAccounts", load: () => import("../areas/business/SubAccounts"), titleKey: "onboarding.title.sub", menuKey: "onboarding.menu.sub", icon: TeamOutlined },
      { path: "ServiceBind", load: () => import("../areas/business/ServiceBind"), titleKey: "onboarding.title.service", menuKey: "onboarding.menu.service", icon: LinkOutlined },
      { path: "SuppliedProducts", load: () => import("../areas/business/SuppliedProducts"), titleKey: "catalog.title.suppliedProducts", menuKey: "catalog.menu.suppliedProducts", icon: AppstoreOutlined },
      { path: "CardImport", load: () => import("../areas/business/CardImport"), titleKey: "catalog.title.cardImport" },
      { path: "GoodsInSupply", load: () => import("../areas/business/GoodsInSupply"), titleKey: "catalog.title.goodsInSupply", menuKey: "catalog.menu.goodsInSupply", icon: ShoppingOutlined },
      { path: "CommoditySupply", load: () => import("../areas/business/CommoditySupply"), titleKey: "catalog.title.commoditySupply", menuKey: "catalog.menu.commoditySupply", icon: BarChartOutlined },
      { path: "ResaleGoods", load: () => import("../areas/business/ResaleGoods"), titleKey: "catalog.title.resaleGoods", menuKey: "catalog.menu.resaleGoods", icon: RetweetOutlined },
      { path: "ProcurementLiaison", load: () => import("../areas/business/ProcurementLiaison"), titleKey: "docking.title.business", menuKey: "docking.title.business", icon: ApartmentOutlined },
      { path: "BrandAuthorization", load: () => import("../areas/business/BrandAuthorization"), titleKey: "brandAuth.title", menuKey: "brandAuth.title", icon: SafetyOutlined },
      { path: "VendorWhiteList", load: () => import("../areas/business/VendorWhiteList"), titleKey: "whitelist.title.vendor", menuKey: "whitelist.title.vendor", icon: SafetyOutlined },
      { path: "PurchaseWhiteList", load: () => import("../areas/business/PurchaseWhiteList"), titleKey: "whitelist.title.goods", menuKey: "whitelist.title.goods", icon: SafetyOutlined },
      { path: "VendorPurchaseForm", load: () => import("../areas/business/VendorPurchaseForm"), titleKey: "application.title.business", menuKey: "application.title.business", icon: FormOutlined },
      { path: "SalesOrder", load: () => import("../areas/business/SalesOrder"), titleKey: "order.title.business", menuKey: "order.title.business", icon: ShoppingCartOutlined },
      { path: "BrandChat", load: () => import("../chat/ChatPage"), titleKey: "chat.title", menuKey: "chat.menu", icon: MessageOutlined },
      { path: "SUPOrder", load: () => import("../areas/business/SUPOrder"), titleKey: "stats.title.sup", menuKey: "stats.title.sup", icon: TransactionOutlined },
      { path: "CheckSupOrder", load: () => import("../areas/business/CheckSupOrder"), titleKey: "stats.title.check", menuKey: "stats.title.check", icon: AuditOutlined },
      { path: "ChangesFunds", load: () => import("../areas/business/ChangesFunds"), titleKey: "funds.title.changesFunds", menuKey: "funds.menu.changesFunds", icon: TransactionOutlined },
      { path: "DailyFunds", load: () => import("../areas/business/DailyFunds"), titleKey: "statement.title.day", menuKey: "statement.title.day", icon: CalendarOutlined },
      { path: "Billing", load: () => import("../areas/business/Billing"), titleKey: "statement.title.month", menuKey: "statement.title.month", icon: AccountBookOutlined },
      { path: "VideoLibrary", load: () => import("../areas/business/VideoLibrary"), titleKey: "media.title", menuKey: "media.menu", icon: VideoCameraOutlined },
    ],
  },
  {
    id: "providers",
    base: "/providers",
    nameKey: "providers.area",
    version: "domestic",
    role: "providers",
    pages: [
      { path: "Home", load: () => import("../areas/providers/Home"), titleKey: "title.home", menuKey: "menu.home", icon: HomeOutlined },
      { path: "EssentialInfo", load: () => import("../areas/providers/EssentialInfo"), titleKey: "onboarding.title.profile", menuKey: "onboarding.menu.profile", icon: ProfileOutlined },
      { path: "AuthenticationP", load: () => import("../areas/providers/AuthenticationP"), titleKey: "onboarding.title.realName", menuKey: "onboarding.menu.realName", icon: IdcardOutlined },
      { path: "BrandsList", load: () => import("../areas/providers/BrandsList"), titleKey: "providers.title.brands", menuKey: "providers.menu.brands", icon: ShopOutlined },
      { path: "VendorList", load: () => import("../areas/providers/VendorList"), titleKey: "providers.title.vendors", menuKey: "providers.menu.vendors", icon: ClusterOutlined },
      { path: "SuppliedProductsP", load: () => import("../areas/providers/SuppliedProductsP"), titleKey: "catalog.title.servedGoods", menuKey: "catalog.menu.servedGoods", icon: AppstoreOutlined },
      { path: "FaceValueCardP", load: () => import("../areas/providers/FaceValueCardP"), titleKey: "catalog.title.faceValueCards", menuKey: "catalog.menu.faceValueCards", icon: CreditCardOutlined },
      { path: "DiscountCardP", load: () => import("../areas/providers/DiscountCardP"), titleKey: "catalog.title.discountCards", menuKey: "catalog.menu.discountCards", icon: GiftOutlined },
      { path: "BrandAuthorizationP", load: () => import("../areas/providers/BrandAuthorizationP"), titleKey: "brandAuth.title", menuKey: "brandAuth.title", icon: SafetyOutlined },
      { path: "ChangesFundsP", load: () => import("../areas/providers/ChangesFundsP"), titleKey: "funds.title.changesFunds", menuKey: "funds.menu.changesFunds", icon: TransactionOutlined },
      { path: "WithdrawalRecordP", load: () => import("../areas/providers/WithdrawalRecordP"), titleKey: "withdraw.title.sale", menuKey: "withdraw.menu.sale", icon: WalletOutlined },
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
      { path: "RechargeSheet", load: () => import("../areas/sale/RechargeSheet"), titleKey: "funds.title.topUp", menuKey: "funds.menu.topUp", icon: BankOutlined },
      { path: "FundsChange", load: () => import("../areas/sale/FundRelated"), titleKey: "funds.title.fundRelated", menuKey: "funds.menu.fundRelated", icon: TransactionOutlined },
      { path: "SupplierDocking", load: () => import("../areas/sale/SupplierDocking"), titleKey: "docking.title.sale", menuKey: "docking.title.sale", icon: ApartmentOutlined },
      { path: "GoodsPurchaseForm", load: () => import("../areas/sale/GoodsPurchaseForm"), titleKey: "application.title.sale", menuKey: "application.title.sale", icon: FormOutlined },
      { path: "PurchaseOrder", load: () => import("../areas/sale/PurchaseOrder"), titleKey: "order.title.sale", menuKey: "order.title.sale", icon: ShoppingCartOutlined },
      { path: "BrandChat", load: () => import("../chat/ChatPage"), titleKey: "chat.title", menuKey: "chat.menu", icon: MessageOutlined },
      { path: "storedValue", load: () => import("../areas/international/StoredValue"), titleKey: "funds.title.storedValue", menuKey: "funds.title.storedValue", icon: BankOutlined },
      { path: "storedFund", load: () => import("../areas/international/StoredFund"), titleKey: "funds.title.storedFund", menuKey: "funds.title.storedFund", icon: WalletOutlined },
      { path: "GoodsList", load: () => import("../areas/sale/IntlGoodsList"), titleKey: "catalog.title.goodsSelection", menuKey: "catalog.menu.goodsSelection", icon: ShoppingOutlined },
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
      { path: "SuppliedProducts", load: () => import("../areas/business/SuppliedProducts"), titleKey: "catalog.title.suppliedProducts", menuKey: "catalog.menu.suppliedProducts", icon: AppstoreOutlined },
      { path: "CardImport", load: () => import("../areas/business/CardImport"), titleKey: "catalog.title.cardImport" },
      { path: "ChangesFunds", load: () => import("../areas/business/ChangesFunds"), titleKey: "funds.title.changesFunds", menuKey: "funds.menu.changesFunds", icon: TransactionOutlined },
      { path: "ProcurementLiaison", load: () => import("../areas/business/ProcurementLiaison"), titleKey: "docking.title.business", menuKey: "docking.title.business", icon: ApartmentOutlined },
      { path: "SalesOrder", load: () => import("../areas/business/SalesOrder"), titleKey: "order.title.business", menuKey: "order.title.business", icon: ShoppingCartOutlined },
      { path: "BrandChat", load: () => import("../chat/ChatPage"), titleKey: "chat.title", menuKey: "chat.menu", icon: MessageOutlined },
      { path: "storedFund", load: () => import("../areas/international/StoredFund"), titleKey: "funds.title.storedFund", menuKey: "funds.title.storedFund", icon: WalletOutlined },
      { path: "WithdrawalRecordB", load: () => import("../areas/business/WithdrawalRecordB"), titleKey: "withdraw.title.sale", menuKey: "withdraw.menu.sale", icon: WalletOutlined },
    ],
  },
  {
    id: "ops",
    base: "/ops",
    nameKey: "ops.area",
    version: "domestic",
    loginPath: "/ops/login",
    pages: [
      { path: "Reviews", load: () => import("../areas/ops/Reviews"), titleKey: "ops.title.reviews", menuKey: "ops.menu.reviews", icon: SafetyCertificateOutlined },
      { path: "Merchants", load: () => import("../areas/ops/Merchants"), titleKey: "ops.title.merchants", menuKey: "ops.menu.merchants", icon: SearchOutlined },
      { path: "TopUps", load: () => import("../areas/ops/TopUps"), titleKey: "funds.title.opsTopUps", menuKey: "funds.menu.opsTopUps", icon: BankOutlined },
      { path: "Withdrawals", load: () => import("../areas/ops/Withdrawals"), titleKey: "withdraw.title.ops", menuKey: "withdraw.menu.ops", icon: WalletOutlined },
      { path: "AuditLog", load: () => import("../areas/ops/AuditLog"), titleKey: "ops.title.audit", menuKey: "ops.menu.audit", icon: AuditOutlined },
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
