import { CODE, ONECARD_LIMITS, renderMessage, type Lang, type OcBalance } from "@tessera/contracts";
import { withTx, type Tx } from "../../db/tx";
import type { Actor } from "../../platform/auth/actor";
import type { Clock } from "../../platform/clock";
import { sameHash } from "../../platform/crypto/tokens";
import { AppError, conflict } from "../../platform/http/errors";
import { getMerchant, merchantOfActor, type MerchantRow } from "../merchants";
import { maskNo, parseCardNumber, passwordHash } from "./cardno";
import { cardErr, effectiveState, iso, money } from "./presenter";
import * as redemption from "./redemption.repo";
import * as repo from "./repo";
import type { OnecardDeps } from "./service";

/**
 * Per-client attempts of the public card checks: at most 20 failed ones in 10 minutes per address. An
 * attempt is counted when it starts (so a burst of parallel guesses cannot all pass the check before
 * the first failure is counted) and given back when the password was right.
 */
class ClientThrottle {
  private readonly seen = new Map<string, { start: number; n: number }>();
  constructor(private readonly clock: Clock) {}
  attempt(client: string): void {
    const now = this.clock.now().getTime();
    const e = this.seen.get(client);
    if (!e || now - e.start >= 600_000) {
      if (this.seen.size > 100_000) this.seen.clear();
      this.seen.set(client, { start: now, n: 1 });
      return;
    }
    if (e.n >= 20) throw new AppError(CODE.TOO_MANY_REQUESTS, "onecard.clientThrottled");
    e.n++;
  }
  succeeded(client: string): void {
    const e = this.seen.get(client);
    if (e && e.n > 0) e.n--;
  }
}

/**
 * Redemption: a card's number and password checked (per client and per address, so guessing gets nowhere),
 * the public balance query, and money taken off a card under its row lock (a store's or the brand's
 * redemption in one step or two, a hold then its capture or release; other modules' card payments through
 * `debit`), never below what is held.
 */
export class RedemptionService {
  private readonly throttle: ClientThrottle;
  constructor(private readonly deps: OnecardDeps) {
    this.throttle = new ClientThrottle(deps.clock);
  }

  private now(): Date {
    return this.deps.clock.now();
  }
  private merchantOf(actor: Actor): Promise<MerchantRow> {
    return merchantOfActor(this.deps.db, actor);
  }

  /**
   * Finds a card by number and password. Unknown numbers and wrong passwords get one answer; wrong
   * passwords count per (card, client), locking the card for that client only after a few (the holder
   * told by SMS), and against the address (throttled), so guessing gets nowhere and nobody can lock a
   * card for everyone else (issue 38 item 7).
   *
   * `client` is the caller's address for the per-address limit of anonymous and customer checks; null for
   * an authenticated brand. `brandId` names that brand: only its own cards exist for it, so another
   * brand's card answers exactly like an unknown number and its lock is not touched, and its failures
   * count as `merchant:<id>`. To a caller without a brand, a locked card answers like an unknown one
   * (a different answer would tell a real card from an unissued number).
   */
  async verify(
    cardNo: string,
    password: string,
    client: string | null,
    lang: Lang,
    brandId?: number,
  ): Promise<repo.CardRowDb> {
    if (client !== null) this.throttle.attempt(client);
    const found = parseCardNumber(cardNo)
      ? await repo.cardByHash(this.deps.db, this.deps.keys.numberHash(cardNo))
      : undefined;
    const card = found && (brandId === undefined || found.brander_id === brandId) ? found : undefined;
    const who = brandId !== undefined ? `merchant:${brandId}` : `ip:${client ?? "unknown"}`;
    const now = this.now();
    const lockedUntil = card ? await repo.clientLock(this.deps.db, card.id, who) : null;
    const expected = card?.pwd_hash ?? "00";
    const given = passwordHash(this.deps.pwdKey, card?.id ?? 0, password);
    if (card && lockedUntil && lockedUntil > now) {
      if (brandId === undefined) throw cardErr("onecard.cardUnknown");
      throw new AppError(CODE.ACCOUNT_LOCKED, "onecard.cardLocked", {
        minutes: Math.ceil((lockedUntil.getTime() - now.getTime()) / 60_000),
      });
    }
    if (!card || !sameHash(expected, given)) {
      if (card) {
        const lockUntil = new Date(now.getTime() + ONECARD_LIMITS.lockMinutes * 60_000);
        const { locked } = await repo.countClientWrongPassword(
          this.deps.db,
          card.id,
          who,
          ONECARD_LIMITS.wrongPasswordsBeforeLock,
          lockUntil,
          now,
        );
        if (locked && card.customer_id !== null) {
          const owner = await redemption.customerPhone(this.deps.db, card.customer_id);
          if (owner) {
            const params = { last4: cardNo.slice(-4), minutes: ONECARD_LIMITS.lockMinutes };
            const text = renderMessage("onecard.lockedSms", lang, params);
            // A notice only: when the provider does not take it (the adapter logged why), the lock stands and
            // the one who typed the password still hears "card unknown", not how the owner's SMS fared.
            await this.deps.sms.send({ to: owner.phone, kind: "cardLocked", params, text }).catch(() => undefined);
          }
        }
      }
      throw cardErr("onecard.cardUnknown");
    }
    if (client !== null) this.throttle.succeeded(client);
    // A right password clears this client's count (a primary-key delete; usually nothing to delete).
    await repo.clearWrongPasswords(this.deps.db, card.id, who);
    return card;
  }

