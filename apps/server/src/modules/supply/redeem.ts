import { createHash, timingSafeEqual } from "node:crypto";
import { sql } from "kysely";
import type { Executor } from "../../db/tx";
import type { CardKeys } from "./crypto";

/**
 * Store redemption (write-off, 核销) of a code a purchaser bought: the code must be the supplier's, sold,
 * neither void nor expired nor already redeemed, and its secret must match. A code is redeemed once: the
 * row is locked and marked in the caller's transaction, so two clerks racing get one redemption.
 * Migration 0093 adds the columns (redeemed_at, redeemed_ref); the card's state stays `sold`.
 */
export type RedeemRefusal = "unknown" | "used" | "void" | "expired" | "notSold";

export interface RedeemableCard {
  cardId: number;
  /** The supplier (brand) the code belongs to. */
  supplierId: number;
  goodsId: number;
  numberMask: string;
  expiresOn: string | null;
  orderId: string | null;
  buyerMerchantId: number | null;
  /** The reference of the redemption that used it, when already used. */
  redeemedRef: string | null;
}

interface Row {
  id: number | string;
  merchant_id: number | string;
  goods_id: number | string;
  number_mask: string;
  sealed: string;
  state: string;
  expires_on: string | null;
  order_id: string | null;
  buyer_merchant_id: number | string | null;
  redeemed_at: Date | string | null;
  redeemed_ref: string | null;
}

const digest = (s: string) => createHash("sha256").update(s).digest();

function pick(keys: CardKeys, rows: Row[], secret: string): Row | undefined {
  const want = digest(secret);
  // Every candidate is unsealed, so the time taken does not tell which one matched.
  let found: Row | undefined;
  for (const r of rows) {
    if (timingSafeEqual(digest(keys.unseal(r.sealed).secret), want) && !found) found = r;
  }
  return found;
}

async function candidates(
  db: Executor,
  keys: CardKeys,
  supplierId: number | null,
  number: string,
  lock: boolean,
): Promise<Row[]> {
  const q = sql<Row>`
    SELECT id, merchant_id, goods_id, number_mask, sealed, state, to_char(expires_on, 'YYYY-MM-DD') AS expires_on,
      order_id, buyer_merchant_id, redeemed_at, redeemed_ref
    FROM supply_cards WHERE ${supplierId === null ? sql`TRUE` : sql`merchant_id = ${supplierId}`} AND number_hash = ${keys.numberHash(number)}
    ORDER BY id ${lock ? sql`FOR UPDATE` : sql``}`;
  return (await q.execute(db)).rows;
}

function judge(r: Row, today: string): RedeemRefusal | null {
  if (r.redeemed_at !== null) return "used";
  if (r.state === "void") return "void";
  if (r.state === "expired" || (r.expires_on !== null && r.expires_on < today)) return "expired";
  if (r.state !== "sold") return "notSold";
  return null;
}

const present = (r: Row): RedeemableCard => ({
  cardId: Number(r.id),
  supplierId: Number(r.merchant_id),
  goodsId: Number(r.goods_id),
  numberMask: r.number_mask,
  expiresOn: r.expires_on,
  orderId: r.order_id,
  buyerMerchantId: r.buyer_merchant_id === null ? null : Number(r.buyer_merchant_id),
  redeemedRef: r.redeemed_ref,
});

/**
 * Looks a code up for a preview (nothing changes): the card, or why it cannot be redeemed. With a null
 * supplier any supplier's code is found (to tell a code of another brand from an unknown one).
 */
export async function peekRedeemable(
  db: Executor,
  keys: CardKeys,
  q: { supplierId: number | null; number: string; secret: string; today: string },
): Promise<{ card: RedeemableCard; refusal: RedeemRefusal | null } | { card: null; refusal: "unknown" }> {
  const r = pick(keys, await candidates(db, keys, q.supplierId, q.number, false), q.secret);
  if (!r) return { card: null, refusal: "unknown" };
  return { card: present(r), refusal: judge(r, q.today) };
}

/**
 * Redeems a code in the caller's transaction (row locked). `ref` names the redemption; redeeming again
 * with the same ref finds the first (replayed), any other ref is refused as used.
 */
export async function redeemSupplyCard(
  tx: Executor,
  keys: CardKeys,
  q: { supplierId: number; number: string; secret: string; today: string; at: Date; ref: string },
): Promise<
  | { ok: true; card: RedeemableCard; replayed: boolean }
  | { ok: false; refusal: RedeemRefusal; card: RedeemableCard | null }
> {
  const r = pick(keys, await candidates(tx, keys, q.supplierId, q.number, true), q.secret);
  if (!r) return { ok: false, refusal: "unknown", card: null };
  if (r.redeemed_at !== null && r.redeemed_ref === q.ref) return { ok: true, card: present(r), replayed: true };
  const refusal = judge(r, q.today);
  if (refusal) return { ok: false, refusal, card: present(r) };
  await sql`UPDATE supply_cards SET redeemed_at = ${q.at}, redeemed_ref = ${q.ref} WHERE id = ${r.id} AND redeemed_at IS NULL`.execute(
    tx,
  );
  return { ok: true, card: { ...present(r), redeemedRef: q.ref }, replayed: false };
}
