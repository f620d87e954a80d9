/**
 * The ledger's vocabulary, shared by server and web: account kinds and transaction kinds. Amounts are
 * integers of minor units with a currency (see enums.ts CURRENCIES).
 */

/** Accounts a merchant holds, one per currency it settles in. */
export const MERCHANT_ACCOUNT_KINDS = [
  /** Purchaser's reserve/payment account (备付金): top-ups land here. */
  "reserve",
  /** Purchaser's SUP account: pays suppliers for purchases. */
  "sup",
  /** Supplier's income account: sales land here, withdrawals and T+1 payouts leave from it. */
  "income",
  /** Rebates earned from suppliers. */
  "rebate",
  /** Service provider's commission. */
  "commission",
  /** Amounts held for withdrawals in progress: no longer spendable, not yet paid out. */
  "withdrawal_hold",
  /**
   * Test money: what customers "paid" through the local (sandbox) payment adapter, which collects
   * nothing. It never feeds withdrawals, transfers or the automatic payout (issue 37).
   */
  "sandbox_income",
] as const;
export type MerchantAccountKind = (typeof MERCHANT_ACCOUNT_KINDS)[number];

/** The platform's own accounts, per currency. */
export const PLATFORM_ACCOUNT_KINDS = [
  /** Mirror of the platform's bank accounts: money received from outside makes it negative. */
  "bank_clearing",
  /** Fees the platform has earned. */
  "fees",
  /** Payouts sent to the bank, awaiting confirmation. */
  "payables",
  /** Purchasers' money for orders not fulfilled yet: direct top-ups, one-card cards not activated, store vouchers not redeemed and settled. */
  "order_escrow",
  /** The sandbox's mirror of bank clearing: money the local payment adapter pretends to receive. */
  "sandbox_clearing",
  /** Sandbox orders paid but not yet completed (takeout): test money held as order_escrow holds real money. */
  "sandbox_escrow",
  /** Fees taken on sandbox payments: not the platform's earnings. */
  "sandbox_fees",
] as const;
export type PlatformAccountKind = (typeof PLATFORM_ACCOUNT_KINDS)[number];

/** What a ledger transaction was for; fund-change lists show it as the change type. */
export const LEDGER_TRANSACTION_KINDS = [
  "top_up",
  "top_up_fee",
  "top_up_refund",
  "manual_credit",
  "reserve_transfer",
  "withdrawal_hold",
  "withdrawal_release",
  "withdrawal_payout",
  "purchase",
  "refund",
  "transfer",
  /** A service provider's confirmed monthly commission statement, paid into its income account (its fund account). */
  "commission",
  /** A supplier's monthly rebate to a purchaser, from its income into the purchaser's rebate account. */
  "rebate",
  /** A store's settlement document: voucher money held in escrow since the sale, to the brand's income. */
  "store_settlement",
  /** One-card cards sold to a purchaser: its SUP into the order escrow until activation (issue 37: was "purchase"). */
  "card_sale",
  /** One-card cards activated: the escrowed sale to the brand's income. */
  "card_activation",
  /** A payment collected through a collection (收款) code: the merchant's income less the fee. */
  "collection_payment",
  /** A takeout order paid and settled. */
  "takeout_sale",
  /** A customer's mall order paid into the merchant's income. */
  "mall_sale",
] as const;
export type LedgerTransactionKind = (typeof LEDGER_TRANSACTION_KINDS)[number];
