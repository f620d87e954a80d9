import type { Currency, MerchantRole, Money, Version } from "@tessera/contracts";
import type { Executor, Tx } from "../../db/tx";
import { findMerchant, insertMerchant } from "./repo";
import type { MerchantRow } from "./presenter";

/** A new merchant may act as purchaser and as supplier; service-provider status is granted on review. */
const DEFAULT_ROLES: MerchantRole[] = ["sale", "business"];

export async function createMerchant(
  tx: Tx,
  input: { name: string; version: Version; country: string | null; currency: Currency },
): Promise<number> {
  return insertMerchant(tx, { ...input, roles: DEFAULT_ROLES });
}

export function getMerchant(db: Executor, merchantId: number): Promise<MerchantRow | undefined> {
  return findMerchant(db, merchantId);
}

/**
 * The SUP account and reserve/payment account balances shown on the home pages. No money can move yet:
 * fund accounts arrive with the ledger module, which will answer this from its entries. Until then
 * every merchant's balance is zero in its own currency, which is the truth.
 */
export function accountBalances(merchant: MerchantRow): { sup: Money; reserve: Money } {
  return { sup: { amount: 0, currency: merchant.currency }, reserve: { amount: 0, currency: merchant.currency } };
}
