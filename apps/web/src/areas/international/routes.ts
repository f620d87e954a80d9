import {
  ApartmentOutlined,
  AppstoreOutlined,
  BankOutlined,
  CreditCardOutlined,
  FormOutlined,
  IdcardOutlined,
  HomeOutlined,
  MessageOutlined,
  ProfileOutlined,
  QrcodeOutlined,
  ShoppingCartOutlined,
  ShoppingOutlined,
  TransactionOutlined,
  WalletOutlined,
} from "@ant-design/icons";
import { featurePage, type AreaDef } from "../../ui/areas";

/**
 * The international version's two back offices: purchaser (`/international/sale`) and supplier
 * (`/international/business`). Most pages are the domestic areas' pages under their international paths.
 * One line per page, in menu order (see ./types.ts).
 */
export const intlSale: AreaDef = {
  id: "intlSale",
  base: "/international/sale",
  nameKey: "area.intlSale",
  version: "international",
  role: "sale",
  pages: [
    {
      path: "Home",
      load: featurePage(() => import("../../features/accounts/AccountHome").then((m) => m.AccountHome), {
        role: "sale",
      }),
      titleKey: "title.home",
      menuKey: "menu.home",
      icon: HomeOutlined,
    },
    {
      path: "RechargeSheet",
      load: () => import("../../features/funds/RechargeSheet"),
      titleKey: "funds.title.topUp",
      menuKey: "funds.menu.topUp",
      icon: BankOutlined,
    },
    {
      path: "FundsChange",
      load: featurePage(() => import("../../features/funds/AccountFundsPage").then((m) => m.AccountFundsPage), {
        accounts: ["reserve", "sup"],
        hintId: "sale.FundRelated",
        transfer: true,
      }),
      titleKey: "funds.title.fundRelated",
      menuKey: "funds.menu.fundRelated",
      icon: TransactionOutlined,
    },
    // The home's withdraw action (spec 01 marketplace screen 5) leads here: from the reserve account to a verified card.
    {
      path: "WithdrawalRecord",
      load: featurePage(() => import("../../features/funds/WithdrawalPage").then((m) => m.WithdrawalPage), {
        account: "reserve",
        hintId: "sale.WithdrawalRecord",
      }),
      titleKey: "withdraw.title.sale",
      menuKey: "withdraw.menu.sale",
      icon: WalletOutlined,
    },
    {
      path: "SupplierDocking",
      load: () => import("../../features/purchasing/SupplierDocking"),
      titleKey: "docking.title.sale",
      menuKey: "docking.title.sale",
      icon: ApartmentOutlined,
    },
    {
      path: "GoodsPurchaseForm",
      load: () => import("../../features/purchasing/GoodsPurchaseForm"),
      titleKey: "application.title.sale",
      menuKey: "application.title.sale",
      icon: FormOutlined,
    },
    {
      path: "PurchaseOrder",
      load: featurePage(() => import("../../features/purchasing/OrderTabs").then((m) => m.OrderTabs), {
        side: "purchaser",
      }),
      titleKey: "order.title.sale",
      menuKey: "order.title.sale",
      icon: ShoppingCartOutlined,
    },
    {
      path: "BrandChat",
      load: () => import("../../chat/ChatPage"),
      titleKey: "chat.title",
      menuKey: "chat.menu",
      icon: MessageOutlined,
    },
    {
      path: "storedValue",
      load: featurePage(() => import("../../features/funds/AccountFundsPage").then((m) => m.AccountFundsPage), {
        accounts: ["reserve"],
        hintId: "intl.sale.storedValue",
      }),
      titleKey: "funds.title.storedValue",
      menuKey: "funds.title.storedValue",
      icon: BankOutlined,
    },
    {
      path: "storedFund",
      load: featurePage(() => import("../../features/funds/AccountFundsPage").then((m) => m.AccountFundsPage), {
        accounts: ["sup"],
        hintId: "intl.storedFund",
      }),
      titleKey: "funds.title.storedFund",
      menuKey: "funds.title.storedFund",
      icon: WalletOutlined,
    },
    {
      path: "GoodsList",
      load: () => import("../../features/catalog/IntlGoodsList"),
      titleKey: "catalog.title.goodsSelection",
      menuKey: "catalog.menu.goodsSelection",
      icon: ShoppingOutlined,
    },
    {
      path: "Authentication",
      load: featurePage(() => import("../../features/onboarding/RealNameForm").then((m) => m.RealNameForm), {
        pageId: "sale.Authentication",
      }),
      titleKey: "onboarding.title.realName",
      menuKey: "onboarding.menu.realName",
      icon: IdcardOutlined,
    },
    // The equity card mall (spec 01 marketplace screen 3): the card products brands offer, and what was bought.
    {
      path: "OneCardMall",
      load: () => import("../../features/onecard/OneCardMall"),
      titleKey: "onecard.bo.page.OneCardMall",
      menuKey: "onecard.bo.page.OneCardMall",
      icon: CreditCardOutlined,
    },
    {
      path: "BuyRecord",
      load: () => import("../../features/onecard/BuyRecord"),
      titleKey: "onecard.bo.page.BuyRecord",
      menuKey: "onecard.bo.page.BuyRecord",
      icon: ProfileOutlined,
    },
    // Screen 15: the mini-program mall with its SMS packages and docking, and the goods it sells.
    {
      path: "SelfSupport",
      load: () => import("../../features/mall/SelfSupport"),
      titleKey: "mall.page.SelfSupport",
      menuKey: "mall.page.SelfSupport",
      icon: ShoppingOutlined,
    },
    {
      path: "EquityApplet",
      load: () => import("../../features/miniprogram/IntlEquityApplet"),
      titleKey: "mp.page.EquityApplet",
      menuKey: "mp.page.EquityApplet",
      icon: AppstoreOutlined,
    },
  ],
};

