import type { Currency, MerchantRole, Version } from "@tessera/contracts";
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