  /** The public balance query (oneCardQuery): number and password. */
  async balance(cardNo: string, password: string, client: string, lang: Lang): Promise<OcBalance> {
    const card = await this.verify(cardNo, password, client, lang);
    const p = await repo.productById(this.deps.db, card.product_id);
    const brand = await getMerchant(this.deps.db, card.brander_id);
    return {
      cardNo: maskNo(cardNo),
      productName: p?.name ?? "",
      branderName: brand?.name ?? "",
      state: effectiveState(card, this.now()),
      faceValue: money(card.face_value, card.currency),
      balance: money(card.balance, card.currency),
      expiresAt: iso(card.expires_at),
    };
  }

  usable(card: repo.CardRowDb): void {
    const now = this.now();
    if (card.state === "sold" || card.state === "issued") throw conflict("onecard.notActivated");
    if (card.state === "frozen") throw conflict("onecard.frozen");
    if (card.state === "expired" || (card.expires_at && new Date(card.expires_at) <= now)) {
      throw conflict("onecard.expired");
    }
    if (card.state !== "activated") throw conflict("onecard.unusable");
  }

  /**
   * Takes `amount` off a card under its row lock: a move with the request key (a replay finds it and
   * changes nothing), never below what is held. Returns the balance after it.
   */
  async debit(
    tx: Tx,
    cardId: number,
    amount: number,
    kind: "redeem" | "capture",
    requestKey: string,
    note: string,
  ): Promise<{ balance: number; replayed: boolean }> {
    const card = await repo.lockCardForMove(tx, cardId, requestKey);
    if (!card) throw cardErr("onecard.cardUnknown");
    if (card.replayed) return { balance: card.balance, replayed: true };
    this.usable(card);
    if (card.balance - card.held < amount) throw conflict("onecard.insufficient");
    const after = card.balance - amount;
    await repo.moveBalance(tx, {
      cardId,
      kind,
      amount: -amount,
      balanceAfter: after,
      requestKey,
      note,
      now: this.now(),
    });
    return { balance: after, replayed: false };
  }

  /** A store or mall of the card's brand redeems in one step (number, password, amount, request key). */
  async redeem(
    actor: Actor,
    req: { cardNo: string; password: string; amount: number; requestKey: string },
    client: string | null,
    lang: Lang,
  ) {
    const me = await this.merchantOf(actor);
    // Only the brand's own cards exist for it: another brand's answers like an unknown number (no oracle).
    const card = await this.verify(req.cardNo, req.password, client, lang, me.id);
    const { balance } = await withTx(this.deps.db, (tx) =>
      this.debit(tx, card.id, req.amount, "redeem", `redeem:${req.requestKey}`, "redeem"),
    );
    return {
      id: `${card.id}`,
      state: "captured" as const,
      amount: money(req.amount, card.currency),
      balance: money(balance, card.currency),
    };
  }

  /** Two-phase redemption, first step: reserves `amount` of the card's balance. */
  async hold(
    actor: Actor,
    req: { cardNo: string; password: string; amount: number; requestKey: string },
    client: string | null,
    lang: Lang,
  ) {
    const me = await this.merchantOf(actor);
    // Only the brand's own cards exist for it: another brand's answers like an unknown number (no oracle).
    const card = await this.verify(req.cardNo, req.password, client, lang, me.id);
    const key = `${me.id}:${req.requestKey}`;
    return withTx(this.deps.db, async (tx) => {
      const c = await repo.lockCard(tx, card.id);
      if (!c) throw cardErr("onecard.cardUnknown");
      const first = await redemption.holdByKey(tx, key);
      if (first) {
        return {
          id: String(first.id),
          state: first.state,
          amount: money(first.amount, c.currency),
          balance: money(c.balance, c.currency),
        };
      }
      this.usable(c);
      if (c.balance - c.held < req.amount) throw conflict("onecard.insufficient");
      const h = {
        id: await redemption.insertHold(tx, {
          card_id: c.id,
          amount: req.amount,
          request_key: key,
          created_at: this.now(),
        }),
      };
      await redemption.setHeld(tx, c.id, c.held + req.amount);
      return {
        id: String(h.id),
        state: "held" as const,
        amount: money(req.amount, c.currency),
        balance: money(c.balance, c.currency),
      };
    });
  }

  /** Second step: capture (the money leaves the card) or release (the hold ends). Repeating it changes nothing. */
  async settleHold(actor: Actor, holdId: number, how: "capture" | "release") {
    const me = await this.merchantOf(actor);
    return withTx(this.deps.db, async (tx) => {
      const h0 = await redemption.holdById(tx, holdId);
      const c = h0 ? await repo.lockCard(tx, h0.card_id) : undefined;
      if (!h0 || !c || c.brander_id !== me.id) throw new AppError(CODE.NOT_FOUND, "onecard.holdNotFound");
      const h = await redemption.lockHold(tx, holdId);
      const target: "captured" | "released" = how === "capture" ? "captured" : "released";
      if (h.state === target) {
        return {
          id: String(h.id),
          state: h.state,
          amount: money(h.amount, c.currency),
          balance: money(c.balance, c.currency),
        };
      }
      if (h.state !== "held") throw conflict("onecard.holdDone");
      let balance = c.balance;
      if (how === "capture") {
        balance = c.balance - h.amount;
        await redemption.setHeldAndBalance(tx, c.id, c.held - h.amount, balance);
        await repo.addMove(tx, {
          cardId: c.id,
          kind: "capture",
          amount: -h.amount,
          balanceAfter: balance,
          requestKey: `hold:${h.id}`,
          note: "capture",
          now: this.now(),
        });
      } else {
        await redemption.setHeld(tx, c.id, c.held - h.amount);
      }
      await redemption.settleHold(tx, h.id, target, this.now());
      return {
        id: String(h.id),
        state: target,
        amount: money(h.amount, c.currency),
        balance: money(balance, c.currency),
      };
    });
  }
}
