import type { AreaId } from "../../ui/areas";

/**
 * Sections of a long side menu (issue 25 item 4: the purchaser's was a flat list of ~55 entries), after
 * spec 01 §2's purchaser menu: account info, top-up and funds, goods purchasing (with supplier docking),
 * the equity card mall, the mini-program mall; plus invoices, stores and physical goods. Page path to
 * the section's i18n key; a page not listed (Home) stays at the top level.
 */
export const MENU_GROUPS: Partial<Record<AreaId, Readonly<Record<string, string>>>> = {
  sale: {
    BasicInformation: "menuGroup.account",
    Authentication: "menuGroup.account",
    ApiSecurity: "menuGroup.account",
    SubAccounts: "menuGroup.account",
    ServiceBind: "menuGroup.account",
    commitLetter: "menuGroup.account",
    RechargeSheet: "menuGroup.funds",
    FundRelated: "menuGroup.funds",
    PurchaseFund: "menuGroup.funds",
    supRechargeOrder: "menuGroup.funds",
    WithdrawalRecord: "menuGroup.funds",
    RebateRecord: "menuGroup.funds",
    RebateFundChange: "menuGroup.funds",
    SupplierDocking: "menuGroup.purchasing",
    GoodsPurchaseForm: "menuGroup.purchasing",
    PurchaseOrder: "menuGroup.purchasing",
    GoodsList: "menuGroup.purchasing",
    CarmiGoodsList: "menuGroup.purchasing",
    CouponSelection: "menuGroup.purchasing",
    SalesStatistics: "menuGroup.purchasing",
    PurchaseSettlement: "menuGroup.purchasing",
    BrandChat: "menuGroup.purchasing",
    Invoice: "menuGroup.invoices",
    InvoiceRecord: "menuGroup.invoices",
    TicketSignature: "menuGroup.invoices",
    OneCardMall: "menuGroup.cardMall",
    OneCardPurchase: "menuGroup.cardMall",
    BuyRecord: "menuGroup.cardMall",
    ActivateCard: "menuGroup.cardMall",
    OnlineCardAccount: "menuGroup.cardMall",
    CardReturnRecord: "menuGroup.cardMall",
    Tikatan: "menuGroup.cardMall",
    GiftCard: "menuGroup.cardMall",
    GiftReceiveRecord: "menuGroup.cardMall",
    GiftPackage: "menuGroup.cardMall",
    CardSalesOrder: "menuGroup.cardMall",
    OneCardReport: "menuGroup.cardMall",
    oneCardQuery: "menuGroup.cardMall",
    AssociatedStores: "menuGroup.stores",
    BusinessDistrict: "menuGroup.stores",
    WriteOrder: "menuGroup.stores",
    PhysicalSelection: "menuGroup.physical",
    RealGoods: "menuGroup.physical",
    RealGoodsOrders: "menuGroup.physical",
    VirtualGoods: "menuGroup.physical",
    VirtualOrders: "menuGroup.physical",
    OnlineRefundSheet: "menuGroup.physical",
    EquityApplet: "menuGroup.miniMall",
    SelfSupport: "menuGroup.miniMall",
    EquityGiftBag: "menuGroup.miniMall",
    EquityOrder: "menuGroup.miniMall",
    MallMember: "menuGroup.miniMall",
    SmsSendRecord: "menuGroup.miniMall",
    BrandShow: "menuGroup.miniMall",
    WechatOfficial: "menuGroup.miniMall",
  },
  // The supplier's menu (about 45 entries) in the same manner: account, goods, sales, funds, cards,
  // stores and write-off, payment collection, physical goods, takeout, the mall.
  business: {
    BasicInfo: "menuGroup.account",
    AuthenticationB: "menuGroup.account",
    ApiSecurityB: "menuGroup.account",
    SubAccounts: "menuGroup.account",
    ServiceBind: "menuGroup.account",
    SuppliedProducts: "menuGroup.goods",
    GoodsInSupply: "menuGroup.goods",
    CommoditySupply: "menuGroup.goods",
    ResaleGoods: "menuGroup.goods",
    VideoLibrary: "menuGroup.goods",
    ProcurementLiaison: "menuGroup.sales",
    BrandAuthorization: "menuGroup.sales",
    VendorWhiteList: "menuGroup.sales",
    PurchaseWhiteList: "menuGroup.sales",
    VendorPurchaseForm: "menuGroup.sales",
    SalesOrder: "menuGroup.sales",
    BrandChat: "menuGroup.sales",
    SUPOrder: "menuGroup.sales",
    CheckSupOrder: "menuGroup.sales",
    ChangesFunds: "menuGroup.funds",
    DailyFunds: "menuGroup.funds",
    Billing: "menuGroup.funds",
    FaceValueCard: "menuGroup.cardMall",
    DiscountCard: "menuGroup.cardMall",
    GuideCard: "menuGroup.cardMall",
    CardMall: "menuGroup.cardMall",
    BrandStore: "menuGroup.stores",
    brandMallCode: "menuGroup.stores",
    WriteOff: "menuGroup.stores",
    WriteAccount: "menuGroup.stores",
    WriteFunDoc: "menuGroup.stores",
    aggregateIncoming: "menuGroup.collection",
    receiptB: "menuGroup.collection",
    WechatRefundOrder: "menuGroup.collection",
    AddProducts: "menuGroup.physical",
    ProductList: "menuGroup.physical",
    OrderRelated: "menuGroup.physical",
    TakeoutSet: "menuGroup.takeout",
    TakeoutType: "menuGroup.takeout",
    ItemSet: "menuGroup.takeout",
    PackageSet: "menuGroup.takeout",
    TakeoutOrder: "menuGroup.takeout",
    ShopMember: "menuGroup.miniMall",
    PrivateCodeMall: "menuGroup.miniMall",
    DockWechat: "menuGroup.miniMall",
  },
};

export interface MenuEntry<T> {
  /** The section's i18n key, or null for a top-level entry. */
  group: string | null;
  items: T[];
}

/** Entries in menu order, gathered into their sections where the first of each stands. */
export function groupMenu<T extends { path: string }>(area: AreaId, pages: T[]): MenuEntry<T>[] {
  const groups = MENU_GROUPS[area] ?? {};
  const out: MenuEntry<T>[] = [];
  const byGroup = new Map<string, MenuEntry<T>>();
  for (const page of pages) {
    const group = groups[page.path] ?? null;
    if (group === null) {
      out.push({ group: null, items: [page] });
      continue;
    }
    let entry = byGroup.get(group);
    if (!entry) {
      entry = { group, items: [] };
      byGroup.set(group, entry);
      out.push(entry);
    }
    entry.items.push(page);
  }
  return out;
}
