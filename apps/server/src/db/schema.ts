import type { AccountsTables } from "../modules/accounts/tables";
import type { MerchantsTables } from "../modules/merchants/tables";
import type { PlatformTables } from "../platform/tables";
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
import type { OpenapiTables } from "../modules/openapi/tables";
import type { MediaTables } from "../modules/media/tables";

/**
 * Every table, for Kysely. Each module declares the tables it owns in its own tables.ts (only that
 * module's repo.ts queries them); this interface just puts them together.
 */
export interface DB extends PlatformTables, MerchantsTables, AccountsTables, ImTables, LedgerTables, OnboardingTables, OpsTables, CatalogTables, SupplyTables, FundsTables, WithdrawalsTables, TransfersTables, PurchasingTables, OpenapiTables, MediaTables {}
