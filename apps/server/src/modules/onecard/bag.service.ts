import { createHmac, timingSafeEqual } from "node:crypto";
import {
  CODE,
  ONECARD_LIMITS,
  renderMessage,
  type Lang,
  type OcBagReply,
  type OcGift,
  type OcGiftPreview,
  type OcMove,
  type Page,
  type SendCodeReply,
} from "@tessera/contracts";
import { withTx, type Tx } from "../../db/tx";
import type { Actor } from "../../platform/auth/actor";
import { audit } from "../../platform/audit";
import { AppError, conflict, invalid } from "../../platform/http/errors";
import { merchantOfActor, type MerchantRow } from "../merchants";
import * as bagRepo from "./bag.repo";
import { maskNo, parseCardNumber, passwordHash } from "./cardno";
import { loginExpired, type Customer } from "./customers.service";
import { cardErr, DAY_MS, effectiveState, money, presentCard, presentGift } from "./presenter";
import type { RedemptionService } from "./redemption.service";
import * as repo from "./repo";
import type { OnecardDeps } from "./service";
import { pageWindow } from "../../db/paginate";

/**
 * Gifts and the customer's card bag: a purchaser gives activated cards to a phone or by link (alone, or a
 * gift package's); the customer claims them into their card bag, binds a card they hold, reads its moves
 * and resets its password. Unclaimed gifts expire back to the sender.
 */
export class BagService {
  constructor(
    private readonly deps: OnecardDeps,
    private readonly redemption: RedemptionService,
  ) {}

  private now(): Date {
    return this.deps.clock.now();
  }
  private merchantOf(actor: Actor): Promise<MerchantRow> {
    return merchantOfActor(this.deps.db, actor);
  }

  /* ---------- purchaser: gifts ---------- */

  /**
   * Gives activated cards to a phone number (an SMS tells them; they claim the cards into their card bag)
   * or, without a phone, by link: the reply's link claims them for whoever opens it first, logged in.
   */
  async gift(
    actor: Actor,
    req: { cardIds: string[]; phone?: string | undefined; message: string; requestKey: string },
    lang: Lang,
  ): Promise<OcGift> {
    const me = await this.merchantOf(actor);
    const ids = [...new Set(req.cardIds.map(Number))].sort((a, b) => a - b);
    const { id, fresh } = await withTx(this.deps.db, async (tx) => {
      const first = await bagRepo.giftByKey(tx, me.id, req.requestKey);
      if (first) return { id: first.id, fresh: false };
      const cards = await repo.lockCards(tx, ids);
      if (cards.length !== ids.length || cards.some((c) => c.owner_id !== me.id)) {
        throw new AppError(CODE.FORBIDDEN, "onecard.notYours");
      }
      if (cards.some((c) => c.state === "sold")) throw conflict("onecard.notActivated");
      if (cards.some((c) => c.state !== "activated" || c.customer_id !== null || c.gift_id !== null)) {
        throw conflict("onecard.unusable");
      }
      const giftId = await this.giveCards(tx, actor, me, {
        cards,
        phone: req.phone ?? null,
        message: req.message,
        requestKey: req.requestKey,
        packageId: null,
      });
      return { id: giftId, fresh: true };
    });
    if (fresh && req.phone) await this.tellRecipients(actor, me, [{ id, phone: req.phone }], ids.length, lang);
    const [g] = (await this.gifts(actor, { page: 1, pageSize: 20, id })).list;
    if (!g) throw new AppError(CODE.NOT_FOUND, "onecard.giftNotFound");
    return g;
  }