export const intlBusiness: AreaDef = {
  id: "intlBusiness",
  base: "/international/business",
  nameKey: "area.intlBusiness",
  version: "international",
  role: "business",
  pages: [
    {
      path: "Home",
      load: featurePage(() => import("../../features/accounts/AccountHome").then((m) => m.AccountHome), {
        role: "business",
      }),
      titleKey: "title.home",
      menuKey: "menu.home",
      icon: HomeOutlined,
    },
    {
      path: "SuppliedProducts",
      load: () => import("../../features/catalog/SuppliedProducts"),
      titleKey: "catalog.title.suppliedProducts",
      menuKey: "catalog.menu.suppliedProducts",
      icon: AppstoreOutlined,
    },
    {
      path: "CardImport",
      load: () => import("../../features/catalog/CardImport"),
      titleKey: "catalog.title.cardImport",
    },
    // The brand's app for the supplier home's links (spec 01 marketplace screen 6): its mall codes.
    {
      path: "brandMallCode",
      load: () => import("../../features/stores/brandMallCode"),
      titleKey: "stores.title.brandMallCode",
      menuKey: "stores.title.brandMallCode",
      icon: QrcodeOutlined,
    },
    {
      path: "ChangesFunds",
      load: () => import("../../features/funds/ChangesFunds"),
      titleKey: "funds.title.changesFunds",
      menuKey: "funds.menu.changesFunds",
      icon: TransactionOutlined,
    },
    {
      path: "ProcurementLiaison",
      load: () => import("../../features/purchasing/ProcurementLiaison"),
      titleKey: "docking.title.business",
      menuKey: "docking.title.business",
      icon: ApartmentOutlined,
    },
    {
      path: "SalesOrder",
      load: featurePage(() => import("../../features/purchasing/OrderTabs").then((m) => m.OrderTabs), {
        side: "supplier",
      }),
      titleKey: "order.title.business",
      menuKey: "order.title.business",
      icon: ShoppingCartOutlined,
    },
    {
      path: "BrandChat",
      load: () => import("../../chat/ChatPage"),
      titleKey: "chat.title",
      menuKey: "chat.menu",
      icon: MessageOutlined,
    },
    {
      path: "storedFund",
      load: featurePage(() => import("../../features/funds/AccountFundsPage").then((m) => m.AccountFundsPage), {
        accounts: ["sup"],
        hintId: "intl.storedFund",
      }),
      titleKey: "funds.title.storedFund",
      menuKey: "funds.title.storedFund",
      icon: WalletOutlined,
    },
    {
      path: "WithdrawalRecordB",
      load: featurePage(() => import("../../features/funds/WithdrawalPage").then((m) => m.WithdrawalPage), {
        account: "income",
        hintId: "business.WithdrawalRecordB",
      }),
      titleKey: "withdraw.title.sale",
      menuKey: "withdraw.menu.sale",
      icon: WalletOutlined,
    },
    {
      path: "AuthenticationB",
      load: featurePage(() => import("../../features/onboarding/RealNameForm").then((m) => m.RealNameForm), {
        pageId: "business.AuthenticationB",
      }),
      titleKey: "onboarding.title.realName",
      menuKey: "onboarding.menu.realName",
      icon: IdcardOutlined,
    },
  ],
};
