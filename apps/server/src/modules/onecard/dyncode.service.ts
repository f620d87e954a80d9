import { createHmac, randomInt } from "node:crypto";
import { CODE, type Currency, type DynamicCodeReply } from "@tessera/contracts";
import type { Db, Executor, Tx } from "../../db/tx";
import type { Clock } from "../../platform/clock";
import { AppError } from "../../platform/http/errors";
import type { Customer } from "./customers.service";
import * as dyncode from "./dyncode.repo";

/**
 * A customer's dynamic code (动态码) for one of their cards: 18 digits shown in the card bag with a
 * countdown, valid 60 s, which a clerk enters or scans instead of the card number and password. The
 * card bag asks for a fresh one when the countdown ends (rotation).
 *
 * Why stored with its expiry rather than derived (HMAC of card + time window): a code must be redeemable
 * once, so its use has to be recorded anyway, and the clerk's lookup must find the card from the digits
 * alone; a derived code would need either the card number inside the code (readable by whoever sees the
 * screen) or a search over every card's window. A stored row gives a random code (no card information in
 * it), a lookup by its digest, a row lock under which exactly one clerk consumes it, and a code that is
 * dead the moment a newer one is asked for (nothing to revoke). Only the HMAC digest is kept, so a
 * database reader cannot replay live codes.
 */
export const DYNAMIC_CODE_TTL_SECONDS = 60;
export const DYNAMIC_CODE_LENGTH = 18;
const DYNAMIC_CODE_RE = /^\d{18}$/;

export type DynamicRefusal = "unknown" | "expired" | "used";

export interface DynamicCodeCard {
  codeId: number;
  cardId: number;
  branderId: number;
  cardNoMasked: string;
  productName: string;
  balance: number;
  currency: Currency;
  expiresAt: Date | null;
}

export type DynamicLookup =
  { card: DynamicCodeCard; refusal: DynamicRefusal | null } | { card: null; refusal: "unknown" };

export const isDynamicCode = (code: string) => DYNAMIC_CODE_RE.test(code);

export class DynamicCodes {
  constructor(private readonly deps: { db: Db; clock: Clock; key: Buffer }) {}

  private hash(code: string): string {
    return createHmac("sha256", this.deps.key).update(code).digest("hex");
  }

  private newCode(): string {
    let s = String(randomInt(1, 10));
    while (s.length < DYNAMIC_CODE_LENGTH) s += String(randomInt(0, 10));
    return s;
  }

  /** A fresh code for one of the customer's activated cards; older unused codes of the card die. */
  async issue(customer: Customer, cardId: number): Promise<DynamicCodeReply> {
    const card = await dyncode.customerActiveCard(this.deps.db, cardId, customer.id);
    const now = this.deps.clock.now();
    if (!card || (card.expires_at && new Date(card.expires_at) <= now)) {
      throw new AppError(CODE.NOT_FOUND, "onecard.cardUnknown");
    }
    const code = this.newCode();
    const expiresAt = new Date(now.getTime() + DYNAMIC_CODE_TTL_SECONDS * 1000);
    await dyncode.endLiveCodes(this.deps.db, card.id, now);
    await dyncode.insertCode(this.deps.db, {
      code_hash: this.hash(code),
      card_id: card.id,
      customer_id: customer.id,
      brander_id: card.brander_id,
      expires_at: expiresAt,
      created_at: now,
    });
    return { code, expiresAt: expiresAt.toISOString(), ttlSeconds: DYNAMIC_CODE_TTL_SECONDS };
  }

  /** What a code stands for (nothing changes); `lock` takes the code's row lock in the caller's transaction. */
  async lookup(db: Executor, code: string, opts: { lock?: boolean } = {}): Promise<DynamicLookup> {
    if (!isDynamicCode(code)) return { card: null, refusal: "unknown" };
    const row = await dyncode.codeByHash(db, this.hash(code), opts.lock);
    // A card that changed hands since the code was shown is not the customer's any more.
    if (!row || row.customer_id !== row.code_customer_id) return { card: null, refusal: "unknown" };
    const card: DynamicCodeCard = {
      codeId: row.id,
      cardId: row.card_id,
      branderId: row.brander_id,
      cardNoMasked: row.no_masked,
      productName: row.name,
      balance: Number(row.balance) - Number(row.held),
      currency: row.currency,
      expiresAt: row.card_expires_at ? new Date(row.card_expires_at) : null,
    };
    if (row.used_at) return { card, refusal: "used" };
    if (new Date(row.expires_at) <= this.deps.clock.now()) return { card, refusal: "expired" };
    return { card, refusal: null };
  }

  /** Marks a locked, live code used by `ref` (the redemption's key), in the caller's transaction. */
  async markUsed(tx: Tx, codeId: number, ref: string): Promise<void> {
    const marked = await dyncode.markCodeUsed(tx, codeId, ref, this.deps.clock.now());
    if (!marked) throw new Error("dynamic code consumed outside its row lock");
  }
}