  /** Records a gift of cards the caller locked and checked (activated, the sender's, not given), and marks them given. */
  async giveCards(
    tx: Tx,
    actor: Actor,
    me: MerchantRow,
    g: {
      cards: { id: number; balance: number }[];
      phone: string | null;
      message: string;
      requestKey: string;
      packageId: number | null;
    },
  ): Promise<number> {
    const now = this.now();
    const ids = g.cards.map((c) => c.id);
    const giftId = await bagRepo.insertGift(tx, {
      purchaser_id: me.id,
      phone: g.phone,
      package_id: g.packageId,
      card_ids: ids,
      amount: g.cards.reduce((sum, c) => sum + c.balance, 0),
      currency: me.currency,
      message: g.message,
      request_key: g.requestKey,
      expires_at: new Date(now.getTime() + ONECARD_LIMITS.giftDays * DAY_MS),
      created_at: now,
    });
    const row = { id: giftId };
    await bagRepo.markGiven(tx, ids, row.id);
    await audit(tx, {
      actorUserId: actor.userId,
      action: "onecard.gift",
      subjectType: "onecard_gift",
      subjectId: row.id,
      detail: { count: ids.length, byLink: g.phone === null },
    });
    return row.id;
  }

  /**
   * Tells each phone of fresh gifts by SMS. When one cannot be sent (the SMS provider refused it or was
   * unreachable, issue 41), none of these gifts stands: they are taken back (the cards free to give again,
   * the request key free to retry) and the provider's error is thrown.
   */
  async tellRecipients(
    actor: Actor,
    me: MerchantRow,
    gifts: { id: number; phone: string | null }[],
    count: number,
    lang: Lang,
  ): Promise<void> {
    try {
      for (const g of gifts) {
        if (g.phone === null) continue;
        const params = { from: me.name, count, link: this.giftLink(g.id) };
        const text = renderMessage("onecard.giftSms", lang, params);
        await this.deps.sms.send({ to: g.phone, kind: "giftNotice", params, text });
      }
    } catch (err) {
      const ids = gifts.map((g) => g.id);
      await withTx(this.deps.db, async (tx) => {
        await bagRepo.deleteUnsentGifts(tx, ids);
        await audit(tx, {
          actorUserId: actor.userId,
          action: "onecard.giftUnsent",
          subjectType: "onecard_gift",
          subjectId: ids.join(","),
          detail: { reason: err instanceof Error ? err.message : String(err) },
        });
      });
      throw err;
    }
  }

  /** The token of a gift's claim link: its id and a keyed MAC of it, so links cannot be guessed from ids. */
  giftToken(id: number): string {
    return `${id}.${createHmac("sha256", this.deps.giftKey).update(`gift:${id}`).digest("base64url").slice(0, 24)}`;
  }

  /**
   * What a gift link's landing shows before anyone logs in (issue 40, item 3): who sent how many cards worth
   * how much, their message, until when it can be claimed and whether it still can. The token is the
   * credential; nothing about the recipient is shown.
   */
  async giftPreview(token: string): Promise<OcGiftPreview> {
    const id = this.giftOfToken(token);
    const g = id === undefined ? undefined : await bagRepo.giftWithSender(this.deps.db, id);
    if (!g) throw new AppError(CODE.NOT_FOUND, "onecard.giftNotFound");
    const expired = g.state === "expired" || (g.state === "sent" && new Date(g.expires_at) <= this.now());
    return {
      from: g.sender,
      count: g.card_ids.length,
      amount: money(g.amount, g.currency),
      message: g.message,
      expiresAt: new Date(g.expires_at).toISOString(),
      state: expired ? "expired" : g.state === "claimed" ? "claimed" : "open",
    };
  }

  /** The claim link an SMS carries: the web app's public address and the gift's token. */
  giftLink(id: number): string {
    return `${this.deps.publicUrl}/client/claim?token=${encodeURIComponent(this.giftToken(id))}`;
  }

  private giftOfToken(token: string): number | undefined {
    const id = Number(token.split(".")[0]);
    if (!Number.isSafeInteger(id) || id <= 0) return undefined;
    const expected = Buffer.from(this.giftToken(id));
    const given = Buffer.from(token);
    return expected.length === given.length && timingSafeEqual(expected, given) ? id : undefined;
  }

