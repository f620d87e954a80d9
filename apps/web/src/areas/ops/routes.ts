import {
  AuditOutlined,
  ReconciliationOutlined,
  AccountBookOutlined,
  NotificationOutlined,
  BankOutlined,
  FileTextOutlined,
  SafetyCertificateOutlined,
  SearchOutlined,
  ShopOutlined,
  WalletOutlined,
} from "@ant-design/icons";
import type { AreaDef } from "../../ui/areas";

/**
 * The operator console (`/ops`): reviews, merchants, top-ups, withdrawals, audit log; its own login.
 * One line per page, in menu order (see ./types.ts).
 */
export const ops: AreaDef = {
  id: "ops",
  base: "/ops",
  nameKey: "ops.area",
  version: "domestic",
  loginPath: "/ops/login",
  pages: [
    {
      path: "Reviews",
      load: () => import("../../features/ops/Reviews"),
      titleKey: "ops.title.reviews",
      menuKey: "ops.menu.reviews",
      icon: SafetyCertificateOutlined,
    },
    {
      path: "Merchants",
      load: () => import("../../features/accounts/OpsMerchants"),
      titleKey: "ops.title.merchants",
      menuKey: "ops.menu.merchants",
      icon: SearchOutlined,
    },
    {
      path: "TopUps",
      load: () => import("../../features/funds/OpsTopUps"),
      titleKey: "funds.title.opsTopUps",
      menuKey: "funds.menu.opsTopUps",
      icon: BankOutlined,
    },
    {
      path: "Withdrawals",
      load: () => import("../../features/funds/OpsWithdrawals"),
      titleKey: "withdraw.title.ops",
      menuKey: "withdraw.menu.ops",
      icon: WalletOutlined,
    },
    {
      path: "Reconciliation",
      load: () => import("../../features/payments/OpsReconciliation"),
      titleKey: "reconciliation.title",
      menuKey: "reconciliation.menu",
      icon: ReconciliationOutlined,
    },
    {
      path: "StoreSettlement",
      load: () => import("../../features/stores/OpsStoreSettlement"),
      titleKey: "stores.opsSettle.title",
      menuKey: "stores.opsSettle.menu",
      icon: ShopOutlined,
    },
    {
      path: "Invoices",
      load: () => import("../../features/invoices/OpsInvoices"),
      titleKey: "invoices.title.ops",
      menuKey: "invoices.menu.ops",
      icon: FileTextOutlined,
    },
    {
      path: "Commission",
      load: () => import("../../features/commission/OpsCommission"),
      titleKey: "commission.opsTitle",
      menuKey: "commission.opsTitle",
      icon: AccountBookOutlined,
    },
    {
      path: "Announcements",
      load: () => import("../../features/announcements/Announcements"),
      titleKey: "announcements.ops.title",
      menuKey: "announcements.ops.title",
      icon: NotificationOutlined,
    },
    {
      path: "AuditLog",
      load: () => import("../../features/ops/AuditLog"),
      titleKey: "ops.title.audit",
      menuKey: "ops.menu.audit",
      icon: AuditOutlined,
    },
    {
      path: "MpReviews",
      load: () => import("../../features/miniprogram/MpReviews"),
      titleKey: "mp.ops.reviews",
      menuKey: "mp.ops.reviews",
      icon: AuditOutlined,
    },
    {
      path: "MpTemplates",
      load: () => import("../../features/miniprogram/MpTemplates"),
      titleKey: "mp.ops.templates",
      menuKey: "mp.ops.templates",
      icon: FileTextOutlined,
    },
  ],
};
