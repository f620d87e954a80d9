import type { AccountsTables } from "../modules/accounts/tables";
import type { MerchantsTables } from "../modules/merchants/tables";
import type { PlatformTables } from "../platform/tables";
import type { ImTables } from "../im/tables";
import type { LedgerTables } from "../modules/ledger/tables";

/**
 * Every table, for Kysely. Each module declares the tables it owns in its own tables.ts (only that
 * module's repo.ts queries them); this interface just puts them together.
 */
export interface DB extends PlatformTables, MerchantsTables, AccountsTables, ImTables, LedgerTables {}
