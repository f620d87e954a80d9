import type { ApiPermission, Currency, MerchantRole, RealNameState, Version } from "@tessera/contracts";
import type { Executor, Tx } from "../../db/tx";
import type { Actor } from "../../platform/auth/actor";
import { forbidden } from "../../platform/http/errors";
import {
  findMerchant,
  insertMerchant,
  lockMerchant,
  searchMerchants,
  updateMerchant,
  type MerchantFilter,
  namesOf,
} from "./repo";
import type { MerchantRow } from "./presenter";

/** A new merchant may act as purchaser and as supplier; service-provider status is granted on review. */
const DEFAULT_ROLES: MerchantRole[] = ["sale", "business"];

export async function createMerchant(
  tx: Tx,
  input: { name: string; version: Version; country: string | null; currency: Currency },
): Promise<number> {
  return insertMerchant(tx, { ...input, roles: DEFAULT_ROLES });
}

/** Merchants' display names by id, in one read (another module's lists name the merchants they show). */
export async function merchantNames(db: Executor, ids: number[]): Promise<Map<number, string>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await namesOf(db, unique);
  return new Map(rows.map((r) => [Number(r.id), r.name]));
}

export function getMerchant(db: Executor, merchantId: number): Promise<MerchantRow | undefined> {
  return findMerchant(db, merchantId);
}

/** Locks and reads a merchant inside the caller's transaction, before changing its states. */
export function lockMerchantForUpdate(tx: Tx, merchantId: number): Promise<MerchantRow | undefined> {
  return lockMerchant(tx, merchantId);
}

/** Real-name state (set by verification review and the expiry job), API permission, display name. */
export function changeMerchant(
  tx: Tx,
  merchantId: number,
  changes: {
    name?: string;
    realNameState?: RealNameState;
    apiPermission?: ApiPermission;
    roles?: MerchantRole[];
    now: Date;
  },
): Promise<void> {
  return updateMerchant(tx, merchantId, changes);
}

export function findMerchants(db: Executor, filter: MerchantFilter) {
  return searchMerchants(db, filter);
}

/** The merchant a staff member acts for; refuses operators, customers and vanished merchants. */
export async function merchantOfActor(db: Executor, actor: Actor): Promise<MerchantRow> {
  if (actor.merchantId === null) throw forbidden();
  const merchant = await findMerchant(db, actor.merchantId);
  if (!merchant) throw forbidden();
  return merchant;
}