  async gifts(
    actor: Actor,
    q: { page: number; pageSize: number; id?: number; ids?: number[]; packageId?: string | undefined },
  ): Promise<Page<OcGift>> {
    const me = await this.merchantOf(actor);
    await this.expireGifts();
    const { rows, total } = await bagRepo.giftPage(this.deps.db, me.id, {
      id: q.id,
      ids: q.ids,
      packageId: q.packageId !== undefined ? Number(q.packageId) : undefined,
      ...pageWindow(q),
    });
    return {
      list: rows.map((g) => ({
        ...presentGift(g, true),
        packageName: g.package_name,
        link: g.phone === null ? `/client/claim?token=${this.giftToken(g.id)}` : null,
      })),
      total,
      page: q.page,
      pageSize: q.pageSize,
    };
  }

  /** Unclaimed gifts past their expiry go back to the sender: the cards are free to give again. Idempotent. */
  async expireGifts(): Promise<number> {
    const now = this.now();
    return withTx(this.deps.db, async (tx) => {
      const expired = await bagRepo.expireSentGifts(tx, now);
      if (expired.length > 0) await bagRepo.ungiveCards(tx, expired);
      return expired.length;
    });
  }

  /* ---------- end customer ---------- */

  async bag(customer: Customer): Promise<OcBagReply> {
    await this.expireGifts();
    const { rows } = await repo.cardPage(this.deps.db, { customerId: customer.id, offset: 0, limit: 1000 });
    const gifts = await bagRepo.giftsToPhone(this.deps.db, customer.phone);
    const now = this.now();
    return {
      cards: rows.map((r) => {
        const view = presentCard(r, true, this.deps.keys);
        return {
          ...view,
          state: effectiveState(r, now),
          productName: r.product_name,
          branderName: r.brander_name,
          rechargeAllowed: r.recharge_allowed,
          code: view.cardNo,
        };
      }),
      gifts: gifts.map((g) => ({ ...presentGift(g, false), fromName: g.from_name })),
    };
  }

  /** Claims a gift sent to the customer's phone: its cards go into the card bag, once. */
  async claimGift(customer: Customer, giftId: number): Promise<OcBagReply> {
    await this.claim(customer, giftId, (g) => g.phone === customer.phone);
    return this.bag(customer);
  }

  /** Claims a gift by its link: the first customer to open it, or only its phone's when it was sent to one. */
  async claimByLink(customer: Customer, token: string): Promise<OcBagReply> {
    const id = this.giftOfToken(token);
    if (id === undefined) throw new AppError(CODE.NOT_FOUND, "onecard.giftNotFound");
    await this.claim(customer, id, (g) => g.phone === null || g.phone === customer.phone);
    return this.bag(customer);
  }

  private async claim(
    customer: Customer,
    giftId: number,
    mayClaim: (g: { phone: string | null }) => boolean,
  ): Promise<void> {
    const now = this.now();
    await withTx(this.deps.db, async (tx) => {
      const g = await bagRepo.lockGift(tx, giftId);
      if (!g || !mayClaim(g)) throw new AppError(CODE.NOT_FOUND, "onecard.giftNotFound");
      if (g.state === "claimed") throw conflict("onecard.giftClaimed");
      if (g.state === "expired" || new Date(g.expires_at) <= now) throw conflict("onecard.giftExpired");
      await repo.lockCards(tx, g.card_ids);
      await bagRepo.claimCards(tx, g.card_ids, g.id, customer.id);
      await bagRepo.markClaimed(tx, g.id, customer.id, now);
    });
  }

