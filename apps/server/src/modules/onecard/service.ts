import type { Lang, OcBalance, SendCodeReply } from "@tessera/contracts";
import type { Db, Tx } from "../../db/tx";
import type { Clock } from "../../platform/clock";
import type { SmsSender } from "../../platform/messaging/adapters";
import type { CardKeys } from "../supply";
import { BagService } from "./bag.service";
import { IssuingService } from "./issuing.service";
import { RedemptionService } from "./redemption.service";
import * as repo from "./repo";
import { SalesService } from "./sales.service";

/** What one-card needs of accounts: SMS codes to a card holder's phone (reset password). */
export interface OnecardCodes {
  send(phone: string, lang: Lang): Promise<SendCodeReply>;
  check(phone: string, code: string): Promise<number>;
  consume(tx: Tx, codeId: number, now: Date): Promise<boolean>;
}

export interface OnecardDeps {
  db: Db;
  clock: Clock;
  keys: CardKeys;
  /** Key of the password hashes (derived from the app secret). */
  pwdKey: Buffer;
  sms: SmsSender;
  codes: OnecardCodes;
  /** Key of the gift links' MACs (derived from the app secret). */
  giftKey: Buffer;
  /** The web app's public address: a gift SMS carries its claim link. */
  publicUrl: string;
  /** The embedded database lands issued cards with COPY (repo.copyCards); a server with one INSERT from arrays. */
  copyInserts?: boolean;
}

/**
 * Stored-value cards. Brands define products and issue batches (`issuing`); purchasers buy cards with SUP
 * money, activate them, return unactivated ones and extract their passwords (`sales`, activation in
 * `issuing`); gift them to phones or by link into customers' card bags (`bag`); stores and brands redeem
 * them (`redemption`). A card's balance changes only with a row in its own book (onecard_moves), under
 * the card's row lock, and never below what is held.
 *
 * The card checks and the debit other modules use (stores, the mall) stay callable here.
 */
export class OnecardService {
  readonly issuing: IssuingService;
  readonly sales: SalesService;
  readonly redemption: RedemptionService;
  readonly bag: BagService;

  constructor(private readonly deps: OnecardDeps) {
    this.issuing = new IssuingService(deps);
    this.sales = new SalesService(deps);
    this.redemption = new RedemptionService(deps);
    this.bag = new BagService(deps, this.redemption);
  }

  /** A card by number and password (see RedemptionService.verify). */
  verify(
    cardNo: string,
    password: string,
    client: string | null,
    lang: Lang,
    brandId?: number,
  ): Promise<repo.CardRowDb> {
    return this.redemption.verify(cardNo, password, client, lang, brandId);
  }

  /** The public balance query (oneCardQuery): number and password. */
  balance(cardNo: string, password: string, client: string, lang: Lang): Promise<OcBalance> {
    return this.redemption.balance(cardNo, password, client, lang);
  }

  /** Takes `amount` off a card under its row lock, once per request key (see RedemptionService.debit). */
  debit(
    tx: Tx,
    cardId: number,
    amount: number,
    kind: "redeem" | "capture",
    requestKey: string,
    note: string,
  ): Promise<{ balance: number; replayed: boolean }> {
    return this.redemption.debit(tx, cardId, amount, kind, requestKey, note);
  }

  /** Unclaimed gifts past their expiry go back to the sender (the job). */
  expireGifts(): Promise<number> {
    return this.bag.expireGifts();
  }

  checkInvariants(): Promise<string[]> {
    return repo.invariantProblems(this.deps.db);
  }
}
