import type { AccountsTables } from "../modules/accounts/tables";
import type { MerchantsTables } from "../modules/merchants/tables";
import type { PaymentsTables, PlatformTables } from "../platform/tables";
import type { ImTables } from "../im/tables";
import type { LedgerTables } from "../modules/ledger/tables";
import type { OnboardingTables } from "../modules/onboarding/tables";
import type { OpsTables } from "../modules/ops/tables";
import type { CatalogTables } from "../modules/catalog/tables";
import type { SupplyTables } from "../modules/supply/tables";
import type { FundsTables } from "../modules/funds/tables";
import type { WithdrawalsTables } from "../modules/withdrawals/tables";
import type { TransfersTables } from "../modules/transfers/tables";
import type { PurchasingTables } from "../modules/purchasing/tables";
import type { DockingTables } from "../modules/docking/tables";
import type { MiniprogramSimTables } from "../platform/adapters/miniprogram/tables";
import type { OpenapiTables } from "../modules/openapi/tables";
import type { CallbacksTables } from "../modules/callbacks/tables";
import type { MediaTables } from "../modules/media/tables";
import type { OnecardTables } from "../modules/onecard/tables";
import type { CommerceTables } from "../modules/commerce/tables";
import type { TakeoutTables } from "../modules/takeout/tables";
import type { InvoicesTables } from "../modules/invoices/tables";
import type { CommissionTables } from "../modules/commission/tables";
import type { StoresTables } from "../modules/stores/tables";
import type { CollectionTables } from "../modules/collection/tables";
import type { MiniprogramTables } from "../modules/miniprogram/tables";
import type { MallTables } from "../modules/mall/tables";
import type { ProviderOpsTables } from "../modules/providerops/tables";
import type { AnnouncementsTables } from "../modules/announcements/tables";
import type { ReconciliationTables } from "../modules/reconciliation/tables";

/**
 * Every table, for Kysely. Each module declares the tables it owns in its own tables.ts (only that
 * module's repositories, `repo.ts` and `*.repo.ts`, query them: the `house/query-in-repo` lint rule); the
 * platform's tables (audit log, payments, the local mini-program platform) are in platform/. This
 * interface just puts them together.
 */
export interface DB
  extends
    PlatformTables,
    PaymentsTables,
    MerchantsTables,
    AccountsTables,
    ImTables,
    LedgerTables,
    OnboardingTables,
    OpsTables,
    CatalogTables,
    SupplyTables,
    FundsTables,
    WithdrawalsTables,
    TransfersTables,
    PurchasingTables,
    DockingTables,
    MiniprogramSimTables,
    OpenapiTables,
    CallbacksTables,
    MediaTables,
    OnecardTables,
    InvoicesTables,
    CommerceTables,
    CommissionTables,
    StoresTables,
    CollectionTables,
    TakeoutTables,
    MiniprogramTables,
    MallTables,
    ProviderOpsTables,
    AnnouncementsTables,
    ReconciliationTables {}