  /** Puts a card the customer holds (number and password) into their card bag (extract card). */
  async bind(customer: Customer, cardNo: string, password: string, client: string, lang: Lang): Promise<OcBagReply> {
    const card = await this.redemption.verify(cardNo, password, client, lang);
    await withTx(this.deps.db, async (tx) => {
      const c = await repo.lockCard(tx, card.id);
      if (!c) throw cardErr("onecard.cardUnknown");
      if (c.customer_id === customer.id) return;
      if (c.customer_id !== null) throw conflict("onecard.alreadyInBag");
      this.redemption.usable(c);
      if (c.gift_id !== null) throw conflict("onecard.unusable");
      await bagRepo.bindCard(tx, c.id, customer.id);
    });
    return this.bag(customer);
  }

  async moves(customer: Customer, q: { page: number; pageSize: number }): Promise<Page<OcMove>> {
    const { offset, limit } = pageWindow(q);
    const { rows, total } = await repo.movePage(this.deps.db, customer.id, offset, limit);
    return {
      list: rows.map((r) => ({
        id: String(r.id),
        cardNo: maskNo(this.deps.keys.unseal(r.sealed).number),
        kind: r.kind,
        amount: money(r.amount, r.currency),
        balanceAfter: money(r.balance_after, r.currency),
        note: r.store_name ?? r.note,
        createdAt: new Date(r.created_at).toISOString(),
      })),
      total,
      page: q.page,
      pageSize: q.pageSize,
    };
  }

  /**
   * Reset password, step one: a code to the customer's own phone, for a card in their card bag. A card
   * number alone texts nobody and reveals no phone: the caller must be the customer whose bag holds the
   * card (any other card answers like an unknown number), or know the current password (`resetPassword`).
   */
  async sendResetCode(customer: Customer, cardNo: string, lang: Lang): Promise<SendCodeReply> {
    await this.cardInBag(customer, cardNo);
    return this.deps.codes.send(customer.phone, lang);
  }

  /**
   * Reset password, step two: a new password, proved either by the code sent to the customer whose bag
   * holds the card, or by the card's current password (checked like any card check: per address and
   * per (card, address)). The lock and failures are cleared.
   */
  async resetPassword(
    req: { cardNo: string; password: string; smsCode?: string | undefined; currentPassword?: string | undefined },
    proof: { customer: Customer | null; client: string; lang: Lang },
  ): Promise<{ reset: true }> {
    let card: repo.CardRowDb;
    let codeId: number | undefined;
    if (req.currentPassword !== undefined) {
      card = await this.redemption.verify(req.cardNo, req.currentPassword, proof.client, proof.lang);
    } else {
      if (!proof.customer) throw loginExpired();
      if (req.smsCode === undefined) throw invalid("code.invalid", "smsCode");
      card = await this.cardInBag(proof.customer, req.cardNo);
      codeId = await this.deps.codes.check(proof.customer.phone, req.smsCode);
    }
    const now = this.now();
    await withTx(this.deps.db, async (tx) => {
      if (codeId !== undefined && !(await this.deps.codes.consume(tx, codeId, now))) {
        throw new AppError(CODE.CODE_INVALID, "code.invalid", {}, "smsCode");
      }
      const { number } = this.deps.keys.unseal(card.sealed);
      await bagRepo.setPassword(
        tx,
        card.id,
        passwordHash(this.deps.pwdKey, card.id, req.password),
        this.deps.keys.seal(number, req.password),
      );
      await repo.clearWrongPasswords(tx, card.id);
      await audit(tx, {
        actorUserId: null,
        action: "onecard.resetPassword",
        subjectType: "onecard_card",
        subjectId: card.id,
      });
    });
    return { reset: true };
  }

  /** The card, when it is in this customer's bag; any other answers like an unknown number. */
  private async cardInBag(customer: Customer, cardNo: string): Promise<repo.CardRowDb> {
    const card = parseCardNumber(cardNo)
      ? await repo.cardByHash(this.deps.db, this.deps.keys.numberHash(cardNo))
      : undefined;
    if (!card || card.customer_id !== customer.id) throw cardErr("onecard.cardUnknown");
    return card;
  }
}
